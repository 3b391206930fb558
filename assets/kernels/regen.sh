#!/usr/bin/env bash
# Rebuilds the code objects of assets/kernels/ from their OpenCL C sources
# (and noop.s) with Debian's clang-19 and lld-19 and the ROCm device libraries
# (apt-get install clang-19 lld-19 llvm-19 rocm-device-libs). Debian's device
# libraries have no oclc_isa_version_1100.bc: one line of LLVM IR makes it.
# tests/hsa_assets.rs checks that this script reproduces the checked-in files.
#
# Usage: assets/kernels/regen.sh [OUTDIR]   (default: beside this script)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here}"
mkdir -p "$out"
bc=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
libs="$(mktemp -d)"
trap 'rm -rf "$libs"' EXIT
for f in "$bc"/*.bc; do ln -s "$f" "$libs/"; done
printf '%s\n' \
  'target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"' \
  'target triple = "amdgcn-amd-amdhsa"' \
  '@__oclc_ISA_version = linkonce_odr hidden local_unnamed_addr addrspace(4) constant i32 11000, align 4' \
  > "$libs/isa1100.ll"
llvm-as-19 "$libs/isa1100.ll" -o "$libs/oclc_isa_version_1100.bc"

cl() { # SOURCE MCPU OUTPUT [EXTRA FLAGS…]
  local src=$1 cpu=$2 dst=$3
  shift 3
  clang-19 -x cl -cl-std=CL2.0 -cl-kernel-arg-info -target amdgcn-amd-amdhsa \
    -mcpu="$cpu" --rocm-device-lib-path="$libs" -O2 "$@" \
    "$here/$src" -o "$out/$dst"
}

for cpu in gfx900 gfx1030 gfx1100; do
  cl subgroups.cl "$cpu" "subgroups_$cpu.hsaco"
  cl private.cl "$cpu" "private_$cpu.hsaco"
  cl vadd.cl "$cpu" "vadd_$cpu.hsaco"
  cl ids.cl "$cpu" "ids_$cpu.hsaco"
  cl img.cl "$cpu" "img_$cpu.hsaco"
  cl math.cl "$cpu" "math_$cpu.hsaco"
  cl texel.cl "$cpu" "texel_$cpu.hsaco"
done
cl vadd.cl gfx1030 vadd_gfx1030_w64.hsaco -mwavefrontsize64
# Private arrays before gfx9 (the scratch V# with ADD_TID_ENABLE; the gfx7 and
# gfx8 prologues write FLAT_SCRATCH) and through gfx9/gfx10 scratch_*
# instructions (flat scratch, which clang uses with +enable-flat-scratch).
for cpu in bonaire tonga; do cl private.cl "$cpu" "private_$cpu.hsaco"; done
clang-19 -x cl -cl-std=CL1.2 -cl-kernel-arg-info -target amdgcn-amd-amdhsa \
  -mcpu=tahiti --rocm-device-lib-path="$libs" -O2 "$here/private.cl" \
  -o "$out/private_tahiti.hsaco"
for cpu in gfx900 gfx1030; do
  cl private.cl "$cpu" "private_fs_$cpu.hsaco" -Xclang -target-feature -Xclang +enable-flat-scratch
done
# Integer dot products (v_dot*), and a float one gcnrun refuses.
for cpu in gfx1030 gfx1100; do cl dot.cl "$cpu" "dot_$cpu.hsaco"; done
cl fdot2.cl gfx1030 fdot2_gfx1030.hsaco
cl vadd.cl gfx900 vadd_gfx900_v4.hsaco -mcode-object-version=4

# The decoder's kernels (tests/kernels_disasm.rs: their --disasm equals
# llvm-objdump-19's), built as the decoder work first built them.
# tahiti has no flat address space, so OpenCL 1.2 there.
for name in atomics buffer_math image_sample lds_reduce loops; do
  for cpu in tahiti bonaire gfx900 gfx1030 gfx1100; do
    std=CL2.0
    [ "$cpu" = tahiti ] && std=CL1.2
    clang-19 -x cl -Xclang -finclude-default-header -cl-std="$std" \
      -target amdgcn-amd-amdhsa -mcpu="$cpu" --rocm-device-lib-path="$libs" \
      -O2 -o "$out/${name}_$cpu.hsaco" "$here/$name.cl"
  done
done

# The host differential's kernel (tests/host_diff.rs), without contraction
# (the host side is compiled the same way), and with correctly rounded
# division and square root, as the host's.
for cpu in gfx900 gfx1030 gfx1100; do
  cl hostdiff.cl "$cpu" "hostdiff_$cpu.hsaco" -ffp-contract=off \
    -cl-fp32-correctly-rounded-divide-sqrt -I "$here"
done

# noop.s: assembled and linked by hand (kernel descriptor and metadata from
# its .amdhsa_kernel and .amdgpu_metadata directives).
llvm-mc-19 -triple amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj "$here/noop.s" -o "$libs/noop.o"
ld.lld-19 -shared "$libs/noop.o" -o "$out/noop_gfx900.hsaco"
