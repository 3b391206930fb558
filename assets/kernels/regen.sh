#!/bin/sh
# Rebuilds the code objects of these OpenCL C kernels for tahiti (gfx6),
# bonaire (gfx7), gfx900, gfx1030 and gfx1100 with clang-19 and Debian's
# rocm-device-libs. gfx1100 has no oclc_isa_version bitcode there; one line of
# LLVM IR provides it. tahiti has no flat address space, so OpenCL 1.2.
#
# Usage: assets/kernels/regen.sh   (from anywhere)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
libs=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lib"
ln -s "$libs"/*.bc "$tmp/lib/"
cat > "$tmp/v1100.ll" <<'LL'
target datalayout = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"
@__oclc_ISA_version = linkonce_odr hidden local_unnamed_addr addrspace(4) constant i32 11000, align 4
LL
llvm-as-19 "$tmp/v1100.ll" -o "$tmp/lib/oclc_isa_version_1100.bc"
for src in "$here"/*.cl; do
  name=$(basename "$src" .cl)
  for cpu in tahiti bonaire gfx900 gfx1030 gfx1100; do
    std=CL2.0
    [ "$cpu" = tahiti ] && std=CL1.2
    clang-19 -x cl -Xclang -finclude-default-header -cl-std="$std" \
      -target amdgcn-amd-amdhsa -mcpu="$cpu" --rocm-device-lib-path="$tmp/lib" \
      -O2 -o "$here/${name}_$cpu.hsaco" "$src"
  done
done
