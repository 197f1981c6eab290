// Wide-gamut highlight: colours an sRGB display can show turn grey (their luma), colours
// outside sRGB (extended values below 0 or above 1) keep their colour.
uniform float gamutTolerance;  // how far outside 0…1 still counts as inside (about half a level)

vec3 styleColor(vec3 color) {
    bool outside = any(lessThan(color, vec3(-gamutTolerance)))
        || any(greaterThan(color, vec3(1.0 + gamutTolerance)));
    if (outside) return clamp(color, 0.0, 1.0);
    float luma = dot(clamp(color, 0.0, 1.0), vec3(0.2126, 0.7152, 0.0722));
    return vec3(0.25 + 0.5 * luma);
}
