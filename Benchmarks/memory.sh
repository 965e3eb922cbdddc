#!/usr/bin/env bash
# Peak memory and time of a release vclint on the captures that probe its bounds
# (docs/performance.md#memory gives the figures), one run each (/usr/bin/time's maximum resident
# set size), against these limits:
#
#   default-4gib  the 4 GiB vclint-loggen capture of Benchmarks/run.sh         ≤ 64 MiB
#   cycles        300k present/dismiss cycles, dealloc never logged           ≤ 64 MiB
#   modals        300k modals with addresses, dismissed and never freed       ≤ 64 MiB (their 300k leaks included)
#   warnings      100k memory warnings, rule on and rule off                  ≤ 32 MiB
#   stack         1M controllers pushed and never popped                      ≤ 256 MiB (≤ 200 B each)
#   findings      661k findings (one per line), xcode and json reports        ≤ 256 MiB
#   objects       1M view models alive, owned by the root screen              ≤ 256 MiB (about 210 B each)
#   owned         300k modal cycles, each leaving its view model behind       ≤ 96 MiB
#   classes       100k classes, each a sheet over a visible root              ≤ 2 s
#   names         400k classes, 400k tests (every controller gone), 400k init-only objects,
#                 every command: lint ≤ 64 MiB, the others ≤ 256 MiB
#   sheets        60k sheet cycles of one class, three runs                   the same time each run
#
# and the other commands (timeline as text and as a Chrome trace, report, leaks, inspect) on the
# shapes that were quadratic for them, against the limits docs/performance.md states:
#
#   pids          40k lines (2.9 MB), each from a process id of its own: 40k sessions
#   sessions      1.3M lines in 600 sessions, each drawing up to a MB (report)
#   files         100k small captures in one folder (a finding, a removal, an unjudged class each)
#   findings      661k findings in one session (timeline chrome-trace, report)
#   modals        300k leaked modals with addresses in one session (leaks as text, HTML and JSON; inspect)
#   default-4gib  the 4 GiB capture above, for each of them
#
# The vclint measured is the one `make install` (Scripts/install.sh) and the release tarballs ship: the
# Swift runtime and Foundation linked in (--static-swift-stdlib), built in a folder of its own
# (.build-static, git-ignored) so that the development build in .build stays as it is. It starts at
# 16 MiB of RSS; a build linked to the toolchain's shared libraries (`swift build -c release`, what
# --shared measures) starts at 25, the pages of those libraries counting in its RSS.
#
# usage: Benchmarks/memory.sh [--no-big] [--shared]   (--no-big skips the 4 GiB capture, which takes
# minutes to generate the first time). Captures are cached in Benchmarks/data (git-ignored). Prints one
# row per run and exits 1 if a limit is exceeded. Not a test: the figures depend on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
big=1
shared=0
for arg in "$@"; do
    case "$arg" in
        --no-big) big=0 ;;
        --shared) shared=1 ;;
        *) echo "memory.sh: unknown option $arg (usage: Benchmarks/memory.sh [--no-big] [--shared])" >&2; exit 2 ;;
    esac
