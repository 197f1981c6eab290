// Square points with no discard, so the rasteriser keeps its early depth test: the points
// fallback for large clouds and the points strategy when round points are off.
in vec3 vColor;
out vec4 fragColor;

void main() {
    fragColor = vec4(styleColor(vColor), 1.0);
}
