#!/usr/bin/env bash
# Fault-free captures are clean, at every seed and size: vclint-loggen without --fault writes only legal
# flows, so vclint lint must report no error and no warning on them (infos such as memory_warning are fine).
# Each capture is vclint-loggen's default (nslog-tz, ObjC, 2 sessions of 30 steps per run, runs repeated with
# seed, seed+1, … until --size bytes), piped into vclint lint (nothing is written to disk). Prints the errors
# and warnings per seed and size, and each such finding (up to --show per capture) with the command that
# rebuilds its capture; exits 1 when any capture has one.
# Not a timed benchmark, nor a test: seeds 1–50 at 16 MiB take about 1 minute after the release build, each
# 1 GiB capture about 1–2 minutes (the generator is the slow part).
# usage: Benchmarks/fault-free.sh [--small-seeds A-B] [--big-seeds A-B] [--small BYTES] [--big BYTES] [--show N]
#   --small-seeds A-B   seeds of the small captures (default 1-50; "none" skips them)
#   --big-seeds A-B     seeds of the big captures (default 1-10; "none" skips them)
#   --small BYTES       size of a small capture (default 16777216, 16 MiB)
#   --big BYTES         size of a big capture (default 1073741824, 1 GiB)
#   --show N            findings printed per capture with findings (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."

small_seeds=1-50 big_seeds=1-10 small=16777216 big=1073741824 show=3
while [ $# -gt 0 ]; do
    case "$1" in
        --small-seeds) small_seeds=$2; shift 2 ;;
        --big-seeds) big_seeds=$2; shift 2 ;;
        --small) small=$2; shift 2 ;;
        --big) big=$2; shift 2 ;;
        --show) show=$2; shift 2 ;;
        *) echo "fault-free.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

echo "building release…" >&2
swift build -c release --product vclint >/dev/null
swift build -c release --product vclint-loggen >/dev/null
bin=.build/release

seeds() {  # A-B → A … B; "none" → nothing
    [ "$1" = none ] && return 0
    local from=${1%-*} to=${1#*-}
    seq "$from" "$to"
}

failed=0 captures=0 total_errors=0 total_warnings=0
check() {  # check SEED SIZE
    local seed=$1 size=$2 findings errors warnings start
    start=$(date +%s)
    # `PATH:LINE: severity: message (rule_id)`; vclint exits 1 on errors, which is counted here instead.
    findings=$("$bin/vclint-loggen" --seed "$seed" --size "$size" 2>/dev/null | "$bin/vclint" lint --quiet - 2>/dev/null || true)
    errors=$(grep -c ': error: ' <<<"$findings" || true)
    warnings=$(grep -c ': warning: ' <<<"$findings" || true)
    captures=$((captures + 1))
    total_errors=$((total_errors + errors))
    total_warnings=$((total_warnings + warnings))
    printf 'seed %-4s %11s bytes: %d errors, %d warnings (%d s)\n' "$seed" "$size" "$errors" "$warnings" "$(($(date +%s) - start))"
    if [ $((errors + warnings)) -gt 0 ]; then
        failed=1
        grep -E ': (error|warning): ' <<<"$findings" | sed -n "1,${show}p" | sed 's/^/    /'
        echo "    rebuild: $bin/vclint-loggen --seed $seed --size $size > capture.log && $bin/vclint lint capture.log"
    fi
}

for seed in $(seeds "$small_seeds"); do check "$seed" "$small"; done
for seed in $(seeds "$big_seeds"); do check "$seed" "$big"; done
echo "$captures captures: $total_errors errors, $total_warnings warnings"
if [ "$failed" != 0 ]; then
    echo "FAIL: findings on fault-free captures" >&2
    exit 1
fi
echo "OK: every fault-free capture is clean"
