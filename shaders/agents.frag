#version 330 core
// Disc with an anti-aliased rim and a darker notch pointing along the heading.

in vec2 vLocal;
in vec4 vColour;
out vec4 fragColour;

void main() {
    float d = length(vLocal);
    float aa = max(fwidth(d), 1e-4);
    float alpha = 1.0 - smoothstep(1.0 - aa, 1.0, d);
    if (alpha <= 0.0) discard;
    vec3 c = vColour.rgb;
    if (vLocal.x > 0.45 && abs(vLocal.y) < 0.22) c *= 0.45;
    fragColour = vec4(c, alpha);
}
