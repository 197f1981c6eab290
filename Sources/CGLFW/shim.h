#ifndef POINTPAINT_CGLFW_SHIM_H
#define POINTPAINT_CGLFW_SHIM_H
// OpenGL 3.3 core entry points are exported directly by libGL (GLVND) on Linux, so the
// prototypes from glext.h are enough; no loader is needed.
#define GL_GLEXT_PROTOTYPES 1
#define GLFW_INCLUDE_GLCOREARB 0
#define GLFW_INCLUDE_NONE 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>
#endif
