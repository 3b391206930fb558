#version 450
// Smooth, flat and noperspective varyings, gl_FragCoord, and discard.
layout(location = 0) in vec4 smooth_col;
layout(location = 1) flat in vec4 flat_col;
layout(location = 2) noperspective in vec2 lin;
layout(location = 0) out vec4 color;
void main() {
    if (lin.x > 0.75) discard;
    vec2 checker = floor(gl_FragCoord.xy / 4.0);
    float k = mod(checker.x + checker.y, 2.0);
    color = mix(smooth_col, flat_col, k) * vec4(1.0, 1.0, lin.y, 1.0);
}
