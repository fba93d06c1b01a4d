#version 330 core
// Agents as oriented discs: one instance per agent (src/viewer/agent_layer.cpp),
// a 4-vertex triangle strip per instance, positions interpolated between the
// last two simulation steps.

layout(location = 0) in vec4 aPos;    // previous x, y; last x, y [m]
layout(location = 1) in vec2 aShape;  // heading [rad], radius [m]
layout(location = 2) in vec4 aColour; // sRGB, normalised

uniform vec4 uView;       // world -> NDC: ndc = world * xy + zw
uniform float uAlpha;     // interpolation weight of the last step, 0..1
uniform float uMinRadius; // smallest drawn radius [m] (keeps far-away agents visible)

out vec2 vLocal;          // position in the disc, unit radius, +x = heading
out vec4 vColour;

const vec2 kCorners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));

void main() {
    vec2 centre = mix(aPos.xy, aPos.zw, uAlpha);
    float r = max(aShape.y, uMinRadius);
    vec2 q = kCorners[gl_VertexID];
    float c = cos(aShape.x), s = sin(aShape.x);
    vec2 world = centre + r * vec2(c * q.x - s * q.y, s * q.x + c * q.y);
    gl_Position = vec4(world * uView.xy + uView.zw, 0.0, 1.0);
    vLocal = q;
    vColour = aColour;
}
