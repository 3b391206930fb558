#!/usr/bin/env bash
# The real-GPU check, for a machine lent for a few minutes, in priority order
# under one deadline: `gcn-run bench` at the default lanes, the clang kernel
# with speculation off and on, a `--sweep` of the workloads whose growth
# matters most, then every bundled manifest under `--diff` (CPU against the
# default adapter, which prefers a discrete GPU) with its cold wall time.
# Nothing here is part of the test suite; CI runs the same programs on
# lavapipe through the tests.
#
#   tools/device_check.sh [RESULTS_DIR]     (GCN_RUN: the binary, default
#                                            target/release/gcn-run;
#                                            BUDGET_S: seconds for it all,
#                                            default 420; SKIP_BENCH=1:
#                                            diffs only)
#
# Writes RESULTS_DIR/adapters.txt, bench.json, speculation.txt (the clang
# kernel with speculative workgroups off and on), sweep.txt (one block per
# workload) and diff.txt (one line per manifest: the manifest, wall seconds of
# its whole --diff run, exit code, the run's last stderr line; `not run` past
# the deadline).
set -u
B=${GCN_RUN:-target/release/gcn-run}
R=${1:-out/device}
BUDGET_S=${BUDGET_S:-420}
mkdir -p "$R"
start=$(date +%s)
left() { echo $((BUDGET_S - ($(date +%s) - start))); }
"$B" --list-adapters | tee "$R/adapters.txt"

if [ -z "${SKIP_BENCH:-}" ]; then
    timeout $(($(left) / 3)) "$B" bench --json --seconds 1 >"$R/bench.json" 2>"$R/bench.err"
    # Speculative workgroups against serial dispatches, side by side: the
    # clang kernel's GPU figure and whether its speculation was kept.
    : >"$R/speculation.txt"
    for lanes in 65536 1048576; do
        for mode in off on; do
            echo "== clang_image_sample $lanes lanes, --speculate $mode" >>"$R/speculation.txt"
            timeout 60 "$B" bench --seconds 0.5 --workload clang_image_sample --lanes $lanes \
                --speculate $mode >>"$R/speculation.txt" 2>>"$R/bench.err"
        done
    done
    : >"$R/sweep.txt"
    for w in sample_bilinear_rgba8 load_store_copy alu_mix sample_trilinear_derivs clang_image_sample; do
        (($(left) > BUDGET_S / 2)) || break
        timeout 60 "$B" bench --sweep --seconds 0.1 --workload $w >>"$R/sweep.txt" 2>>"$R/bench.err"
    done
fi

: >"$R/diff.txt"
for f in assets/*.toml assets/kernels/*.toml $(ls assets/radv/*.toml | grep -v scene) \
    assets/visa/bin/*.toml assets/visa/*.toml; do
    [ -f "$f" ] || continue
    case "$f" in
    assets/visa/*)
        # The manifest's program: its binary where there is one, else its text.
        code=""
        for ext in visaasm isa; do [ -f "${f%.toml}.$ext" ] && code="${f%.toml}.$ext"; done
        [ -n "$code" ] || continue
        args=("$code" --manifest "$f")
        ;;
    *) if grep -q '^\[draw\]' "$f"; then args=(--draw "$f"); else args=("$f"); fi ;;
    esac
    if (($(left) < 30)); then
        echo "$f not run (deadline)" >>"$R/diff.txt"
        continue
    fi
    t0=$(date +%s.%N)
    timeout 60 "$B" --diff "${args[@]}" --quiet >/dev/null 2>"$R/one.txt"
    rc=$?
    t1=$(date +%s.%N)
    last=$(grep -v '^\s*$' "$R/one.txt" | tail -1 | cut -c1-160)
    awk -v n="$f" -v r="$rc" -v a="$t0" -v b="$t1" -v l="$last" \
        'BEGIN { printf "%s %.2f rc=%d %s\n", n, b - a, r, l }' >>"$R/diff.txt"
done
rm -f "$R/one.txt"
grep -c 'rc=0' "$R/diff.txt" | sed 's/^/equal: /'
grep -v 'rc=0' "$R/diff.txt"
