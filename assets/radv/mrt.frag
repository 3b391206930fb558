#version 450
// Two render targets, one 8-bit (16-bit packed export) and one 32-bit float
// (32-bit export); textureLod, texelFetch and textureGather on one texture.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) flat in ivec2 texel;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 data;
void main() {
    color = textureLod(tex, uv, 1.0) + 0.25 * texelFetch(tex, texel, 0);
    data = textureGather(tex, uv, 1);
}
