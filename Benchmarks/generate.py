#!/usr/bin/env python3
"""Deterministic capture generator for vclint's throughput benchmark.

Writes an NSLog-style console capture of roughly SIZE bytes: a simulated app that launches,
pushes and pops detail screens, presents and dismisses sheets, with realistic noise (networking,
analytics lines that mention callbacks without being events, multi-line dictionaries). At least
90% of the lines are noise. Every flow is legal, so `vclint lint` on the output reports nothing
but the memory warnings it contains.

usage: generate.py SIZE_BYTES OUTPUT [--seed N]
"""
import random
import sys

NOISE = [
    "[Network] GET https://api.example.com/v2/feed?page={n} -> 200 ({ms} ms)",
    "[Analytics] queued screen event viewDidAppear for HomeViewController",
    "[Analytics] flushed {n} events",
    "[Cache] image cache hit ratio 0.{n}",
    "[Sync] merged {n} records from server",
    "CoreData: annotation: fetch request took {ms} ms",
    "[Player] buffering progress {n}%",
    "Reachability: network changed to wifi",
    "[Auth] token refresh scheduled in {n} s",
    "[Layout] table view reloaded {n} rows",
    "Unable to simultaneously satisfy constraints. Will attempt to recover by breaking constraint <NSLayoutConstraint:0x600003{n} UILabel.width == 120>",
    "[Feature] flag home_redesign=true variant=B",
    "[Router] will present login if token expires (dismiss later)",
]

def main():
    size = int(float(sys.argv[1]))
    out = sys.argv[2]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rnd = random.Random(seed)
    t = 1_700_000_000.0
    pid = 4000
    written = 0
    buf = []
    bufsize = 0

    def stamp():
        whole = int(t)
        frac = int((t - whole) * 1000)
        # A fixed calendar day is enough for a benchmark; only the clock moves.
        h, m, s = (whole // 3600) % 24, (whole // 60) % 60, whole % 60
        return "2024-03-01 %02d:%02d:%02d.%03d" % (h, m, s, frac)

    def emit(msg):
        nonlocal bufsize
        line = "%s Shop[%d:%d] %s\n" % (stamp(), pid, 51000 + pid % 97, msg)
        buf.append(line)
        bufsize += len(line)

    def noise(k):
        nonlocal t
        for _ in range(k):
            t += rnd.random() * 0.05
            tmpl = NOISE[rnd.randrange(len(NOISE))]
            emit(tmpl.format(n=rnd.randrange(1000), ms=rnd.randrange(900)))
            if rnd.random() < 0.02:
                emit("response: {")
                buf.append('    "items" = 12;\n    "state" = viewDidAppear;\n}\n')

    def lc(cls, method):
        nonlocal t
        t += 0.01 + rnd.random() * 0.02
        emit("-[%s %s]" % (cls, method))

    with open(out, "w") as f:
        while written < size:
            # launch
            pid += 1
            for m in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:"):
                lc("HomeViewController", m)
            for _ in range(rnd.randrange(20, 60)):
                noise(rnd.randrange(40, 120))
                kind = rnd.random()
                if kind < 0.5:
                    lc("DetailViewController", "viewDidLoad")
                    lc("HomeViewController", "viewWillDisappear:")
                    lc("DetailViewController", "viewWillAppear:")
                    lc("HomeViewController", "viewDidDisappear:")
                    lc("DetailViewController", "viewDidAppear:")
                    noise(rnd.randrange(10, 60))
                    lc("DetailViewController", "viewWillDisappear:")
                    lc("HomeViewController", "viewWillAppear:")
                    lc("DetailViewController", "viewDidDisappear:")
                    lc("HomeViewController", "viewDidAppear:")
                    lc("DetailViewController", "dealloc")
                elif kind < 0.8:
                    lc("FilterSheetController", "viewDidLoad")
                    lc("FilterSheetController", "viewWillAppear:")
                    lc("FilterSheetController", "viewDidAppear:")
                    noise(rnd.randrange(10, 60))
                    lc("FilterSheetController", "viewWillDisappear:")
                    lc("FilterSheetController", "viewDidDisappear:")
                    lc("FilterSheetController", "dealloc")
                else:
                    lc("DetailViewController", "viewDidLoad")
                    lc("HomeViewController", "viewWillDisappear:")
                    lc("DetailViewController", "viewWillAppear:")
                    lc("HomeViewController", "viewDidDisappear:")
                    lc("DetailViewController", "viewDidAppear:")
                    lc("DetailViewController", "viewWillDisappear:")
                    lc("HomeViewController", "viewWillAppear:")
                    lc("HomeViewController", "viewWillDisappear:")
                    lc("HomeViewController", "viewDidDisappear:")
                    lc("DetailViewController", "viewWillAppear:")
                    lc("DetailViewController", "viewDidAppear:")
                    noise(rnd.randrange(10, 40))
                    lc("DetailViewController", "viewWillDisappear:")
                    lc("HomeViewController", "viewWillAppear:")
                    lc("DetailViewController", "viewDidDisappear:")
                    lc("HomeViewController", "viewDidAppear:")
                    lc("DetailViewController", "dealloc")
                if bufsize > 1 << 22:
                    f.write("".join(buf))
                    written += bufsize
                    buf.clear()
                    bufsize = 0
                    if written >= size:
                        break
            t += 60
        if buf:
            f.write("".join(buf))

if __name__ == "__main__":
    main()
