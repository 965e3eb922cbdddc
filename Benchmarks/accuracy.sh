#!/usr/bin/env bash
# vclint's accuracy on simulated captures, and a large fault-free capture that must show no leak:
#   1. vclint-accuracy (release): every seed × envelope × dialect (free-form included), fault-free with the
#      classic flows and with each of the simulator's flow families (the flows vclint once misread), and with
#      each fault kind; each capture linted in process and its findings compared with the simulator's ground
#      truth. Prints precision and recall per rule (TP: an expected finding on its line; FP: a warning or error
#      that no fault predicts, memory_warning infos aside; FN: an expected finding not reported), the totals,
#      and the counts per scenario.
#   2. the same over apps whose screens own objects (vclint-accuracy --objects: view models, VIPER modules,
#      coordinators, helpers, app-lifetime services, classes that log only init), with the objects' faults
#      (leaked-object: leaked_object at the owner's dealloc; late-object-release: late_dealloc at the deinit),
#      and the rules below their target (leaked_object and late_dealloc: precision 98 %, recall 95 %; the others
#      99 % and 98 %).
#   3. the fault-free 4 GiB capture of Benchmarks/run.sh (seed 1, nslog-tz, 15 noise lines per event):
#      vclint lint's findings per rule and severity; any leaked_controller fails the script.
# Not a timed benchmark: about 2–4 minutes on 2 cores after the release build (half of it with --objects) (and the 4 GiB capture is
# generated once, as run.sh does, when Benchmarks/data does not hold it yet).
# With --platform android, instead: vclint-accuracy --platform android, every seed × logcat format × scenario
# (fault-free, fault-free with LeakCanary's lines, each Android fault of AndroidSimulator), every rule's target
# precision 99 % and recall 98 %; then seeds 1–50 fault-free (with LeakCanary) in every format, which must give no
# finding at all (docs/lifecycle.md#android-rules). About a minute on 2 cores after the release build.
# usage: Benchmarks/accuracy.sh [--platform ios|android] [--seeds N] [--show N] [--objects] [--big PATH|--no-big]
#   --seeds N   seeds per envelope × dialect × scenario (default 10)
#   --platform  ios (default) or android
#   --objects   only the run over apps with objects (2.)
#   --show N    print up to N mismatching captures per scenario, with the vclint-loggen command for each
#   --big PATH  the large capture to check (default Benchmarks/data/capture-4294967296-seed1-v2.log)
set -euo pipefail
cd "$(dirname "$0")/.."

seeds=10 show=0 big=Benchmarks/data/capture-4294967296-seed1-v2.log objects_only= platform=ios
while [ $# -gt 0 ]; do
    case "$1" in
        --platform) platform=$2; shift 2 ;;
        --seeds) seeds=$2; shift 2 ;;
        --show) show=$2; shift 2 ;;
        --big) big=$2; shift 2 ;;
        --no-big) big=; shift ;;
        --objects) objects_only=1; big=; shift ;;
        *) echo "accuracy.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$platform" in ios|android) ;; *) echo "accuracy.sh: --platform is ios or android" >&2; exit 2 ;; esac

echo "building release…" >&2
swift build -c release --product vclint-accuracy >/dev/null
swift build -c release --product vclint >/dev/null
bin=.build/release

if [ "$platform" = android ]; then
    start=$(date +%s)
    "$bin/vclint-accuracy" --platform android --seeds "$seeds" --jobs "$(nproc)" --show "$show"
    echo "($(($(date +%s) - start)) s)"
    echo
    # Fault-free captures over seeds 1–50 in every format: not one finding, of any severity.
    swift build -c release --product vclint-loggen >/dev/null
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    start=$(date +%s) count=0 dirty=0
    for format in threadtime time brief process tag thread long studio studio-dolphin; do
        for seed in $(seq 1 50); do
            "$bin/vclint-loggen" --platform android --seed "$seed" --envelope "$format" --leakcanary > "$tmp/capture.log"
            count=$((count + 1))
            findings=$("$bin/vclint" lint --quiet "$tmp/capture.log" 2>/dev/null || true)
            if grep -q . <<<"$findings"; then
                dirty=$((dirty + 1))
                echo "  vclint-loggen --platform android --seed $seed --envelope $format --leakcanary:" >&2
                head -3 <<<"$findings" >&2
            fi
        done
    done
    echo "fault-free Android captures, seeds 1–50 × 9 formats: $count captures, $dirty with a finding ($(($(date +%s) - start)) s)"
    [ "$dirty" -eq 0 ] || { echo "FAIL: findings on fault-free Android captures" >&2; exit 1; }
    echo "OK: no finding"
    exit 0
fi

if [ -z "$objects_only" ]; then
    start=$(date +%s)
    "$bin/vclint-accuracy" --seeds "$seeds" --jobs "$(nproc)" --show "$show"
    echo "($(($(date +%s) - start)) s)"
    echo
fi
start=$(date +%s)
"$bin/vclint-accuracy" --objects --seeds "$seeds" --jobs "$(nproc)" --show "$show"
echo "($(($(date +%s) - start)) s)"
[ -n "$big" ] || exit 0

if [ ! -s "$big" ]; then
    # The same capture as Benchmarks/run.sh's (and cached under the same name).
    swift build -c release --product vclint-loggen >/dev/null
    mkdir -p "$(dirname "$big")"
    echo "generating $big…" >&2
    "$bin/vclint-loggen" --seed 1 --envelope nslog-tz --noise 15 --mention-rate 0.05 --memory-warnings 0.01 \
        --sessions 3 --steps 60 --size 4294967296 --dialect objc --style-seed 4 > "$big.tmp" 2>/dev/null
    mv "$big.tmp" "$big"
fi
echo
echo "fault-free capture $big ($(du -h "$big" | cut -f1)):"
start=$(date +%s)
findings=$("$bin/vclint" lint --quiet "$big" 2>/dev/null || true)
# `PATH:LINE: severity: message (rule_id)`: count by rule and severity.
printf '%s\n' "$findings" | awk 'NF {
        sev = $0; sub(/^[^:]*:[0-9]+: /, "", sev); sub(/:.*/, "", sev)
        rule = $NF; gsub(/[()]/, "", rule)
        n[rule " (" sev ")"]++; total++
    }
    END {
        if (total == 0) print "  no findings"
        for (k in n) printf "  %-40s %d\n", k, n[k]
    }' | sort
echo "($(($(date +%s) - start)) s)"
if grep -q '(leaked_controller)$' <<<"$findings"; then
    echo "FAIL: leaked_controller on a fault-free capture" >&2
    exit 1
fi
echo "OK: no leaked_controller"
