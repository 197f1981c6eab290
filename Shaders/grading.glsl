// Colour grading: the colour cube as a 3D texture (x = red, y = green, z = blue), trilinear
// filtering doing the cube's interpolation. Used only while a cube is set (else ungraded.glsl).
uniform sampler3D gradeCube;
uniform float gradeCubeSize;   // lattice points per axis

vec3 styleColor(vec3 color) {
    // Lattice point i sits at texel centre (i + 0.5) / N.
    vec3 t = clamp(color, 0.0, 1.0);
    vec3 coordinate = t * ((gradeCubeSize - 1.0) / gradeCubeSize) + 0.5 / gradeCubeSize;
    return texture(gradeCube, coordinate).rgb;
}
