#!/usr/bin/env bash
# Regenerates assets/sample_quad.bin from assets/sample_quad.s with LLVM 19:
# assemble for gfx7 (bonaire) into an ELF object, then keep the raw .text bytes.
# tests/cli.rs checks that the committed .bin equals llvm-mc-19's assembly.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
llvm-mc-19 -arch=amdgcn -mcpu=bonaire -filetype=obj -o "$tmp/sample_quad.o" "$here/sample_quad.s"
llvm-objcopy-19 -O binary --only-section=.text "$tmp/sample_quad.o" "$here/sample_quad.bin"
echo "wrote $here/sample_quad.bin ($(wc -c <"$here/sample_quad.bin") bytes)"
