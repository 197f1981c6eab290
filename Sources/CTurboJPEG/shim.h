#ifndef POINTPAINT_CTURBOJPEG_SHIM_H
#define POINTPAINT_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
