import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// One verdict, live or batch (docs/lifecycle.md#live-mode): following an input in reads of any size
/// ends with the batch run's findings (and so its exit code), and every finding printed on the way
/// that the batch run does not stand by was resolved by a later line.
@Suite struct LiveEqualsBatchTests {
    struct Followed {
        var printed: [Finding] = []
        var resolutions: [Resolution] = []
        var result: FileResult
    }

    static func follow(_ bytes: [UInt8], path: String, chunk: Int) -> Followed {
        let live = LiveLinter(path: path)
        var update = LiveUpdate()
        var at = 0
        while at < bytes.count {
            let n = min(chunk, bytes.count - at)
            update += bytes[at..<(at + n)].withUnsafeBytes { live.consume($0) }
            at += n
        }
        let (late, result) = live.finish()
        update += late
        return Followed(printed: update.findings, resolutions: update.resolutions, result: result)
    }

    /// Everything a report says of a finding.
    static func verdict(_ f: Finding) -> String {
        "\(f.rule) \(f.severity) @\(f.line) \(f.fingerprint) \(f.controller.display) \(f.message) related \(f.related.map(\.line)) "
            + "\(f.transition?.rawValue ?? "-") \(f.test ?? "-")"
    }

    /// `lint`'s exit code for one input's findings (without --strict).
    static func exitCode(_ r: FileResult) -> Int { r.findings.contains { $0.severity == .error } ? 1 : 0 }

    static func key(_ f: Finding) -> String { "\(f.rule)@\(f.line) \(f.fingerprint)" }

    /// What breaks the promise on one input (empty: nothing).
    static func problems(_ bytes: [UInt8], path: String, chunk: Int) -> [String] {
        problemsAndResolutions(bytes, path: path, chunk: chunk).problems
    }

    /// What breaks the promise, and how many printed findings were resolved.
    static func problemsAndResolutions(_ bytes: [UInt8], path: String, chunk: Int) -> (problems: [String], resolved: Int) {
        let batch = Linter().lint(bytes: bytes, path: path)
        let live = follow(bytes, path: path, chunk: chunk)
        var out: [String] = []
        let b = batch.findings.map(verdict), l = live.result.findings.map(verdict)
        if b != l {
            out.append("the result differs from batch: batch only \(b.filter { !l.contains($0) }.prefix(3)), live only \(l.filter { !b.contains($0) }.prefix(3))")
        }
        if exitCode(batch) != exitCode(live.result) { out.append("exit codes differ") }
        // Printed, less what was resolved, is the batch run's findings (as a multiset).
        var standing: [String: Int] = [:]
        for f in live.printed { standing[key(f), default: 0] += 1 }
        for r in live.resolutions {
            guard let n = standing[key(r.finding)], n > 0 else {
                out.append("a resolution of \(key(r.finding)), which was not printed")
                continue
            }
            standing[key(r.finding)] = n - 1
        }
        var expected: [String: Int] = [:]
        for f in batch.findings { expected[key(f), default: 0] += 1 }
        for (k, n) in standing where n != (expected[k] ?? 0) {
            out.append(n > (expected[k] ?? 0) ? "printed \(k) \(n)×, unresolved, the batch run has it \(expected[k] ?? 0)×" : "\(k) printed \(n)× only")
        }
        for (k, n) in expected where standing[k] == nil { out.append("\(k) (\(n)×) never printed") }
        return (out, live.resolutions.count)
    }

    /// Every fixture (the custom dialects' need their configuration), in small reads and in one.
    @Test(arguments: [64, 1 << 20])
    func everyFixtureEndsAsItsBatchRun(chunk: Int) throws {
        var checked = 0
        for fixture in allFixtureLogs() where !fixture.contains("custom") {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            let found = Self.problems(bytes, path: fixture, chunk: chunk)
            #expect(found.isEmpty, "\(fixture) in reads of \(chunk) bytes: \(found)")
            checked += 1
        }
        #expect(checked > 60)
    }

