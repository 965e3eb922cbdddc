#!/usr/bin/env python3
"""Writes the captures that probe vclint's memory and time bounds (Benchmarks/memory.sh):

  cycles N      N present/dismiss cycles of one address-less modal, dealloc never logged
  modals N      N present/dismiss cycles of modals with addresses of their own, never freed (a
                dealloc elsewhere in the dialect: N leaked_controller, but for the last few)
  warnings N    N didReceiveMemoryWarning lines for a visible controller
  stack N       N controllers (with addresses) pushed and never popped
  findings N    N unbalanced viewDidAppear lines (a finding each)
  classes N     N classes, each a sheet shown and dismissed over a visible root
  tests N       N xcodebuild tests of distinct names, each pushing a controller with an address of
                its own, popping it and logging its dealloc: nothing stays alive
  sheets N      N cycles of one address-less sheet over a visible root, dealloc never logged
  pids N        N lines, each from a process id of its own (N sessions of one event each; one in
                four a memory warning, a finding)
  sessions N    N lines in 600 sessions (process ids), each a root shown and hidden over and over: many
                sessions whose drawings are each under a MB
  objects N     N view models (with addresses) made while the root screen is set up, never deallocated
  owned N       N present/dismiss cycles of a modal with its address-less view model; the modal
                is deallocated every time, its view model never (after one that shows the class logs
                its deinit): N leaked objects
  files N DIR   N small captures in DIR (a modal shown and dismissed over a root, dealloc never
                logged, an unbalanced viewDidAppear: a finding, a removal and an unjudged class
                in every file); prints DIR

usage: hostile-captures.py KIND N [DIR] > capture.log"""
import os
import sys

def main():
    kind, n = sys.argv[1], int(float(sys.argv[2]))
    out = sys.stdout
    t = [1_700_000_000.0]

    def line(msg, pid=100, to=None):
        t[0] += 0.001
        whole = int(t[0])
        ms = int((t[0] - whole) * 1000)
        h, m, s = whole // 3600 % 24, whole // 60 % 60, whole % 60
        (to or out).write(f"2024-03-01 {h:02d}:{m:02d}:{s:02d}.{ms:03d} Shop[{pid}:200] {msg}\n")

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
    elif kind == "modals":
        for cb in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:"):
            line(f"<HomeViewController: 0x100> {cb}")
        line("<SplashViewController: 0x200> dealloc")
        for i in range(n):
            m, h = f"<ModalViewController: 0x{0x600000000000 + 16 * i:x}>", "<HomeViewController: 0x100>"
            for s in (f"{m} viewDidLoad", f"{h} viewWillDisappear:", f"{m} viewWillAppear:", f"{h} viewDidDisappear:", f"{m} viewDidAppear:",
                      f"{m} viewWillDisappear:", f"{h} viewWillAppear:", f"{m} viewDidDisappear:", f"{h} viewDidAppear:"):
                line(s)
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
    elif kind == "objects":
        line("-[HomeViewController viewDidLoad]")
        for i in range(n):
            line(f"<ItemViewModel: 0x{0x600000000000 + 16 * i:x}> init")
        for cb in ("viewWillAppear:", "viewDidAppear:"):
            line(f"-[HomeViewController {cb}]")
    elif kind == "owned":
        root()
        line("-[ModalViewModel init]")
        line("-[ModalViewModel dealloc]")
        for _ in range(n):
            for m in ("-[ModalViewController viewDidLoad]", "-[ModalViewModel init]", "-[HomeViewController viewWillDisappear:]",
                      "-[ModalViewController viewWillAppear:]", "-[HomeViewController viewDidDisappear:]", "-[ModalViewController viewDidAppear:]",
                      "-[ModalViewController viewWillDisappear:]", "-[HomeViewController viewWillAppear:]",
                      "-[ModalViewController viewDidDisappear:]", "-[HomeViewController viewDidAppear:]", "-[ModalViewController dealloc]"):
                line(m)
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
    elif kind == "tests":
        root()
        for i in range(n):
            name = f"-[ShopUITests.Flow{i}Tests test{i}]"
            (out).write(f"Test Case '{name}' started.\n")
            m = f"<DetailViewController: 0x{0x600000000000 + 16 * i:x}>"
            for s in (f"{m} viewDidLoad", "<HomeViewController: 0x100> viewWillDisappear:", f"{m} viewWillAppear:",
                      "<HomeViewController: 0x100> viewDidDisappear:", f"{m} viewDidAppear:", f"{m} viewWillDisappear:",
                      "<HomeViewController: 0x100> viewWillAppear:", f"{m} viewDidDisappear:", "<HomeViewController: 0x100> viewDidAppear:",
                      f"{m} dealloc"):
                line(s)
            out.write(f"Test Case '{name}' passed (0.010 seconds).\n")
    elif kind == "sheets":
        root()
        for _ in range(n):
            for cb in ("viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"):
                line(f"-[SheetViewController {cb}]")
    elif kind == "pids":
        callbacks = ("viewDidLoad", "viewWillAppear:", "viewDidAppear:", "didReceiveMemoryWarning")
        for i in range(n):
            line(f"-[HomeViewController {callbacks[i % 4]}]", pid=1000 + i)
    elif kind == "sessions":
        per = max(1, n // 600)
        for pid in range(1000, 1600):
            line("-[HomeViewController viewDidLoad]", pid=pid)
            for k in range(per - 1):
                line(f"-[HomeViewController {('viewWillAppear:', 'viewDidAppear:', 'viewWillDisappear:', 'viewDidDisappear:')[k % 4]}]", pid=pid)
    elif kind == "files":
        folder = sys.argv[3]
        os.makedirs(folder, exist_ok=True)
        for i in range(n):
            with open(os.path.join(folder, f"capture-{i:06d}.log"), "w") as f:
                for m in ("-[HomeViewController viewDidLoad]", "-[HomeViewController viewWillAppear:]", "-[HomeViewController viewDidAppear:]",
                          "-[ModalViewController viewDidLoad]", "-[HomeViewController viewWillDisappear:]", "-[ModalViewController viewWillAppear:]",
                          "-[HomeViewController viewDidDisappear:]", "-[ModalViewController viewDidAppear:]",
                          "-[ModalViewController viewWillDisappear:]", "-[HomeViewController viewWillAppear:]",
                          "-[ModalViewController viewDidDisappear:]", "-[HomeViewController viewDidAppear:]",
                          "-[HomeViewController viewDidAppear:]"):
                    line(m, to=f)
        print(folder)
    else:
        sys.exit(__doc__)

main()
