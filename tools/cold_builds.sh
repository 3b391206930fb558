#!/usr/bin/env bash
# Time to first result on the GPU, cold: runs `gcn-run --gpu` on every bundled
# manifest, one after another, with Mesa's shader cache off (so that lavapipe,
# or RADV, builds every pipeline afresh), and prints one line per manifest —
# wall seconds, peak resident memory, exit status — slowest first, then the
# total and how many took 3 s or more (issue 17's target). Other drivers keep
# caches of their own (NVIDIA's among them): there, clear it first, or read
# the figures as warm.
#
#   tools/cold_builds.sh [MANIFEST...]     (GCN_RUN: the binary, default
#                                           target/release/gcn-run; ADAPTER:
#                                           passed as --adapter when set)
#
# Nothing here is part of the test suite: the tests run the same manifests
# under --diff. docs/gpu.md keeps the figures of each pass ("Time to first
# result on lavapipe", "Issue 17's targets, measured again"). A manifest that
# fails shows its exit status; run it alone to read its error.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${GCN_RUN:-target/release/gcn-run}
[ -x "$bin" ] || { echo "cold_builds.sh: no $bin (cargo build --release)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "cold_builds.sh: needs /usr/bin/time (Debian: time)" >&2; exit 2; }
if [ $# -eq 0 ]; then
    mapfile -t manifests < <(find assets -name '*.toml' ! -name '*.scene.toml' | sort)
else
    manifests=("$@")
fi
adapter=()
[ -n "${ADAPTER:-}" ] && adapter=(--adapter "$ADAPTER")
export MESA_SHADER_CACHE_DISABLE=true
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
rows=$(mktemp)
stat=$(mktemp)
trap 'rm -f "$rows" "$stat"' EXIT
for m in "${manifests[@]}"; do
    # %e: wall seconds, %M: peak resident KiB, %x: exit status.
    /usr/bin/time -o "$stat" -f '%e %M %x' "$bin" --gpu "${adapter[@]}" "$m" >/dev/null 2>&1 || true
    read -r wall kib rc < <(tail -1 "$stat")
    printf '%s %s %s %s\n' "$wall" "$kib" "$rc" "$m" >>"$rows"
done
sort -rn "$rows" | awk '{ printf "%7.2f s %6.0f MiB  rc %s  %s\n", $1, $2 / 1024, $3, $4 }'
awk '{ t += $1; n++; if ($1 >= 3) s++; if ($3 != 0) f++ }
     END { printf "%d manifests, %.0f s in all, %d at 3 s or more, %d with a non-zero exit\n", n, t, s, f }' "$rows"
