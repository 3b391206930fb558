#!/usr/bin/env bash
# The real-GPU check: every bundled program under `--diff` (CPU against the
# default adapter, which prefers a discrete GPU) and then `gcn-run bench`, in
# one bounded run, for a machine lent for a few minutes. Nothing here is part
# of the test suite; CI runs the same programs on lavapipe through the tests.
#
#   tools/device_check.sh [RESULTS_DIR]     (GCN_RUN: the binary, default
#                                            target/release/gcn-run;
#                                            BUDGET_S: seconds for the diffs;
#                                            SKIP_BENCH=1: diffs only)
#
# Writes RESULTS_DIR/diff.txt (one line per program: exit code, seconds,
# the run's last line), bench.json and bench_1m_<workload>.json (2^20 lanes).
set -u
B=${GCN_RUN:-target/release/gcn-run}
R=${1:-out/device}
BUDGET_S=${BUDGET_S:-240}
mkdir -p "$R"
"$B" --list-adapters | tee "$R/adapters.txt"

start=$(date +%s)
one() {
    # one NAME ARGS...: a --diff run with its exit code, time and last line.
    local name=$1
    shift
    if (($(date +%s) - start > BUDGET_S)); then
        echo "$name rc=- over budget, not run" >>"$R/diff.txt"
        return
    fi
    local t0 t1 rc last
    t0=$(date +%s.%N)
    timeout 90 "$B" --diff "$@" >"$R/one.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    last=$(grep -v '^\s*$' "$R/one.txt" | tail -1 | cut -c1-160)
    awk -v n="$name" -v r="$rc" -v a="$t0" -v b="$t1" -v l="$last" \
        'BEGIN { printf "%s rc=%d %.1fs %s\n", n, r, b - a, l }' >>"$R/diff.txt"
}

: >"$R/diff.txt"
# Whole compiled kernels first (the newest code), default environment.
for k in assets/kernels/*.hsaco; do
    # The kernel's manifest (assets/kernels/<name>.toml) when it has one.
    m=assets/kernels/$(basename "$k" | sed 's/_\(gfx[0-9]*\|tahiti\|bonaire\).*\.hsaco$//').toml
    if [ -f "$m" ]; then one "$k" "$k" --manifest "$m"; else one "$k" "$k"; fi
done
if [ -z "${SKIP_BENCH:-}" ]; then
    "$B" bench --json --seconds 0.5 >"$R/bench.json" 2>"$R/bench.err"
    for w in load_store_copy sample_bilinear_rgba8 interp_p1p2; do
        "$B" bench --json --seconds 0.5 --lanes 1048576 --workload $w >"$R/bench_1m_$w.json" 2>>"$R/bench.err"
    done
fi
for m in assets/*.toml; do one "$m" "$m"; done
for m in assets/visa/*.toml; do
    v=${m%.toml}.visaasm
    [ -f "$v" ] && one "$m" "$v" --manifest "$m"
done
grep -c 'rc=0' "$R/diff.txt" | sed 's/^/equal: /'
grep -v 'rc=0' "$R/diff.txt"
