#!/usr/bin/env bash
# Builds vclint's libFuzzer targets (one binary, with AddressSanitizer) and runs one of them for SECONDS
# (default 60) with a corpus seeded from Fixtures/.
# Usage: Tests/Fuzz/run.sh [--target NAME] [SECONDS] [libFuzzer flags…]
#        Tests/Fuzz/run.sh [--target NAME] FILE…   runs the target once on each FILE (reproducing a crash)
# Targets (Tests/Fuzz/FuzzMain.swift):
#   pipeline  bytes → lines → events → timeline → findings → every report (the default)
#   gzip      the file-descriptor path: gzip members, trailing bytes, cut and corrupt streams
#   live      --follow's LiveFollower over a file that grows, is truncated, rewritten and rotated
#   config    the .vclint.yml loader (YAML aliases, nesting, types)
#   args      the command line of the debug `vclint` binary (built with `swift build` first)
#   views     inspect, timeline (every format), leaks (every format) and the HTML report: inert text, valid JSON
#   merge     a shard's JSON lint report or leak report, as merge and leaks read it: refused, or shown inert
#   logcat    each line as a logcat line's message (Android Studio's layout or threadtime's), then the pipeline's oracles
# Work files go to .build-fuzz/ (ignored by git): the binary, corpus-NAME/, and crash-*/timeout-*/oom-* artifacts.
# A crasher worth keeping becomes Fixtures/fuzz/crash-<hash>.log with its expectation in Fixtures/MANIFEST.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
trap 'echo "fuzz: FAILED (exit $?) at Tests/Fuzz/run.sh line $LINENO: $BASH_COMMAND" >&2' ERR
target=pipeline
if [[ $# -ge 2 && "$1" == --target ]]; then target="$2"; shift 2; fi
case "$target" in pipeline|gzip|live|config|args|views|merge|logcat) ;; *) echo "fuzz: unknown target $target (pipeline, gzip, live, config, args, views, merge, logcat)" >&2; exit 2 ;; esac
reproduce=()
seconds=60
if [[ $# -gt 0 && -f "$1" ]]; then reproduce=("$@"); set --
elif [[ $# -gt 0 ]]; then seconds="$1"; shift
fi
work=.build-fuzz
corpus="$work/corpus-$target"
[[ "$target" == pipeline && -d "$work/corpus" && ! -d "$corpus" ]] && mv "$work/corpus" "$corpus"  # the old layout
mkdir -p "$corpus" "$work/artifacts"

# Yams (the config target) comes from the package's checkout.
[[ -d .build/checkouts/Yams ]] || swift package resolve >/dev/null
yams=.build/checkouts/Yams/Sources

pcre_flags=$(pkg-config --cflags --libs libpcre2-8)
zlib_flags=$(pkg-config --cflags --libs zlib)
# The vector scanner's C kernels and mapped windows (CVectorScan, as Package.swift builds them) and the version that the
# VersionPlugin bakes in (here: the release alone).
vector_flags=(-I Sources/CVectorScan/include "$work/vector.o" "$work/mapped.o")
sources=$(find Sources/VCLintCore -name '*.swift' | sort)
binary="$work/vclint-fuzz"
# Rebuild when a source is newer than the binary.
if [[ ! -x "$binary" ]] || [[ -n "$(find Sources/VCLintCore Sources/CVectorScan Tests/Fuzz -newer "$binary" \( -name '*.swift' -o -name '*.[ch]' \) -print -quit)" ]]; then
    echo "fuzz: building $binary"
    rm -f "$binary"
    for c in vector mapped; do
        clang -c -O2 -g -fsanitize=address -I Sources/CVectorScan/include "Sources/CVectorScan/$c.c" -o "$work/$c.o"
    done
    printf '%s\n' 'extension VCLintVersion { static let gitDescription = ""; static let gitRemote = "" }' > "$work/GitDescription.swift"
    # libyaml and Yams, for the configuration loader (built once; libyaml is instrumented for coverage).
    mkdir -p "$work/cyaml"
    for c in "$yams"/CYaml/src/*.c; do
        o="$work/cyaml/$(basename "$c" .c).o"
        [[ -f "$o" ]] || clang -c -O1 -g -fsanitize=address,fuzzer-no-link -DYAML_DECLARE_STATIC -I "$yams/CYaml/include" "$c" -o "$o"
    done
    [[ -f "$work/Yams.o" ]] || swiftc -sanitize=address -O -wmo -parse-as-library -module-name Yams -D SWIFT_PACKAGE -I "$yams/CYaml/include" -Xcc -DYAML_DECLARE_STATIC \
        -emit-module -emit-module-path "$work/Yams.swiftmodule" -emit-object -o "$work/Yams.o" "$yams"/Yams/*.swift 2>&1 | { grep -v "warning:" || true; }
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -O -j 2 -parse-as-library -module-name VCLintCore \
        -I Sources/CPCRE2 -I Sources/CZlib -I "$yams/CYaml/include" -I "$work" -Xcc -DYAML_DECLARE_STATIC $pcre_flags $zlib_flags "${vector_flags[@]}" \
        $sources "$work/GitDescription.swift" Tests/Fuzz/*.swift "$work/Yams.o" "$work"/cyaml/*.o -o "$binary" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
    [[ -x "$binary" ]] || { echo "fuzz: build failed" >&2; exit 1; }
fi

# Seed corpus (copies; the corpus grows in .build-fuzz, never in Fixtures).
logs() { find Fixtures -type f \( -name '*.log' -o -name '*.ndjson' -o -name '*.txt' -o -name '*.jsonl' \) | sort; }
case "$target" in
    pipeline|views)
        logs | while read -r f; do cp -n "$f" "$corpus/seed-${f//\//_}"; done ;;
    logcat)
        # The Android fixtures' messages (the target puts an envelope around each line).
        for f in Fixtures/android/*.log; do
            s="$corpus/seed-${f//\//_}"
            [[ -e "$s" ]] || sed -E 's/^.*[VDIWEF]\/[^:]*: //' "$f" > "$s"
        done ;;
    merge)
        # Shards' reports: a lint report and a leak report of some fixtures, as the debug binary writes them.
        for f in Fixtures/seeds/navtest-missing-dealloc.log Fixtures/hostile/terminal-nslog.log Fixtures/tests/xcodebuild-hosted-leak.log; do
            s="$corpus/seed-${f//\//_}"
            [[ -e "$s.lint.json" ]] || .build/debug/vclint lint "$f" --reporter "json:$s.lint.json" >/dev/null 2>&1 || true
            [[ -e "$s.leaks.json" ]] || .build/debug/vclint leaks "$f" --format json > "$s.leaks.json" 2>/dev/null || true
        done ;;
    gzip)
        # A mode byte (0: the bytes as they are; 1: compressed into members with trailing bytes; 2: cut short), then the data.
        logs | sed -n 1,40p | while read -r f; do
            s="$corpus/seed-${f//\//_}"
            [[ -e "$s.0" ]] || { printf '\x00'; gzip -c -n "$f"; printf 'tail'; } > "$s.0"
            [[ -e "$s.1" ]] || { printf '\x01'; cat "$f"; } > "$s.1"
        done ;;
    live)
        # Ops of (kind, length, data): the first fixture lines appended, then a rotation or a truncation.
        logs | sed -n 1,20p | while read -r f; do
            s="$corpus/seed-${f//\//_}"
            [[ -e "$s" ]] || python3 - "$f" "$s" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()[:1000]
out = bytearray()
for kind, part in [(0, data[:200]), (0, data[200:400]), (3, data[400:600]), (0, data[600:800]), (2, data[800:1000])]:
    out += bytes([kind, len(part)]) + part
open(sys.argv[2], 'wb').write(out)
PY
        done ;;
    config)
        cp -n Fixtures/config/*.yml "$corpus/" 2>/dev/null || true
        printf 'disabled_rules: [memory_warning]\nopt_in_rules: [slow_transition]\nleak_grace_seconds: 5\nignore_classes: ["^UI", "^_UI"]\nlate_dealloc:\n  severity: error\nexcluded: ["DerivedData/*"]\ndialects:\n  - pattern: '"'"'^\\[Screen\\] (?<class>\\w+) (?<event>shown|freed)$'"'"'\n    events: {shown: viewDidAppear, freed: dealloc}\n' > "$corpus/seed-readme.yml"
        printf 'a: &a [x, y]\nb: &b [*a, *a]\nignore_classes: *a\n<<: {leak_grace_seconds: 1}\n' > "$corpus/seed-aliases.yml" ;;
    args)
        [[ -x .build/debug/vclint ]] || swift build --product vclint >/dev/null
        export VCLINT_FUZZ_BINARY="$PWD/.build/debug/vclint"
        i=0
        for a in 'lint\0a.log' 'lint\0logs\0--reporter\0json:r.json\0--reporter\0sarif' 'lint\0--follow\0a.log\0--reporter\0junit:j.xml' \
                 'timeline\0a.log\0--from\x0012\0--width\x0040' 'lint\0--config\0c.yml\0--files-from\0-\0--null' 'baseline\0create\0logs\0--output\0b.json' \
                 'lint\0a.log\0--reporter\0json:a.log' 'lint\0--max-warnings\0x' 'explain\0leaked_controller' 'leaks\0a.log\0--format\0html' 'init\0--force'; do
            printf "$a" > "$corpus/seed-$i"; i=$((i + 1))
        done ;;
esac

# The Swift runtime's backtracer would fight the sanitizer over the crash report.
export SWIFT_BACKTRACE=enable=no
# Foundation's Process keeps a weak reference until exit (the args target starts one per input).
export LSAN_OPTIONS="suppressions=$PWD/Tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export VCLINT_FUZZ_TARGET="$target"
if [[ ${#reproduce[@]} -gt 0 ]]; then exec "$binary" "${reproduce[@]}"; fi
timeout=1; max_len=65536
rss=2048
# What vclint shows of a capture stays within a few times the input (at most 64 KiB here).
case "$target" in args) timeout=20; max_len=4096 ;; config) max_len=16384 ;; views|merge) timeout=3; rss=1024 ;; esac
"$binary" "$corpus" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" -max_len="$max_len" \
    -artifact_prefix="$work/artifacts/$target-" -print_final_stats=1 "$@"
