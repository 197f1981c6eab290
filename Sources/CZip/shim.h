#ifndef POINTPAINT_CZIP_SHIM_H
#define POINTPAINT_CZIP_SHIM_H
#include <zip.h>
#endif
