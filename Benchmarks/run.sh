#!/usr/bin/env bash
# vclint's throughput next to ripgrep, GNU grep and wc on the same generated captures, in one run:
#   - two 1 GiB captures, each a row: the sparse one (an app's capture, about 1 lifecycle line in 16)
#     and the dense one (an app that logs every callback: about 1 line in 8 a candidate, every dialect
#     mixed, objects on): vclint lint (scanner and events on two threads), vclint lint -j 1 (one
#     thread), and both with the other core busy (`yes > /dev/null` beside them) vs rg -c with the
#     keyword pattern, wall and CPU (user + sys) and their ratios; grep -cE and wc -l on the sparse one
#   - a 1 GiB Android logcat capture (threadtime, LeakCanary on: vclint-loggen --platform android), with the dense
#     capture's share of lifecycle lines (7 noise lines per callback, about 1 line in 8), a row like the two above
#     (vclint beside rg -c with Android's callbacks as the pattern), and its CPU time over the dense one's
#   - a 4 GiB capture: linear time, constant peak RSS
#   - peak RSS of every shape, two threads and one, for the shipped build and the development build
#   - two 1 GiB captures on all cores (one thread each) vs one capture on one thread
#   - the 1 GiB capture gzip-compressed: vclint lint FILE.gz vs zcat FILE.gz | vclint lint -
#   - the same 1 GiB capture printed in a free-form style (`[Detail] — viewWillAppear:`, the app's
#     own words, docs/lifecycle.md#free-form-lifecycle-statements) vs in the ObjC dialect: the throughput ratio
# Captures come from vclint-loggen (deterministic; cached in Benchmarks/data, git-ignored).
# usage: Benchmarks/run.sh [--quick]     (--quick: 256 MiB and 1 GiB instead of 1 and 4 GiB)
# needs: hyperfine, ripgrep, GNU time (apt-get install -y hyperfine ripgrep time)
set -euo pipefail
cd "$(dirname "$0")/.."

small=$((1 << 30)) large=$((4 << 30)) runs=5
if [ "${1:-}" = "--quick" ]; then small=$((256 << 20)) large=$((1 << 30)) runs=3; fi
for tool in hyperfine rg /usr/bin/time gzip; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (apt-get install -y hyperfine ripgrep time gzip)" >&2; exit 2; }
done

echo "building release…" >&2
swift build -c release --product vclint >/dev/null
swift build -c release --product vclint-loggen >/dev/null
bin=.build/release
# Peak RSS is measured on the vclint that `make install` and the release tarballs ship (the Swift runtime and
# Foundation linked in, built in .build-static as Benchmarks/memory.sh builds it), and on the development build
# beside it, whose RSS counts the pages of the toolchain's shared libraries (about 9 MiB more).
swift build -c release --product vclint --static-swift-stdlib --scratch-path .build-static >/dev/null
shipped=.build-static/release/vclint
mkdir -p Benchmarks/data

# An app's capture: ~94% noise lines (app and system chatter, multi-line dumps, 5% of them mentioning
# callbacks without being events), push/pop, modals, sheets, tabs, children, cancelled swipe-backs,
# memory warnings and relaunches, all legal (the findings line shows what vclint made of them).
capture() {  # capture SIZE SEED [DIALECT] → path
    local dialect=${3:-objc}
    local path="Benchmarks/data/capture-$1-seed$2-v2.log"
    [ "$dialect" = objc ] || path="Benchmarks/data/capture-$1-seed$2-$dialect-v2.log"
    generate "$path" --seed "$2" --noise 15 --size "$1" --dialect "$dialect"
}
# An app that logs every callback: 7 noise lines per lifecycle line (5% of them mentioning callbacks),
# objects' init and deinit, each relaunch in the next dialect (`--dialect mixed`).
dense_capture() {  # dense_capture SIZE SEED → path
    generate "Benchmarks/data/dense-$1-seed$2-v1.log" --seed "$2" --noise 7 --objects --size "$1" --dialect mixed
}
# An Android app's logcat (AndroidSimulator): every callback, LeakCanary's watches, counts and analyses, the
# system's lines, noise with stack frames; threadtime, one launch per pid; as many noise lines per callback as
# the dense capture has (its CPU per byte is compared with the dense capture's: like with like).
logcat_capture() {  # logcat_capture SIZE SEED → path
    local path="Benchmarks/data/logcat-$1-seed$2-noise7-v1.log"
    if [ ! -s "$path" ]; then
        echo "generating $path…" >&2
        "$bin/vclint-loggen" --platform android --seed "$2" --envelope threadtime --leakcanary --noise 7 --size "$1" > "$path.tmp" 2>/dev/null
        mv "$path.tmp" "$path"
    fi
    echo "$path"
}
generate() {  # generate PATH LOGGEN-OPTIONS… → PATH, made once
    local path=$1; shift
    if [ ! -s "$path" ]; then
        echo "generating $path…" >&2
        "$bin/vclint-loggen" --envelope nslog-tz --mention-rate 0.05 --memory-warnings 0.01 --sessions 3 --steps 60 \
            --style-seed 4 "$@" > "$path.tmp" 2>/dev/null
        mv "$path.tmp" "$path"
    fi
    echo "$path"
}
one=$(capture "$small" 1)
two=$(capture "$small" 2)
big=$(capture "$large" 1)
free=$(capture "$small" 1 free-form)
dense=$(dense_capture "$small" 1)
logcat=$(logcat_capture "$small" 1)
gz="$one.gz"
if [ ! -s "$gz" ]; then echo "compressing $gz…" >&2; gzip -c "$one" > "$gz.tmp" && mv "$gz.tmp" "$gz"; fi

