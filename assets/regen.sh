#!/usr/bin/env bash
# Regenerates assets/*.bin from assets/*.s with LLVM 19: assemble each for its
# processor into an ELF object, then keep the raw .text bytes.
# tests/cli.rs checks that the committed .bin equals llvm-mc-19's assembly.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# name:mcpu for every assembly asset.
for pair in sample_quad:bonaire interp_p1p2:gfx900 image_rw:gfx900 gradient_quad:tahiti atomics:gfx900 resinfo:gfx900 image_ext:gfx900 image_d16_gfx8:tonga image_gfx10:gfx1030 image_gfx11:gfx1100 sample_gfx11:gfx1100 interp_vop3:gfx900 interp_gfx11:gfx1100 image_bcn:gfx900 sample_bcn:gfx900 format_sweep:gfx900 format_load:gfx900 atomics_all:gfx900 atomics_float:bonaire atomics64:bonaire bench_copy:gfx900 bench_atomic:gfx900 bench_interp:gfx900 bench_sample:gfx900 bench_trilinear:gfx900 bench_gather4:gfx900 bench_alu:gfx900 sample_filter:gfx900 sample_address:gfx900 sample_lod:gfx900 sample_compare:gfx900 gather4:gfx900 gather4_gfx8:gfx803 sample_cube:gfx900 sample_3d_array:gfx900 sample_gfx10:gfx1010 sample_d16:gfx900 sample_a16:gfx900 sample_g16:gfx1030 sample_degamma:gfx900 degamma_sweep:gfx900 buffer_ranges:gfx900 buffer_ranges_gfx6:tahiti carry_gfx6:tahiti dpp:gfx900 dpp_gfx10:gfx1030 ds_lanes:gfx900 lane_masks:gfx900 packed:gfx900 packed_gfx10:gfx1030 dx9_mul:gfx900 dx9_mul_gfx10:gfx1030 typed_buffer:gfx900 typed_buffer_gfx10:gfx1030 f64:gfx900 draw_interp:gfx900 draw_f16:gfx900; do
  name="${pair%%:*}"; mcpu="${pair##*:}"
  llvm-mc-19 -arch=amdgcn -mcpu="$mcpu" -filetype=obj -o "$tmp/$name.o" "$here/$name.s"
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/$name.o" "$here/$name.bin"
  echo "wrote $here/$name.bin ($(wc -c <"$here/$name.bin") bytes)"
done
# buffer_ranges.s again for gfx1030 (assets/buffer_ranges_gfx10.toml).
llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 -filetype=obj -o "$tmp/buffer_ranges_gfx10.o" "$here/buffer_ranges.s"
llvm-objcopy-19 -O binary --only-section=.text "$tmp/buffer_ranges_gfx10.o" "$here/buffer_ranges_gfx10.bin"
echo "wrote $here/buffer_ranges_gfx10.bin ($(wc -c <"$here/buffer_ranges_gfx10.bin") bytes)"
# typed_buffer_gfx10.s again for gfx1100 (assets/typed_buffer_gfx11.toml).
llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -filetype=obj -o "$tmp/typed_buffer_gfx11.o" "$here/typed_buffer_gfx10.s"
llvm-objcopy-19 -O binary --only-section=.text "$tmp/typed_buffer_gfx11.o" "$here/typed_buffer_gfx11.bin"
echo "wrote $here/typed_buffer_gfx11.bin ($(wc -c <"$here/typed_buffer_gfx11.bin") bytes)"
# gfx10.3 BVH ray intersection (assets/bvh_*.toml).
for name in bvh_box bvh_triangle; do
  llvm-mc-19 -arch=amdgcn -mcpu=gfx1030 -filetype=obj -o "$tmp/$name.o" "$here/$name.s"
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/$name.o" "$here/$name.bin"
  echo "wrote $here/$name.bin ($(wc -c <"$here/$name.bin") bytes)"
done
# The native-sampler oracle's kernels (tests/sampler_oracle.rs), all gfx900.
for name in oracle_sample_l oracle_sample_d oracle_sample_b oracle_gather4 oracle_gather4_c oracle_sample_c; do
  llvm-mc-19 -arch=amdgcn -mcpu=gfx900 -filetype=obj -o "$tmp/$name.o" "$here/$name.s"
  llvm-objcopy-19 -O binary --only-section=.text "$tmp/$name.o" "$here/$name.bin"
  echo "wrote $here/$name.bin ($(wc -c <"$here/$name.bin") bytes)"
done
