#ifndef POINTPAINT_CPNG_SHIM_H
#define POINTPAINT_CPNG_SHIM_H
#include <png.h>
#endif
