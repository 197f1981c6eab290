// The module's functions are static inline in its header; SwiftPM needs one source file.
#include "CPointPaintSupport.h"
