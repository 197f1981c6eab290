// No colour grading: the renderer uses this in place of grading.glsl while no colour cube is
// set, so ungraded frames pay nothing for the cube (no branch, no sampler).
vec3 styleColor(vec3 color) {
    return color;
}
