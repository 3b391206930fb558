#version 450
// A texture sampled at an interpolated coordinate, tinted by a smooth colour:
// image_sample with implicit derivatives (helper lanes at the triangle's edges).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 tint;
layout(location = 0) out vec4 color;
void main() { color = vec4(texture(tex, uv).rgb * tint.rgb, tint.a); }
