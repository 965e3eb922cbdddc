import Testing
@testable import VCLintCore

/// Live mode decides a leak when its grace period has passed (`SessionTimeline.reportExpiredLeaks`),
/// from a schedule of removals (`LeakClock`) rather than a scan of every live controller per line.
@Suite struct LeakClockTests {
    static func instance(_ serial: Int) -> Instance {
        Instance(serial: serial, entry: Instrumentation.ClassEntry(name: "A", dialect: .objcFunction), address: nil,
                 generation: serial, dialect: .objcFunction, line: serial)
    }

    @Test func comesDueEarliestFirst() {
        var clock = LeakClock()
        var r = SplitMix(seed: 5)
        var times: [Double] = []
        for k in 0..<500 {
            let at = Double(r.int(10_000)) / 10
            times.append(at)
            clock.push(at: at, Self.instance(k))
        }
        // Nothing is due before its grace period has passed.
        #expect(clock.popDue(now: times.min()! + 2.999, grace: 3) == nil)
        var due: [Double] = []
        while let inst = clock.popDue(now: 2_000, grace: 3) { due.append(times[inst.serial]) }
        #expect(due == times.sorted())
        #expect(clock.count == 0)
    }

    @Test func compactionKeepsWhatIsPendingAndBoundsTheRest() {
        var clock = LeakClock()
        var kept: [Instance] = []
        for k in 0..<10_000 {
            let inst = Self.instance(k)
            if k % 100 == 0 { kept.append(inst) }
            clock.push(at: Double(k), inst)
            // Most entries go stale (their controller was deallocated): compaction drops them.
            clock.compact { $0.serial % 100 == 0 }
        }
        #expect(clock.count < 2 * 1024)
        var due: [Int] = []
        while let inst = clock.popDue(now: 1e9, grace: 3) { due.append(inst.serial) }
        // Every pending one is still there, in order (stale ones since the last compaction too).
        #expect(kept.map(\.serial).allSatisfy { due.contains($0) })
        #expect(due == due.sorted())
    }

    static let child = [
        // The app logs dealloc (so a leak is judged when it falls due, not at the end).
        "2020-04-01 16:30:39.000 App[1:2] -[SplashViewController dealloc]",
        "2020-04-01 16:30:40.000 App[1:2] -[ContainerViewController viewDidLoad]",
        "2020-04-01 16:30:40.100 App[1:2] -[ContainerViewController viewWillAppear:]",
        "2020-04-01 16:30:40.200 App[1:2] -[ContainerViewController viewDidAppear:]",
        "2020-04-01 16:30:41.000 App[1:2] -[ChildViewController willMoveToParentViewController:] <ContainerViewController: 0x7fa1c8d0a200>",
        "2020-04-01 16:30:41.010 App[1:2] -[ChildViewController viewDidLoad]",
        "2020-04-01 16:30:41.020 App[1:2] -[ChildViewController viewWillAppear:]",
        "2020-04-01 16:30:41.030 App[1:2] -[ChildViewController viewDidAppear:]",
        "2020-04-01 16:30:41.040 App[1:2] -[ChildViewController didMoveToParentViewController:] <ContainerViewController: 0x7fa1c8d0a200>",
        "2020-04-01 16:30:50.000 App[1:2] -[ChildViewController willMoveToParentViewController:] (null)",
        "2020-04-01 16:30:50.010 App[1:2] -[ChildViewController viewWillDisappear:]",
        "2020-04-01 16:30:50.020 App[1:2] -[ChildViewController didMoveToParentViewController:] (null)",
        // The disappearance ends 2 s after the removal began: the leak is timed from here.
        "2020-04-01 16:30:52.000 App[1:2] -[ChildViewController viewDidDisappear:]",
        "2020-04-01 16:30:54.500 App[1:2] [Net] still polling",  // 4.5 s after the removal, 2.5 s after its end
        "2020-04-01 16:30:55.100 App[1:2] [Net] still polling",  // 3.1 s after its end: due
        "2020-04-01 16:30:56.000 App[1:2] -[ContainerViewController dealloc]",
    ]

    /// A removal whose anchor moves later (the child's viewDidDisappear after didMove(nil)) is due
    /// from the new anchor, not the old one; each leak once.
    @Test func aMovedAnchorMovesTheDueTime() {
        let live = LiveLinter(path: "live.log")
        var decidedAt: [Int: [String]] = [:]
        for (i, line) in Self.child.enumerated() {
            let found = Array((line + "\n").utf8).withUnsafeBytes { live.consume($0) }
            if !found.isEmpty { decidedAt[i + 1] = found.map { "\($0.rule)@\($0.line)" } }
        }
        let leaks = decidedAt.filter { $0.value.contains { $0.hasPrefix("leaked_controller") } }
        #expect(leaks == [15: ["leaked_controller@13"]], "\(decidedAt)")
        let (late, _) = live.finish()
        #expect(!late.contains { $0.rule == "leaked_controller" })
    }

    /// A leak decided before its dialect has logged any dealloc waits (its rule needs one); it
    /// comes out at the line where the first dealloc of its dialect is logged, as a batch run
    /// judges it at the session's end. Only the waiting lists of what changed are read again.
    @Test func waitingLeaksComeOutWhenTheirDialectLogsDealloc() {
        var lines = [
            "2020-04-01 16:30:40.000 App[1:2] <HomeViewController: 0x10> viewDidLoad",
            "2020-04-01 16:30:40.100 App[1:2] <HomeViewController: 0x10> viewWillAppear:",
            "2020-04-01 16:30:40.200 App[1:2] <HomeViewController: 0x10> viewDidAppear:",
        ]
        // Sheets shown and closed (each its own class), none deallocated: leaks, decided 3 s on.
        for k in 0..<50 {
            let t = String(format: "16:30:%02d.%03d", 41 + k / 25, k % 25 * 10)
            let me = "<Sheet\(k)ViewController: 0x\(String(0x1000 + k, radix: 16))>"
            for cb in ["viewDidLoad", "viewWillAppear:", "viewDidAppear:", "viewWillDisappear:", "viewDidDisappear:"] {
                lines.append("2020-04-01 \(t) App[1:2] \(me) \(cb)")
            }
        }
        lines += [
            "2020-04-01 16:30:50.000 App[1:2] <OtherViewController: 0x2000> viewDidLoad",
            "2020-04-01 16:30:50.010 App[1:2] <OtherViewController: 0x2000> dealloc",
            "2020-04-01 16:30:51.000 App[1:2] [Net] done",
        ]
        let live = LiveLinter(path: "live.log")
        var decidedAt: [Int: [String]] = [:]
        for (i, line) in lines.enumerated() {
            let found = Array((line + "\n").utf8).withUnsafeBytes { live.consume($0) }
            if !found.isEmpty { decidedAt[i + 1] = found.map(\.rule) }
        }
        let deallocLine = lines.count - 1
        #expect(decidedAt.keys.sorted() == [deallocLine])
        #expect(decidedAt[deallocLine] == Array(repeating: "leaked_controller", count: 50))
        let (late, result) = live.finish()
        #expect(late.isEmpty)
        let batch = Linter().lint(text: lines.joined(separator: "\n") + "\n")
        #expect(result.findings.map { "\($0.rule)@\($0.line)" } == batch.findings.map { "\($0.rule)@\($0.line)" })
    }
}
