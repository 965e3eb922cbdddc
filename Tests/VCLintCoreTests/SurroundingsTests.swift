import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// One verdict whatever surrounds the events (docs/lifecycle.md#sessions): a session ends at its last
/// timed line, so a blank line, a CRLF blank, a continuation line, an untimed noise line or a test
/// runner's line after the last event, or inserted anywhere, changes no finding; nor does a live
/// (`--follow`) run.
@Suite struct SurroundingsTests {
    /// What is added: each is untimed, so none may move a session's end.
    static let additions: [(name: String, text: String)] = [
        ("a blank line", "\n"),
        ("a CRLF blank line", "\r\n"),
        ("a continuation line", "    continuation = 1;\n"),
        ("untimed noise", "Loading resources from the bundle\n"),
        ("XCTest's lines", "Test Case '-[LoginTests testLogout]' passed (0.412 seconds).\nTest Suite 'LoginTests' passed at 2024-03-01 10:00:30.000.\n"),
        ("Swift Testing's line", "✔ Test testLogout() passed after 0.412 seconds.\n"),
    ]

    /// A finding as far as the verdict goes: the rule, where, how severe, and about whom.
    static func verdict(_ f: Finding, shift: (Int) -> Int = { $0 }) -> String {
        "\(f.rule)@\(shift(f.line)) \(f.severity) \(f.controller.instance)"
    }

    static func fixtures() -> [String] {
        // The fuzz regressions are hostile bytes, not captures (their lines are not lines of one app).
        allFixtureLogs().filter { !$0.hasPrefix("Fixtures/fuzz/") && !$0.contains("custom") }
    }

    @Test func appendingUntimedLinesChangesNoFinding() throws {
        for fixture in Self.fixtures() {
            var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            let before = Linter().lint(bytes: bytes, path: fixture).findings
            for (name, text) in Self.additions {
                let after = Linter().lint(bytes: bytes + Array(text.utf8), path: fixture).findings
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0) }, "\(fixture) with \(name) appended")
                // (An unread input's message counts its lines: one more now.)
                let worded = { (fs: FindingList) in fs.filter { $0.rule != "no_lifecycle_events" }.map(\.message) }
                #expect(worded(after) == worded(before), "\(fixture) with \(name) appended: the same messages")
            }
        }
    }

    /// Inserted at every third line (one position per fixture and addition, drawn from the fixture's
    /// length): the findings move with the lines, nothing else changes.
    @Test func insertingUntimedLinesChangesNoFinding() throws {
        for (k, fixture) in Self.fixtures().enumerated() {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if lines.last == [] { lines.removeLast() }
            guard lines.count > 2 else { continue }
            func joined(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [0x0A])) + [0x0A] }
            let before = Linter().lint(bytes: joined(lines), path: fixture).findings
            for (j, (name, addition)) in Self.additions.enumerated() {
                let at = (k * 7 + j * 3) % (lines.count - 1) + 1
                let added = addition.split(separator: "\n", omittingEmptySubsequences: true).count.clamped(min: 1)
                var changed = lines
                changed.insert(Array(addition.utf8.dropLast()), at: at)
                let after = Linter().lint(bytes: joined(changed), path: fixture).findings
                let shift = { (line: Int) in line > at ? line + added : line }
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0, shift: shift) },
                        "\(fixture) with \(name) inserted before line \(at + 1)")
            }
        }
    }

    /// Live mode reads every line's time; a batch run reads noise lines' time at sample offsets and
    /// the input's last timed lines: both judge a leak at the same severity.
    @Test func batchAndLiveAgreeWithUntimedLinesAtTheEnd() throws {
        for fixture in Self.fixtures() {
            var bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            if let last = bytes.last, last != 0x0A { bytes.append(0x0A) }
            for (name, text) in Self.additions {
                let input = bytes + Array(text.utf8)
                let live = LiveLinter(path: fixture)
                var streamed: [Finding] = []
                for chunk in input.chunked(into: 97) { streamed += chunk.withUnsafeBytes { live.consume($0) } }
                streamed += live.finish().late
                let batch = Linter().lint(bytes: input, path: fixture).findings
                // A late dealloc is a leak live (decided before the dealloc came): compare the leaks
                // by controller and the rest by verdict.
                func key(_ f: Finding) -> String {
                    f.rule == "late_dealloc" || f.rule == "leaked_controller" || f.rule == "leaked_object" ? "leak \(f.controller.instance)" : Self.verdict(f)
                }
                #expect(Set(streamed.map(key)) == Set(batch.map(key)), "\(fixture) with \(name) appended")
                let late = Set(batch.filter { $0.rule == "late_dealloc" }.map(\.controller.instance))
                let liveLeaks = streamed.filter { $0.rule == "leaked_controller" && !late.contains($0.controller.instance) }.map { Self.verdict($0) }.sorted()
                let batchLeaks = batch.filter { $0.rule == "leaked_controller" }.map { Self.verdict($0) }.sorted()
                #expect(liveLeaks == batchLeaks, "\(fixture) with \(name) appended: leaks at the same severity")
            }
        }
    }

    /// Simulated captures with a leak: the leak stays an error with untimed lines after it.
    @Test func simulatedLeaksStayErrorsWithUntimedLinesAfterThem() {
        var checked = 0
        for seed in UInt64(1)...40 {
            var o = NavigationSimulator.Options(seed: seed &* 7_919)
            o.envelope = SimulationPropertyTests.envelopes[Int(seed) % SimulationPropertyTests.envelopes.count]
            o.fault = .leak
            let out = NavigationSimulator.generate(o)
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let before = Linter().lint(text: out.text, path: "sim.log").findings.filter { $0.rule != "memory_warning" }
            for (name, text) in Self.additions {
                let after = Linter().lint(text: out.text + text, path: "sim.log").findings.filter { $0.rule != "memory_warning" }
                #expect(after.map { Self.verdict($0) } == before.map { Self.verdict($0) },
                        "swift run vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --fault leak, with \(name) appended")
            }
        }
        #expect(checked >= 10)
    }
}

private extension Int {
    func clamped(min lower: Int) -> Int { Swift.max(self, lower) }
}
