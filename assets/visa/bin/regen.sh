#!/usr/bin/env bash
# Regenerates the Intel-written binary vISA objects in assets/visa/bin/ from the
# hand-written .visaasm beside them, with Intel's vISA assembler GenX_IR
# (Debian bookworm: `apt-get install libigc-tools`, IGC 1.0.12504, vISA 4.1):
#   NAME.visaasm  --GenX_IR -binary-->  NAME.genxir12504.isa
# That 2022 writer drops most operands after each instruction's fixed fields
# (docs/visa.md, "Binary objects"), so these files have a correct header and
# tables but a damaged instruction stream. NAME.isa is the same object with the
# stream re-encoded from NAME.visaasm; tests/visa_binary.rs checks it against
# the Intel bytes and rewrites it when run with GCNRUN_BLESS=1:
#   GCNRUN_BLESS=1 cargo test --test visa_binary
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for src in "$here"/*.visaasm; do
  name="$(basename "$src" .visaasm)"
  # GenX_IR writes its .isa/.dat next to the input: work on a copy.
  cp "$src" "$tmp/$name.visaasm"
  (cd "$tmp" && GenX_IR "$name.visaasm" -platform TGLLP -binary -outputCisaBinaryName "$name.isa" >/dev/null)
  cp "$tmp/$name.isa" "$here/$name.genxir12504.isa"
  echo "wrote $here/$name.genxir12504.isa ($(wc -c <"$here/$name.genxir12504.isa") bytes)"
done
