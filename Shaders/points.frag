// Points: round (corners outside the disc discarded) or square.
in vec3 vColor;
out vec4 fragColor;

uniform int roundPoints;

void main() {
    if (roundPoints != 0) {
        vec2 d = gl_PointCoord - vec2(0.5);
        if (dot(d, d) > 0.25) discard;
    }
    fragColor = vec4(styleColor(vColor), 1.0);
}
