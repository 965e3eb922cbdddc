#!/usr/bin/env python3
"""Writes the captures that probe vclint's memory and time bounds (Benchmarks/memory.sh):

  cycles N      N present/dismiss cycles of one address-less modal, dealloc never logged
  warnings N    N didReceiveMemoryWarning lines for a visible controller
  stack N       N controllers (with addresses) pushed and never popped
  findings N    N unbalanced viewDidAppear lines (a finding each)
  classes N     N classes, each a sheet shown and dismissed over a visible root
  sheets N      N cycles of one address-less sheet over a visible root, dealloc never logged

usage: hostile-captures.py KIND N > capture.log"""
import sys

def main():
    kind, n = sys.argv[1], int(float(sys.argv[2]))
    out = sys.stdout
    t = [1_700_000_000.0]

    def line(msg):
        t[0] += 0.001
        whole = int(t[0])
        ms = int((t[0] - whole) * 1000)
        h, m, s = whole // 3600 % 24, whole // 60 % 60, whole % 60
        out.write(f"2024-03-01 {h:02d}:{m:02d}:{s:02d}.{ms:03d} Shop[100:200] {msg}\n")

    def root():
        for cb in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:"):
            line(f"-[HomeViewController {cb}]")

    if kind == "cycles":
        root()
        for _ in range(n):
            for m in ("-[ModalViewController viewDidLoad]", "-[HomeViewController viewWillDisappear:]", "-[ModalViewController viewWillAppear:]",
                      "-[HomeViewController viewDidDisappear:]", "-[ModalViewController viewDidAppear:]",
                      "-[ModalViewController viewWillDisappear:]", "-[HomeViewController viewWillAppear:]",
                      "-[ModalViewController viewDidDisappear:]", "-[HomeViewController viewDidAppear:]"):
                line(m)
    elif kind == "warnings":
        root()
        for _ in range(n):
            line("-[HomeViewController didReceiveMemoryWarning]")
    elif kind == "stack":
        prev = None
        for i in range(n):
            addr = f"0x{0x600000000000 + 16 * i:x}"
            me = f"<ScreenViewController: {addr}>"
            line(f"{me} viewDidLoad")
            if prev: line(f"{prev} viewWillDisappear:")
            line(f"{me} viewWillAppear:")
            if prev: line(f"{prev} viewDidDisappear:")
            line(f"{me} viewDidAppear:")
            prev = me
    elif kind == "findings":
        root()
        for _ in range(n):
            line("-[HomeViewController viewDidAppear:]")
    elif kind == "classes":
        root()
        for i in range(n):
            c = f"Sheet{i}ViewController"
            for cb in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"):
                line(f"-[{c} {cb}]")
    elif kind == "sheets":
        root()
        for _ in range(n):
            for cb in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"):
                line(f"-[SheetViewController {cb}]")
    else:
        sys.exit(__doc__)

main()