done
command -v /usr/bin/time >/dev/null || { echo "memory.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

swift build -c release --product vclint-loggen >/dev/null
bin=.build/release
if [ "$shared" = 1 ]; then
    swift build -c release --product vclint >/dev/null
    vclint=$bin/vclint
else
    swift build -c release --product vclint --static-swift-stdlib --scratch-path .build-static >/dev/null
    vclint=.build-static/release/vclint
fi
echo "measuring $vclint" >&2
data=Benchmarks/data/hostile
mkdir -p "$data"

hostile() {  # hostile KIND N → path
    local path="$data/$1-$2.log"
    if [ ! -s "$path" ]; then
        echo "generating $path…" >&2
        python3 Benchmarks/hostile-captures.py "$1" "$2" > "$path.tmp"
        mv "$path.tmp" "$path"
    fi
    echo "$path"
}

failed=0
printf '%-28s %12s %9s %12s  %s\n' capture bytes seconds "peak MiB" limit
files() {  # files N → a folder of N small captures
    local dir="$data/files-$1"
    if [ ! -s "$dir/capture-$(printf %06d $(($1 - 1))).log" ]; then
        echo "generating $dir…" >&2
        rm -rf "$dir"
        python3 Benchmarks/hostile-captures.py files "$1" "$dir" >/dev/null
    fi
    echo "$dir"
}

command=lint
run() {  # run NAME LIMIT_MIB LIMIT_SECONDS PATH [vclint options…]   (the command: $command)
    local name=$1 mib=$2 secs=$3 path=$4
    shift 4
    local stats
    stats=$(mktemp)
    # Exit 1 (findings) is expected on some of these: the figures are what is measured.
    local quiet=()
    [ "$command" = lint ] && quiet=(--quiet)
    /usr/bin/time -o "$stats" -f '%e %M' "$vclint" $command "$path" "${quiet[@]}" "$@" >/dev/null 2>&1 || true
    local out
    out=$(tail -1 "$stats")
    rm -f "$stats"
    local s=${out% *} kb=${out#* }
    local peak=$((kb / 1024))
    local verdict=ok
    if [ "$mib" != - ] && [ "$peak" -gt "$mib" ]; then verdict="OVER ${mib} MiB"; failed=1; fi
    if [ "$secs" != - ] && awk "BEGIN{exit !($s > $secs)}"; then verdict="OVER ${secs} s"; failed=1; fi
    local bytes
    if [ -d "$path" ]; then bytes=$(find "$path" -type f -printf '%s\n' | awk '{s += $1} END {print s}'); else bytes=$(wc -c < "$path"); fi
    printf '%-28s %12s %9s %12s  %s\n' "$name" "$bytes" "$s" "$peak" "$verdict"
}

if [ "$big" = 1 ]; then
    default="Benchmarks/data/capture-4294967296-seed1-v2.log"
    if [ ! -s "$default" ]; then
        echo "generating $default (once; a few minutes)…" >&2
        "$bin/vclint-loggen" --seed 1 --envelope nslog-tz --noise 15 --mention-rate 0.05 --memory-warnings 0.01 \
            --sessions 3 --steps 60 --size 4294967296 > "$default.tmp" 2>/dev/null
        mv "$default.tmp" "$default"
    fi
    run default-4gib 64 - "$default"
fi
run cycles-300k 64 - "$(hostile cycles 300000)"
run modals-300k 64 - "$(hostile modals 300000)"
run warnings-100k 32 - "$(hostile warnings 100000)"
run warnings-100k-rule-off 32 - "$(hostile warnings 100000)" --disable memory_warning
run stack-1M 256 - "$(hostile stack 1000000)"
run objects-1M 256 - "$(hostile objects 1000000)"
run owned-300k 96 - "$(hostile owned 300000)"
run findings-661k-xcode 256 - "$(hostile findings 661000)"
run findings-661k-json 256 - "$(hostile findings 661000)" --reporter json
run classes-100k - 2 "$(hostile classes 100000)"
sheets=$(hostile sheets 60000)
for k in 1 2 3; do run "sheets-60k (run $k)" - 2 "$sheets"; done

# Distinct names and objects that can no longer be reported (docs/performance.md#memory), every command.
names_out=$(mktemp -d)
for shape in classes tests objects; do
    capture=$(hostile $shape 400000)
    for command in lint timeline leaks report inspect; do
        limit=256
        [ $command = lint ] && limit=64
        extra=()
        [ $command = report ] && extra=(--output "$names_out/report.html")
        run "$command-$shape-400k" $limit - "$capture" "${extra[@]}"
    done
done
rm -rf "$names_out"
command=lint

# The other commands: linear in lines, sessions and files, their output streamed.
pids=$(hostile pids 40000)
modals=$(hostile modals 300000)
many=$(files 100000)
findings=$(hostile findings 661000)
out=$(mktemp -d)
run lint-pids-40k 64 1 "$pids"
run lint-files-100k 384 20 "$many"
command=timeline
run timeline-pids-40k 64 1 "$pids"
run timeline-trace-pids-40k 64 3 "$pids" --format chrome-trace
run timeline-files-100k 768 30 "$many"
run timeline-trace-files-100k 768 40 "$many" --format chrome-trace
run timeline-trace-findings-661k 256 30 "$findings" --format chrome-trace
command=report
run report-pids-40k 64 1 "$pids" --output "$out/report.html"
run report-files-100k 768 40 "$many" --output "$out/report.html"
run report-findings-661k 256 15 "$findings" --output "$out/report.html"
# A batch of sessions drawn at once is bounded by its bytes too: 512 sessions of half a MB were held drawn (320 MiB).
run report-sessions-1.3M 128 5 "$(hostile sessions 1320000)" --output "$out/report.html"
command=leaks
run leaks-pids-40k 64 2 "$pids"
run leaks-files-100k 640 20 "$many"
run leaks-modals-300k 768 40 "$modals"
# Each format streams: none adds its document to the run's peak (json held it whole: 964 MiB).
run leaks-html-modals-300k 768 40 "$modals" --format html
run leaks-json-modals-300k 768 40 "$modals" --format json
command=inspect
run inspect-pids-40k 64 2 "$pids"
run inspect-modals-300k 768 30 "$modals"
run inspect-files-100k 1024 20 "$many"
if [ "$big" = 1 ]; then
    # Every command on the 4 GiB capture: the recording follows the events drawn, not the bytes read.
    command=timeline
    run timeline-4gib 512 60 "$default"
    run timeline-trace-4gib 512 90 "$default" --format chrome-trace
    command=report
    run report-4gib 512 60 "$default" --output "$out/report.html"
    command=leaks
    run leaks-4gib 384 30 "$default"
    run leaks-html-4gib 384 30 "$default" --format html
    command=inspect
    run inspect-4gib 384 60 "$default"
fi
rm -rf "$out"
exit $failed
