#!/usr/bin/env bash
# Regenerates the real IGC dumps in assets/visa/igc/ from the OpenCL kernels
# beside them: Intel's offline compiler ocloc (Debian bookworm:
# `apt-get install intel-opencl-icd libigc1`, IGC 1.0.12504) compiles each .cl
# for TGLLP with shader dumps enabled, and every kernel's vISA text and binary
# object are kept as FILE__KERNEL.visaasm and FILE__KERNEL.isa. The binaries
# have IGC 12504's damaged instruction stream (docs/visa.md): their header and
# tables are exact, but after the operands it wrote the stream holds bytes that
# change from run to run (uninitialised memory), so regenerated .isa files
# differ there. tests/visa_binary.rs reads both.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
rm -f "$here"/*.visaasm "$here"/*.isa
for src in "$here"/*.cl; do
  base="$(basename "$src" .cl)"
  rm -rf "$tmp/dump" "$tmp/out"
  cp "$src" "$tmp/$base.cl"
  # A relative dump directory keeps machine paths out of the objects' OutputAsmPath.
  (cd "$tmp" && IGC_ShaderDumpEnable=1 IGC_DumpToCustomDir=dump/ \
    ocloc compile -file "$base.cl" -device tgllp -options "-cl-std=CL2.0" -out_dir out >/dev/null)
  for v in "$tmp"/dump/*.visaasm; do
    kernel="$(sed -n 's/^\.kernel "\(.*\)"$/\1/p' "$v")"
    cp "$v" "$here/${base}__${kernel}.visaasm"
    cp "${v%.visaasm}.isa" "$here/${base}__${kernel}.isa"
    echo "wrote $here/${base}__${kernel}.visaasm and .isa"
  done
done