    /// Simulated captures in every envelope, seeds 1 to 20: faults of every kind (leaks, late
    /// releases of controllers and objects), objects on every other seed, in reads of a size drawn
    /// from the seed.
    @Test(arguments: SimulationPropertyTests.envelopes)
    func simulatedCapturesEndAsTheirBatchRun(_ envelope: EnvelopeFormat) {
        let faults: [NavigationSimulator.Fault?] = [nil] + NavigationSimulator.Fault.allCases
        var resolved = 0
        for seed in UInt64(1)...20 {
            var o = NavigationSimulator.Options(seed: seed &* 48_271 &+ UInt64(envelope.index))
            o.envelope = envelope
            o.dialect = NavigationSimulator.Dialect.allCases[Int(seed) % NavigationSimulator.Dialect.allCases.count]
            // Every third seed a late release, which live mode prints as a leak and then resolves.
            o.fault = seed % 3 == 0 ? .lateRelease : faults[Int(seed &+ UInt64(envelope.index)) % faults.count]
            o.objects = seed % 2 == 0
            let out = NavigationSimulator.generate(o)
            let chunk = 1 + Int(seed &* 131 % 3000)
            let (found, n) = Self.problemsAndResolutions(Array(out.text.utf8), path: "sim.log", chunk: chunk)
            resolved += n
            let reproduce = "swift run vclint-loggen --seed \(o.seed) --envelope \(envelope.rawValue) --dialect \(o.dialect.rawValue)"
                + (o.fault.map { " --fault \($0.rawValue)" } ?? "") + (o.objects ? " --objects" : "")
            #expect(found.isEmpty, "\(reproduce) (reads of \(chunk) bytes): \(found)")
        }
        // Without times nothing is decided before the end (`bare`): nothing to resolve.
        if EnvelopeFormat.isTimed(envelope) { #expect(resolved > 0, "no printed leak was resolved: the property is not exercised") }
    }

    /// A leak printed when its grace passed, then its dealloc: a resolution to late_dealloc at once,
    /// then the late_dealloc; the run ends as the batch run does (a warning, exit 0).
    @Test func aLateDeallocResolvesThePrintedLeak() {
        let head = """
        2020-04-01 16:30:41.018249+0800 Shop[63209:914637] -[HomeViewController viewDidLoad]
        2020-04-01 16:30:41.039370+0800 Shop[63209:914637] -[HomeViewController viewWillAppear:]
        2020-04-01 16:30:41.303354+0800 Shop[63209:914637] -[HomeViewController viewDidAppear:]
        2020-04-01 16:30:42.000000+0800 Shop[63209:914637] -[CartViewController dealloc]
        2020-04-01 16:30:45.621437+0800 Shop[63209:914637] -[VideoPlayerViewController viewDidLoad]
        2020-04-01 16:30:45.623536+0800 Shop[63209:914637] -[HomeViewController viewWillDisappear:]
        2020-04-01 16:30:45.624498+0800 Shop[63209:914637] -[VideoPlayerViewController viewWillAppear:]
        2020-04-01 16:30:46.130586+0800 Shop[63209:914637] -[HomeViewController viewDidDisappear:]
        2020-04-01 16:30:46.131537+0800 Shop[63209:914637] -[VideoPlayerViewController viewDidAppear:]
        2020-04-01 16:30:54.713554+0800 Shop[63209:914637] -[VideoPlayerViewController viewWillDisappear:]
        2020-04-01 16:30:54.714620+0800 Shop[63209:914637] -[HomeViewController viewWillAppear:]
        2020-04-01 16:30:55.222549+0800 Shop[63209:914637] -[VideoPlayerViewController viewDidDisappear:]
        2020-04-01 16:30:55.223604+0800 Shop[63209:914637] -[HomeViewController viewDidAppear:]
        2020-04-01 16:31:00.220473+0800 Shop[63209:914637] [Player] stall timeout, invalidating progress timer

        """
        let tail = "2020-04-01 16:31:01.224506+0800 Shop[63209:914637] -[VideoPlayerViewController dealloc]\n"
        let live = LiveLinter(path: "late.log")
        let first = Array(head.utf8).withUnsafeBytes { live.consume($0) }
        #expect(first.map { "\($0.rule)@\($0.line)" } == ["leaked_controller@12"])
        let second = Array(tail.utf8).withUnsafeBytes { live.consume($0) }
        #expect(second.resolutions.map { "\($0.finding.rule)@\($0.finding.line) \($0.now.rawValue) by \($0.line)" }
                == ["leaked_controller@12 late_dealloc by 15"])
        #expect(second.resolutions.first?.finding.fingerprint == first.first?.fingerprint)
        #expect(second.findings.map { "\($0.rule)@\($0.line)" } == ["late_dealloc@15"])
        let (late, result) = live.finish()
        #expect(late.isQuiet)
        #expect(result.findings.map { "\($0.rule)@\($0.line) \($0.severity)" } == ["late_dealloc@15 warning"])
        #expect(Self.exitCode(result) == 0)
        #expect(Self.problems(Array((head + tail).utf8), path: "late.log", chunk: 1).isEmpty)
    }

