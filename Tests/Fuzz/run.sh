#!/usr/bin/env bash
# Builds the libFuzzer target over the whole pipeline (bytes → report) with AddressSanitizer and runs
# it for SECONDS (default 60) with a corpus seeded from Fixtures/. Usage: Tests/Fuzz/run.sh [SECONDS] [libFuzzer flags…]
# Tests/Fuzz/run.sh FILE… runs the target once on each FILE (reproducing a crash).
# Work files go to .build-fuzz/ (ignored by git): the binary, corpus/, and crash-*/timeout-*/oom-* artifacts.
# A crasher worth keeping becomes Fixtures/fuzz/crash-<hash>.log with its expectation in Fixtures/MANIFEST.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
reproduce=()
seconds=60
if [[ $# -gt 0 && -f "$1" ]]; then reproduce=("$@"); set --
elif [[ $# -gt 0 ]]; then seconds="$1"; shift
fi
work=.build-fuzz
mkdir -p "$work/corpus" "$work/artifacts"

pcre_flags=$(pkg-config --cflags --libs libpcre2-8)
zlib_flags=$(pkg-config --cflags --libs zlib)
# The vector scanner, as Package.swift builds it on x86-64.
# The vector scanner, as Package.swift builds it on x86-64 (the AVX2 bulk pass is a module of its own).
vector_flags=()
if [[ "$(uname -m)" == x86_64 ]]; then vector_flags=(-D VCLINT_SSSE3 -Xcc -msse4.2 -Xcc -mpopcnt -I "$work" "$work/VCLintAVX2.o"); fi
sources=$(find Sources/VCLintCore -name '*.swift' ! -path '*/Config/Configuration.swift' | sort)
binary="$work/vclint-fuzz"
# Rebuild when a source is newer than the binary.
if [[ ! -x "$binary" ]] || [[ -n "$(find Sources/VCLintCore Sources/VCLintAVX2 Tests/Fuzz -name '*.swift' -newer "$binary" | head -1)" ]]; then
    echo "fuzz: building $binary"
    rm -f "$binary"
    if [[ "$(uname -m)" == x86_64 ]]; then
        swiftc -sanitize=address -O -wmo -parse-as-library -module-name VCLintAVX2 -Xcc -mavx2 \
            -emit-module -emit-module-path "$work/VCLintAVX2.swiftmodule" -emit-object -o "$work/VCLintAVX2.o" \
            Sources/VCLintAVX2/TeddyAVX2.swift
    fi
    # Configuration.swift (YAML, via Yams) is left out: the fuzzed path is bytes → report.
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -O -parse-as-library -module-name VCLintCore \
        -I Sources/CPCRE2 -I Sources/CZlib $pcre_flags $zlib_flags "${vector_flags[@]}" \
        $sources Tests/Fuzz/FuzzTarget.swift -o "$binary" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; }
    [[ -x "$binary" ]] || { echo "fuzz: build failed" >&2; exit 1; }
fi

# Seed corpus: every log fixture (a copy; the corpus grows in .build-fuzz, never in Fixtures).
find Fixtures -type f \( -name '*.log' -o -name '*.ndjson' -o -name '*.txt' -o -name '*.jsonl' \) | while read -r f; do
    cp -n "$f" "$work/corpus/seed-${f//\//_}"
done

# The Swift runtime's backtracer would fight the sanitizer over the crash report.
export SWIFT_BACKTRACE=enable=no
if [[ ${#reproduce[@]} -gt 0 ]]; then exec "$binary" "${reproduce[@]}"; fi
"$binary" "$work/corpus" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@"
