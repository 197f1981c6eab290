// Points: one vertex per voxel, read from the same buffer as the boxes' instances.
layout(location = 2) in vec3 center;
layout(location = 3) in vec3 color;

uniform mat4 viewProjection;
uniform float pointSize;       // pixels, when worldPointSize is 0
uniform float worldPointSize;  // world units (the points fallback for boxes), else 0
uniform float pixelScale;      // pixels per world unit at distance 1
uniform float maxPointSize;
uniform float sizeScale;       // √k when only every k-th voxel is drawn (level of detail)

out vec3 vColor;

void main() {
    vColor = color;
    gl_Position = viewProjection * vec4(center, 1.0);
    float size = worldPointSize > 0.0 ? worldPointSize * pixelScale / max(gl_Position.w, 1e-6) : pointSize;
    gl_PointSize = clamp(size * sizeScale, 1.0, maxPointSize);
}
