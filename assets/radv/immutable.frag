#version 450
// An immutable sampler (RADV embeds its S# in the code as constants), a flat
// integer varying, and an 8-bit integer target (exported as UINT16_ABGR).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint id;
layout(location = 0) out uvec4 color;
void main() {
    uvec4 c = uvec4(texture(tex, uv) * 255.0);
    color = (c ^ uvec4(id, id >> 8, id >> 16, 0u)) & 0xffu;
}
