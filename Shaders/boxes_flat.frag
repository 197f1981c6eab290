// Unlit boxes: every face shows the voxel's colour exactly.
in vec3 vColor;
in vec3 vNormal;
out vec4 fragColor;

void main() {
    fragColor = vec4(styleColor(vColor), 1.0);
}