pattern='view(Will|Did)(Appear|Disappear)|dealloc|deinit|viewDidLoad'
android='on(Create|Start|Resume|Pause|Stop|Destroy)|LeakCanary'
cat "$one" "$two" "$big" "$gz" "$free" "$dense" "$logcat" > /dev/null  # warm the page cache
json=$(mktemp -d)
busy=
trap 'rm -rf "$json"; [ -z "$busy" ] || kill "$busy" 2>/dev/null' EXIT

bench() {  # bench NAME RUNS COMMAND...
    local name=$1 n=$2; shift 2
    hyperfine -N -i -w 1 -r "$n" --output=pipe --style none --export-json "$json/$name.json" "$@" >/dev/null 2>&1 ||
        hyperfine -i -w 1 -r "$n" --output=pipe --style none --export-json "$json/$name.json" "$@" >/dev/null
}
echo "measuring…" >&2
# Each shape's row: vclint with two threads and with one, and rg -c, one after the other; then the
# same with the other core busy.
shape() {  # shape NAME CAPTURE [PATTERN]
    bench "$1-vclint" "$runs" "$bin/vclint lint --quiet $2"
    bench "$1-single" "$runs" "$bin/vclint lint --quiet -j 1 $2"
    bench "$1-rg" "$runs" "rg -c '${3:-$pattern}' $2"
}
shape sparse "$one"
shape dense "$dense"
shape logcat "$logcat" "$android"
yes > /dev/null &
busy=$!
shape sparse-busy "$one"
shape dense-busy "$dense"
shape logcat-busy "$logcat" "$android"
kill "$busy"
wait "$busy" 2>/dev/null || true
busy=
bench grep "$runs" "grep -cE '$pattern' $one"
bench wc "$runs" "wc -l $one"
bench big 5 "$bin/vclint lint --quiet $big"
bench two "$runs" "$bin/vclint lint --quiet -j $(nproc) $one $two"
bench gz "$runs" "$bin/vclint lint --quiet $gz"
bench zcat "$runs" "sh -c 'zcat $gz | $bin/vclint lint --quiet -'"
bench free "$runs" "$bin/vclint lint --quiet $free"

rss() { /usr/bin/time -f %M -o "$json/rss" "$@" >/dev/null 2>&1 || true; tail -n 1 "$json/rss"; }
for build in shipped development; do
    vclint=$shipped; [ "$build" = shipped ] || vclint=$bin/vclint
    for capture in one dense logcat big; do
        for threads in two one; do
            jobs=; [ "$threads" = two ] || jobs="-j 1"
            # shellcheck disable=SC2086
            echo "$build $capture $threads $(rss "$vclint" lint --quiet $jobs "${!capture}")" >> "$json/rss-all"
        done
    done
done
rss_one=$(awk '$1 == "shipped" && $2 == "one" && $3 == "two" { print $4 }' "$json/rss-all")
rss_big=$(awk '$1 == "shipped" && $2 == "big" && $3 == "two" { print $4 }' "$json/rss-all")
"$bin/vclint" lint --reporter json "$one" > "$json/report.json" 2>/dev/null || true
"$bin/vclint" lint --reporter json "$dense" > "$json/dense.json" 2>/dev/null || true
"$bin/vclint" lint --reporter json "$logcat" > "$json/logcat.json" 2>/dev/null || true

python3 - "$json" "$one" "$big" "$rss_one" "$rss_big" "$dense" "$logcat" <<'PY'
import json, os, sys
d, one, big, rss_one, rss_big, dense, logcat = sys.argv[1:8]
shapes = [f"{s}-{c}" for s in ("sparse", "dense", "logcat", "sparse-busy", "dense-busy", "logcat-busy") for c in ("vclint", "single", "rg")]
t = {n: json.load(open(f"{d}/{n}.json"))["results"][0] for n in ("grep", "wc", "big", "two", "gz", "zcat", "free", *shapes)}
t["one"], t["single"], t["rg"] = t["sparse-vclint"], t["sparse-single"], t["sparse-rg"]
mean = {n: r["mean"] for n, r in t.items()}
cpu = {n: r["user"] + r["system"] for n, r in t.items()}  # CPU time (user + sys), mean of the runs
low = {n: r["min"] for n, r in t.items()}  # on a shared machine the fastest run shows the cost best
s1, s4 = os.path.getsize(one), os.path.getsize(big)
rep = json.load(open(f"{d}/report.json"))
inp = rep["inputs"][0]
lines, events = inp["lines"], inp["events"]
def row(name, n, note=""):
    print(f"| {name:<44} | {mean[n]:7.2f} s | {low[n]:7.2f} s | {note}")
