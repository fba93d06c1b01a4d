#version 330 core
// World-space line segments (velocity arrows).

layout(location = 0) in vec2 aPos;  // [m]
uniform vec4 uView;

void main() { gl_Position = vec4(aPos * uView.xy + uView.zw, 0.0, 1.0); }
