#version 330 core
uniform vec4 uColour;
out vec4 fragColour;

void main() { fragColour = uColour; }
