// Square points with no discard, so the rasteriser keeps its early depth test: what the box
// strategies draw past their box budget (large clouds).
in vec3 vColor;
out vec4 fragColor;

void main() {
    fragColor = vec4(styleColor(vColor), 1.0);
}