def both(f):  # a ratio from the means, and from the fastest runs
    return f"{f(mean):.2f}× (fastest runs: {f(low):.2f}×)"
print(f"machine: {os.cpu_count()} cores; {s1 / 2**30:.2f} GiB capture: {lines:,} lines, {events:,} events "
      f"({100 * (1 - events / lines):.1f}% noise); {s4 / 2**30:.2f} GiB capture for the linear check")
print("findings in the 1 GiB capture: " + ", ".join(f"{n} {k}" for k, n in rep["summary"].items() if k != "files"))
def shape_rows(title, shape, path, report):
    inp = json.load(open(f"{d}/{report}"))["inputs"][0]
    print(f"\n{title}: {os.path.getsize(path) / 2**30:.2f} GiB, {inp['lines']:,} lines, {inp['events']:,} events "
          f"(one line in {inp['lines'] / max(inp['events'], 1):.1f})")
    print("| command | wall (mean) | fastest | CPU (user+sys) | wall ÷ rg -c | CPU ÷ rg -c |")
    print("|---|---|---|---|---|---|")
    for key, name in (("vclint", "vclint lint (two threads)"), ("single", "vclint lint -j 1"), ("rg", "rg -c PATTERN")):
        for busy in ("", "-busy"):
            n, r = f"{shape}{busy}-{key}", f"{shape}{busy}-rg"
            label = name + (", other core busy" if busy else "")
            ratio = "" if key == "rg" else f"{mean[n] / mean[r]:.2f}× | {cpu[n] / cpu[r]:.2f}×"
            print(f"| {label:<40} | {mean[n]:7.2f} s | {low[n]:7.2f} s | {cpu[n]:7.2f} s | {ratio or ' | '} |")
shape_rows("sparse capture", "sparse", one, "report.json")
shape_rows("dense capture", "dense", dense, "dense.json")
shape_rows("logcat capture (rg -c with Android's callbacks)", "logcat", logcat, "logcat.json")
per_byte = lambda n, path: cpu[n] / os.path.getsize(path)
print(f"logcat ÷ dense, CPU per byte: {per_byte('logcat-single', logcat) / per_byte('dense-single', dense):.2f}× with -j 1, "
      f"{per_byte('logcat-vclint', logcat) / per_byte('dense-vclint', dense):.2f}× with two threads (aim: at most 1.5×)")
print("\npeak RSS (GNU time), `vclint lint --quiet`: the shipped build (Swift runtime and Foundation linked in, as `make install` "
      "installs it) and the development build (`swift build -c release`, the toolchain's shared libraries' pages counted)")
print("| capture | shipped, two threads | shipped, -j 1 | development, two threads | development, -j 1 |")
print("|---|---|---|---|---|")
rss = {tuple(l.split()[:3]): int(l.split()[3]) / 1024 for l in open(f"{d}/rss-all") if len(l.split()) == 4}
for key, label in (("one", "sparse"), ("dense", "dense"), ("logcat", "logcat"), ("big", f"sparse, {s4 / 2**30:.0f} GiB")):
    cells = [f"{rss[(b, key, t)]:.1f} MiB" if (b, key, t) in rss else "–" for b in ("shipped", "development") for t in ("two", "one")]
    print(f"| {label} | " + " | ".join(cells) + " |")
print()
print("| command | mean wall | fastest | |")
print("|---|---|---|---|")
row("vclint lint (1 file: scanner + events thread)", "one", f"{s1 / mean['one'] / 1e6:,.0f} MB/s, {both(lambda m: m['one'] / m['rg'])} rg -c, peak RSS {int(rss_one) / 1024:.1f} MiB (shipped build)")
row("vclint lint -j 1 (1 file, one thread)", "single", f"{s1 / mean['single'] / 1e6:,.0f} MB/s, {both(lambda m: m['single'] / m['rg'])} rg -c")
row("rg -c PATTERN", "rg", f"{s1 / mean['rg'] / 1e6:,.0f} MB/s")
row("grep -cE PATTERN", "grep", f"{s1 / mean['grep'] / 1e6:,.0f} MB/s")
row("wc -l", "wc", f"{s1 / mean['wc'] / 1e6:,.0f} MB/s")
row("vclint lint (4× the size)", "big", f"{both(lambda m: m['big'] / m['one'])} the time of 1 file, peak RSS {int(rss_big) / 1024:.1f} MiB (shipped build)")
row("vclint lint, 2 files on all cores", "two", f"{2 * s1 / mean['two'] / 1e6:,.0f} MB/s = {both(lambda m: 2 * m['single'] / m['two'])} the one-thread 1-file throughput")
row("vclint lint FILE.gz", "gz", f"{100 * mean['zcat'] / mean['gz']:.0f}% of zcat | vclint lint -")
row("zcat FILE.gz | vclint lint -", "zcat")
row("vclint lint, same capture in a free-form style", "free", f"{100 * mean['one'] / mean['free']:.0f}% of the ObjC capture's throughput (fastest runs: {100 * low['one'] / low['free']:.0f}%)")
PY
