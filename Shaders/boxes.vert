// Instanced boxes: one unit cube (24 corners, 4 a face, with face normals) drawn once per voxel.
layout(location = 0) in vec3 corner;   // -0.5…0.5
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 center;   // per instance
layout(location = 3) in vec3 color;    // per instance, extended sRGB

uniform mat4 viewProjection;
uniform float boxSize;

out vec3 vColor;
out vec3 vNormal;

void main() {
    vColor = color;
    vNormal = normal;
    gl_Position = viewProjection * vec4(center + corner * boxSize, 1.0);
}
