#!/usr/bin/env python3
"""Two vclint binaries side by side with `rg -c` on one capture, their runs alternated.

On a shared host whose other tenants move single runs by a tenth or more, hyperfine's runs of one command after
another can land in a quiet minute for one binary and a busy one for the other. Here each round runs every command
once, in turn, and the medians of the rounds are compared: wall time and CPU time (user + system), each also as a
ratio to `rg -c`'s in the same rounds. Both binaries run `lint --quiet` with two threads and with `-j 1`.

    Benchmarks/alternated.py --runs 11 capture.log OLD_BINARY NEW_BINARY
    Benchmarks/alternated.py --pattern onCreate --pattern onResume logcat.log OLD NEW

The default pattern is the keyword pattern run.sh gives `rg -c` for iOS captures.
"""
import argparse
import resource
import statistics
import subprocess
import sys
import time


def timed(command):
    """Wall and CPU seconds of one run of `command`, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code not in (0, 1):  # 1: rg found nothing, or vclint found something: both ran
        sys.exit(f"alternated.py: {' '.join(command)} exited {code}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11, help="rounds (default 11)")
    parser.add_argument("--pattern", action="append", help="a literal for rg -c -e (repeatable)")
    parser.add_argument("capture")
    parser.add_argument("old")
    parser.add_argument("new")
    args = parser.parse_args()
    patterns = args.pattern or ["viewDidLoad", "viewWillAppear", "viewDidAppear", "dealloc"]
    commands = {"rg -c": ["rg", "-c"] + [a for p in patterns for a in ("-e", p)] + [args.capture]}
    for label, binary in (("old", args.old), ("new", args.new)):
        commands[f"{label} lint"] = [binary, "lint", "--quiet", args.capture]
        commands[f"{label} -j 1"] = [binary, "lint", "-j", "1", "--quiet", args.capture]
    for command in commands.values():  # warm the page cache and the binaries
        timed(command)
    walls = {k: [] for k in commands}
    cpus = {k: [] for k in commands}
    for _ in range(args.runs):
        for label, command in commands.items():
            wall, cpu = timed(command)
            walls[label].append(wall)
            cpus[label].append(cpu)
    rg_wall, rg_cpu = statistics.median(walls["rg -c"]), statistics.median(cpus["rg -c"])
    print(f"{args.capture}: medians of {args.runs} alternated rounds")
    for label in ("rg -c", "old lint", "new lint", "old -j 1", "new -j 1"):
        wall, cpu = statistics.median(walls[label]), statistics.median(cpus[label])
        print(f"  {label:9} wall {wall * 1000:7.0f} ms ({wall / rg_wall:4.2f}x rg)   cpu {cpu * 1000:7.0f} ms ({cpu / rg_cpu:4.2f}x rg)")


if __name__ == "__main__":
    main()
