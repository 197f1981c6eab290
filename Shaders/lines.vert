// Axes and grid lines.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;

uniform mat4 viewProjection;

out vec3 vColor;

void main() {
    vColor = color;
    gl_Position = viewProjection * vec4(position, 1.0);
}