    /// A tab switch read at first as a pop to root (every controller below the top taken along),
    /// undone when they appear again after the grace period: the printed leaks are withdrawn.
    @Test func aReappearanceWithdrawsThePrintedLeaks() {
        let lines = [
            "12:00:00.000 Shop[100:1] -[ListViewController dealloc]",
            "12:00:00.100 Shop[100:1] -[RootViewController viewDidLoad]",
            "12:00:00.110 Shop[100:1] -[RootViewController viewWillAppear:]",
            "12:00:00.120 Shop[100:1] -[RootViewController viewDidAppear:]",
            "12:00:01.000 Shop[100:1] -[ListViewController viewDidLoad]",
            "12:00:01.010 Shop[100:1] -[RootViewController viewWillDisappear:]",
            "12:00:01.020 Shop[100:1] -[ListViewController viewWillAppear:]",
            "12:00:01.300 Shop[100:1] -[RootViewController viewDidDisappear:]",
            "12:00:01.310 Shop[100:1] -[ListViewController viewDidAppear:]",
            "12:00:02.000 Shop[100:1] -[ListViewController viewWillDisappear:]",
            "12:00:02.010 Shop[100:1] -[RootViewController viewWillAppear:]",
            "12:00:02.300 Shop[100:1] -[ListViewController viewDidDisappear:]",
            "12:00:02.310 Shop[100:1] -[RootViewController viewDidAppear:]",
            "12:00:09.000 Shop[100:1] [Net] refresh",
            "12:00:10.000 Shop[100:1] -[RootViewController viewWillDisappear:]",
            "12:00:10.010 Shop[100:1] -[ListViewController viewWillAppear:]",
            "12:00:10.300 Shop[100:1] -[RootViewController viewDidDisappear:]",
            "12:00:10.310 Shop[100:1] -[ListViewController viewDidAppear:]",
        ]
        let text = lines.map { "2024-05-01 " + $0 }.joined(separator: "\n") + "\n"
        let followed = Self.follow(Array(text.utf8), path: "tabs.log", chunk: 1)
        #expect(followed.printed.map { "\($0.rule)@\($0.line)" } == ["leaked_controller@12"])
        #expect(followed.resolutions.map { "\($0.finding.rule)@\($0.finding.line) \($0.now.rawValue) by \($0.line)" }
                == ["leaked_controller@12 withdrawn by 16"])
        #expect(followed.result.findings.isEmpty)
        #expect(Self.problems(Array(text.utf8), path: "tabs.log", chunk: 7).isEmpty)
    }
}
