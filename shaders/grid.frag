#version 330 core
// Cells: walls, floor, goal and spawn tints (uScene, alpha 1 = wall), and on
// open cells the field overlay through a colour map.

in vec2 vUv;
out vec4 fragColour;

uniform sampler2D uScene;      // RGBA8 per cell
uniform sampler2D uField;      // R32F per cell
uniform sampler2D uColourMap;  // 256 x 1 RGB8 (viridis)
uniform int uOverlay;          // 0: none
uniform vec2 uRange;           // field values mapped to 0..1 of the colour map

void main() {
    vec4 s = texture(uScene, vUv);
    vec3 c = s.rgb;
    if (uOverlay != 0 && s.a < 0.5) {
        float t = clamp((texture(uField, vUv).r - uRange.x) / (uRange.y - uRange.x), 0.0, 1.0);
        vec3 m = texture(uColourMap, vec2(t * (255.0 / 256.0) + 0.5 / 256.0, 0.5)).rgb;
        c = mix(m, c, 0.15);
    }
    fragColour = vec4(c, 1.0);
}
