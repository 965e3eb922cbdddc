#!/usr/bin/env bash
# Throughput benchmark: a generated capture of SIZE bytes (default 1.1 GB, >= 90% noise lines),
# a release build, and vclint's wall time, throughput and peak RSS next to ripgrep's on the same file.
# usage: Benchmarks/run.sh [SIZE_BYTES]
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-1.1e9}"
data="Benchmarks/data/capture-${size}.log"
mkdir -p Benchmarks/data
if [ ! -f "$data" ]; then
    echo "generating $data"
    python3 Benchmarks/generate.py "$size" "$data"
fi
swift build -c release --product vclint >/dev/null
bytes=$(stat -L -c %s "$data")
cat "$data" > /dev/null  # warm the page cache
echo "machine: $(nproc) cores; capture: $bytes bytes, $(wc -l < "$data") lines"
/usr/bin/time -f "%e %M" -o /tmp/vclint-bench.time .build/release/vclint lint --quiet --reporter json "$data" > /tmp/vclint-bench.json || true
read -r secs rss < /tmp/vclint-bench.time
events=$(python3 -c "import json; d=json.load(open('/tmp/vclint-bench.json')); i=d['inputs'][0]; print(i['events'], i['lines'], len(d['violations']))")
set -- $events
python3 - "$bytes" "$secs" "$rss" "$1" "$2" "$3" <<'PY'
import sys
b, s, rss, ev, lines, v = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
print(f"vclint lint: {s:.2f} s, {b / s / 1e6:.0f} MB/s, peak RSS {rss / 1024:.1f} MiB, {ev} event lines of {lines} ({100 * (1 - ev / lines):.1f}% noise), {v} findings")
PY
if command -v rg >/dev/null; then
    /usr/bin/time -f "%e" -o /tmp/rg-bench.time rg -c 'view(Will|Did)(Appear|Disappear)|dealloc|deinit|viewDidLoad' "$data" >/dev/null || true
    echo "rg -c (same keywords): $(cat /tmp/rg-bench.time) s"
fi
