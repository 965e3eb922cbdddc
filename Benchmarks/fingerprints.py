#!/usr/bin/env python3
"""The candidate search's fingerprints (Sources/VCLintCore/Input/Scanner/CandidateLiterals.swift) against text.

Each literal has a three-byte fingerprint in one of eight Teddy buckets; a position of the input passes when its
three bytes pass one bucket's nibble tests, and every position that passes is verified (a branch the CPU cannot
predict: on a sparse capture the verification was 6 % of a one-thread lint's time). This script reads the table
from the Swift source and prints, per file, how many positions pass per MiB; with --search it moves one literal at a
time to the fingerprint and bucket that make the fewest positions pass over all the files (each weighted per MiB,
so that a small file counts as much as a large one) until no move helps, and prints the moves.

usage: Benchmarks/fingerprints.py [--search] FILE...
  e.g. generated captures (vclint-loggen), published ones, docs, source, any English text
needs: numpy
"""
import collections
import pathlib
import random
import re
import sys

import numpy as np

SOURCE = pathlib.Path(__file__).resolve().parent.parent / "Sources/VCLintCore/Input/Scanner/CandidateLiterals.swift"


def read_table():
    text = SOURCE.read_text()
    body = text[text.index("static let table"):text.index("static let shared")]
    rows = re.findall(r'\("((?:[^"\\]|\\.)*)", (\d+), (\d+), (true|false)\)', body)
    return [(t.encode(), int(o), int(b)) for t, o, b, _ in rows]


def trigram_weights(paths):
    """Each distinct three-byte value of the files, with its count per MiB of its file, summed over the files."""
    weights = collections.Counter()
    for path in paths:
        data = np.frombuffer(pathlib.Path(path).read_bytes(), dtype=np.uint8).astype(np.uint32)
        if len(data) < 3:
            continue
        keys = data[:-2] | (data[1:-1] << 8) | (data[2:] << 16)
        values, counts = np.unique(keys, return_counts=True)
        scale = (1 << 20) / len(data)
        for k, n in zip(values.tolist(), counts.tolist()):
            weights[k] += n * scale
    keys = np.array(list(weights.keys()), dtype=np.uint32)
    return keys, np.array(list(weights.values()))


def nibble_tables(literals, assignment):
    lo = np.zeros((8, 3, 16), dtype=bool)
    hi = np.zeros((8, 3, 16), dtype=bool)
    for (text, _, _), (offset, bucket) in zip(literals, assignment):
        for k in range(3):
            byte = text[offset + k]
            lo[bucket, k, byte & 15] = True
            hi[bucket, k, byte >> 4] = True
    return lo, hi


def passing(lo, hi, columns):
    """Whether each position (its three bytes as `columns`) passes some bucket."""
    passed = np.zeros(len(columns[0]), dtype=bool)
    for bucket in range(8):
        m = np.ones(len(columns[0]), dtype=bool)
        for k in range(3):
            m &= lo[bucket, k][columns[k] & 15] & hi[bucket, k][columns[k] >> 4]
        passed |= m
    return passed


def per_file(literals, assignment, paths):
    lo, hi = nibble_tables(literals, assignment)
    for path in paths:
        data = np.frombuffer(pathlib.Path(path).read_bytes(), dtype=np.uint8).astype(np.int64)
        if len(data) < 3:
            continue
        columns = [data[k:len(data) - 2 + k] for k in range(3)]
        count = int(passing(lo, hi, columns).sum())
        print(f"{count * (1 << 20) / len(data):10,.0f} positions per MiB  {path}")


def search(literals, assignment, keys, weights):
    columns = [((keys >> (8 * k)) & 255).astype(np.int64) for k in range(3)]

    def total(a):
        lo, hi = nibble_tables(literals, a)
        return float(weights[passing(lo, hi, columns)].sum())

    best = total(assignment)
    start = best
    for round_ in range(10):
        improved = False
        order = list(range(len(literals)))
        random.Random(round_).shuffle(order)
        for i in order:
            text = literals[i][0]
            for offset in range(len(text) - 2):
                for bucket in range(8):
                    if (offset, bucket) == assignment[i]:
                        continue
                    trial = assignment[:i] + [(offset, bucket)] + assignment[i + 1:]
                    t = total(trial)
                    if t < best - 1e-9:
                        best, assignment, improved = t, trial, True
        if not improved:
            break
    print(f"positions per MiB over all the files: {start:,.0f} -> {best:,.0f}", file=sys.stderr)
    return assignment


def main(argv):
    find = "--search" in argv
    paths = [a for a in argv if a != "--search"]
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    literals = read_table()
    current = [(o, b) for _, o, b in literals]
    per_file(literals, current, paths)
    if find:
        keys, weights = trigram_weights(paths)
        chosen = search(literals, current, keys, weights)
        for (text, o, b), (o2, b2) in zip(literals, chosen):
            if (o, b) != (o2, b2):
                print(f'("{text.decode()}", {o}, {b}) -> ("{text.decode()}", {o2}, {b2})')
        print("after:")
        per_file(literals, chosen, paths)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
