// Round points: fragments outside the disc are discarded.
in vec3 vColor;
out vec4 fragColor;

void main() {
    vec2 d = gl_PointCoord - vec2(0.5);
    if (dot(d, d) > 0.25) discard;
    fragColor = vec4(styleColor(vColor), 1.0);
}
