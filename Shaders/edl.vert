// Eye-dome lighting: one triangle covering the screen (no vertex data; gl_VertexID 0, 1, 2).
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
