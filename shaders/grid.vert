#version 330 core
// The scene grid as one quad (no vertex buffer: corners from gl_VertexID).

uniform vec4 uView;  // world -> NDC: ndc = world * xy + zw
uniform vec4 uRect;  // grid corner x, y and size w, h [m]

out vec2 vUv;

void main() {
    vec2 q = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vUv = q;
    vec2 world = uRect.xy + q * uRect.zw;
    gl_Position = vec4(world * uView.xy + uView.zw, 0.0, 1.0);
}
