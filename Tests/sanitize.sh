#!/usr/bin/env bash
# The test suite under AddressSanitizer and ThreadSanitizer, each in its own build directory so that
# the normal .build stays as it is.
# Usage: Tests/sanitize.sh [--concurrent] [address|thread]…   (default: both, the whole suite)
#   --concurrent  only the suites that run vclint's code on more than one thread (the parallel files,
#                 the two threads of a file, the gzip thread, --follow, the HTML page's drawing, signals
#                 during a report's write): what CI runs under ThreadSanitizer.
# Timings on the 2-core CI machine kind: see docs/development.md#what-ci-runs.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=()
if [[ "${1:-}" == --concurrent ]]; then
    shift
    filter=(--filter 'EquivalenceTests|FollowTests|ProgressTests|LiveFollowerTests|FollowReporterCLITests|ChangingFileTests|ReportTransactionTests|VisualCLITests|HTMLReportTests|DirectoryWalkCLITests')
fi
kinds=("$@")
[[ ${#kinds[@]} -gt 0 ]] || kinds=(address thread)
# The Swift runtime's backtracer would fight the sanitizers over the crash report.
export SWIFT_BACKTRACE=enable=no
# print_suppressions=0: a suppressed leak in a vclint the tests run must not add lines to its stderr.
export LSAN_OPTIONS="suppressions=$PWD/Tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
for kind in "${kinds[@]}"; do
    case "$kind" in
        address) dir=.build-asan ;;
        thread) dir=.build-tsan ;;
        *) echo "usage: $0 [address|thread]…" >&2; exit 2 ;;
    esac
    echo "sanitize: $kind"
    start=$SECONDS
    swift build --build-tests --sanitize="$kind" --scratch-path "$dir"
    swift test --skip-build --sanitize="$kind" --scratch-path "$dir" ${filter[@]+"${filter[@]}"}
    echo "sanitize: $kind passed in $((SECONDS - start)) s"
done
