#version 450
// Trilinear sampling over a mip chain with implicit derivatives (quads
// straddle the triangle's edges: helper lanes), textureGrad with explicit
// gradients, and a shadow comparison, writing a 32-bit float target.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec4 a = texture(tex, uv);
    vec4 b = textureGrad(tex, uv, vec2(0.25, 0.0), vec2(0.0, 0.125));
    float s = texture(depth, vec3(uv, 0.5));
    color = vec4(a.r, b.g, s, a.a * b.a);
}
