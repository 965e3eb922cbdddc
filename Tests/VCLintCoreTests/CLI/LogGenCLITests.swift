import Foundation
import Testing
import VCLintSimulation
@testable import VCLintCore

/// `vclint-loggen`, the simulator's command line (the benchmarks, and the commands of
/// docs/development.md#the-simulator-and-vclint-loggen that rebuild a capture).
@Suite struct LogGenCLITests {
    static var binary: URL { CLITests.binary.deletingLastPathComponent().appendingPathComponent("vclint-loggen") }

    func run(_ args: [String]) throws -> CLITests.Run {
        let p = Process()
        p.executableURL = Self.binary
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLITests.Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func helpDocumentsEveryOptionAndValue() throws {
        let r = try run(["--help"])
        #expect(r.status == 0)
        let options = ["--seed", "--envelope", "--dialect", "--style-seed", "--free-form-style", "--fault", "--families", "--objects", "--sessions", "--steps",
                       "--noise", "--mention-rate", "--memory-warnings", "--size", "--truth"]
        for o in options { #expect(r.stdout.contains(o), "\(o) missing from --help") }
        let values = NavigationSimulator.Fault.allCases.map(\.rawValue) + NavigationSimulator.Family.allCases.map(\.rawValue)
            + NavigationSimulator.Dialect.allCases.map(\.rawValue) + FreeFormStyle.Variant.allCases.map(\.rawValue)
        for v in values { #expect(r.stdout.contains(v), "\(v) missing from --help") }
    }

    @Test func aBadValueIsExitTwoWithTheChoices() throws {
        let r = try run(["--fault", "lek"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("expected one of leak,"))
        #expect(try run(["--seed"]).status == 2)
        #expect(try run(["--size", "lots"]).status == 2)
        #expect(try run(["--noise", "-1"]).status == 2)
    }

    @Test func truthIsTheSimulatorsExpectedFindings() throws {
        let path = scratchRoot.appendingPathComponent("vclint-truth-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try run(["--seed", "5", "--envelope", "oslog", "--fault", "leak", "--truth", path])
        #expect(r.status == 0)
        var o = NavigationSimulator.Options(seed: 5)
        o.envelope = .oslog
        o.fault = .leak
        let out = NavigationSimulator.generate(o)
        #expect(r.stdout == out.text)
        let truth = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!out.expected.isEmpty)
        #expect(truth == out.expected.map { "\($0.rule) \($0.line)\n" }.joined())
    }
}

extension LogGenCLITests {
    /// A `print` capture cannot show a relaunch: `--size` makes its one run longer instead of writing
    /// runs one after the other (which read as one session where two launches' controllers meet), so a
    /// fault-free one is clean at any size, and its fault is still exactly the truth.
    @Test func aBareCaptureOfSomeSizeIsOneCleanRun() throws {
        for seed in ["11", "3"] {
            let r = try run(["--seed", seed, "--envelope", "bare", "--size", "200000"])
            #expect(r.status == 0)
            #expect(r.stdout.utf8.count >= 200_000, "seed \(seed): \(r.stdout.utf8.count) bytes")
            let result = Linter().lint(text: r.stdout, path: "bare.log")
            #expect(result.findings.filter { $0.severity != .info }.isEmpty, "seed \(seed): \(result.summary)")
            #expect(result.stats.sessions == 1)
        }
        let path = scratchRoot.appendingPathComponent("vclint-truth-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let faulty = try run(["--seed", "11", "--envelope", "bare", "--size", "200000", "--fault", "leak", "--truth", path])
        #expect(faulty.status == 0)
        let truth = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { $0.replacingOccurrences(of: " ", with: "@") }
        let found = Linter().lint(text: faulty.stdout, path: "bare.log").summary.filter { !$0.hasPrefix("memory_warning") }
        #expect(found == truth)
        #expect(try run(["--envelope", "bare", "--size", "1e9"]).status == 2)
    }
}

extension LogGenCLITests {
    /// `--dialect mixed` (the benchmark's dense capture): the runs take every dialect in turn, each a
    /// relaunch as with one dialect, free-form in the style drawn from the seed; the capture is clean.
    @Test func aMixedCaptureHasEveryDialectInTurn() throws {
        let r = try run(["--seed", "4", "--dialect", "mixed", "--objects", "--noise", "7", "--mention-rate", "0.05", "--sessions", "1", "--steps", "6",
                         "--size", "400000"])
        #expect(r.status == 0)
        var options = NavigationSimulator.Options(seed: 4)
        options.objects = true
        options.sessions = 1
        options.steps = 6
        options.noise = 7
        options.mentionRate = 0.05
        var rng = SplitMix64(seed: 4 ^ 0x5EED_F00D)
        options.style = FreeFormStyle.random(&rng)
        var expected = ""
        var dialects: [NavigationSimulator.Dialect] = []
        for d in NavigationSimulator.Dialect.allCases.cycled() {
            options.dialect = d
            let out = NavigationSimulator.generate(options)
            expected += out.text
            dialects.append(d)
            if expected.utf8.count >= 400_000 { break }
            options.seed &+= 1
            options.startTime = out.endTime + 60
            options.firstPID = out.nextPID
            options.logsInit = out.logsInit
            options.logsDealloc = out.logsDealloc
        }
        #expect(Set(dialects) == Set(NavigationSimulator.Dialect.allCases), "only \(dialects.count) runs: size too small for every dialect")
        #expect(r.stdout == expected)
        #expect(r.stderr.contains("free-form style"))
        let result = Linter().lint(text: r.stdout, path: "mixed.log")
        #expect(result.findings.filter { $0.severity != .info }.isEmpty, "\(result.summary)")
        #expect(try run(["--dialect", "mixed", "--free-form-style", "redacted"]).status == 2)
    }
}

private extension Collection {
    /// The elements over and over.
    func cycled() -> some Sequence<Element> {
        sequence(state: startIndex) { i in
            defer { i = index(after: i) == endIndex ? startIndex : index(after: i) }
            return self[i]
        }
    }
}
