#!/usr/bin/env bash
# Regenerates assets/radv/<scene>.<chip>.{bin,s,toml} from each
# <scene>.scene.toml and its GLSL: radv-corpus compiles the shader through
# Mesa's RADV/ACO on its null device for vega10, navi21 and gfx1100 (no AMD GPU
# needed; Debian: glslang-tools, mesa-vulkan-drivers, libvulkan1).
# tests/radv_draw.rs checks that the committed files are what this writes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
cargo run --release --quiet --bin radv-corpus -- "$here"/*.scene.toml "$@"
