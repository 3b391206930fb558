#version 450
// Push constants (RADV passes small ones in user SGPRs) scaling and
// offsetting a smooth colour; gl_FrontFacing picks between two tints.
layout(push_constant) uniform Push { vec4 scale; vec4 bias; } pc;
layout(location = 0) in vec4 col;
layout(location = 0) out vec4 color;
void main() {
    vec4 c = col * pc.scale + pc.bias;
    color = gl_FrontFacing ? c : c.bgra;
}
