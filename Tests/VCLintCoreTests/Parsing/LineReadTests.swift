import Testing
@testable import VCLintCore
import VCLintSimulation

/// `LineParser.read` passes over (false) exactly the lines that say nothing but whether they mention a callback, leaves
/// the caller's line as it was for them, and says what `parse` would have given; every other line is read into the
/// caller's line as `parse` gives it. The stage skips the lines passed over (`EventStage.skip`).
@Suite struct LineReadTests {
    static func describe(_ l: ParsedLine) -> String {
        LogcatFastPathTests.describe(l) + " \(l.decoded?.count ?? -1) \(l.runner.map { "\($0)" } ?? "-") \(l.title) \(l.value ?? "-")"
    }

    /// A line no parser gives: it must come back untouched from a line passed over.
    static var untouched: ParsedLine {
        var l = ParsedLine(kind: .runner, event: Event(kind: .viewDidLoad, className: "Untouched", dialect: .custom), process: "p", pid: 7)
        l.frame = 1..<2
        return l
    }

    /// One parser reads every line, another parses it; `afterEnvelope` as the scanner would say.
    static func compare(_ lines: [[UInt8]], logcat: Bool, counts: inout (read: Int, none: Int, unread: Int)) {
        let reader = LineParser(customDialects: []), parser = LineParser(customDialects: [])
        var afterEnvelope = false
        for line in lines {
            line.withUnsafeBufferPointer { b in
                guard let p = b.baseAddress else { return }
                let format = logcat ? .logcat : EnvelopeParser.classify(p, b.count)
                let given = parser.parse(p, b.count, format: format, afterEnvelope: afterEnvelope)
                var out = untouched
                let text = String(decoding: b, as: UTF8.self)
                if reader.read(p, b.count, format: format, afterEnvelope: afterEnvelope, into: &out) {
                    counts.read += 1
                    #expect(describe(out) == describe(given), "\(text)")
                    #expect(!(given.kind == .none && given.frame == nil) && given.kind != .unread, "\(text)")
                } else {
                    #expect(describe(out) == describe(untouched), "\(text): a line passed over changed the caller's line")
                    #expect(given.kind == .unread || given.kind == .none && given.frame == nil, "\(text): \(given.kind) passed over")
                    #expect(reader.skippedUnread == (given.kind == .unread), "\(text)")
                    #expect(describe(reader.skippedLine) == describe(given), "\(text)")
                    if given.kind == .unread { counts.unread += 1 } else { counts.none += 1 }
                }
                if let format, format != .bare { afterEnvelope = true }
            }
        }
    }

    @Test func aLinePassedOverSaysWhatParseSays() {
        var counts = (read: 0, none: 0, unread: 0)
        for (k, envelope) in EnvelopeFormat.apple.enumerated() {
            for (d, dialect) in NavigationSimulator.Dialect.allCases.enumerated() {
                var o = NavigationSimulator.Options(seed: UInt64(500 + k * 17 + d))
                o.envelope = envelope
                o.dialect = dialect
                o.noise = 4
                o.fault = NavigationSimulator.Fault.classic[(k + d) % NavigationSimulator.Fault.classic.count]
                let lines = NavigationSimulator.generate(o).text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
                Self.compare(lines, logcat: false, counts: &counts)
            }
        }
        for (k, format) in AndroidSimulator.Format.allCases.enumerated() {
            var o = AndroidSimulator.Options(seed: UInt64(700 + k))
            o.format = format
            o.leakCanary = k % 2 == 1
            o.mentionRate = 0.3
            o.fault = AndroidSimulator.Fault.allCases[k % AndroidSimulator.Fault.allCases.count]
            Self.compare(AndroidSimulator.generate(o).lines.map { Array($0.utf8) }, logcat: true, counts: &counts)
        }
        // Every branch was taken, many times.
        #expect(counts.read > 2_000 && counts.none > 2_000 && counts.unread > 200, "\(counts)")
    }

    /// Every field of a line, by name (a field added later is compared too).
    static func fields(_ l: ParsedLine) -> [String] {
        Mirror(reflecting: l).children.map { "\($0.label ?? "?")=\(String(reflecting: $0.value))" }
    }

    /// `becomeEvent` reads an event into a line in place, sparing the fields that are already right: whatever the line
    /// held before (every field set), it ends as the line made anew would be.
    @Test func anEventReadInPlaceLeavesNothingOfTheLineBefore() {
        var full = ParsedLine(kind: .runner, event: Event(kind: .viewDidLoad, className: "Old", dialect: .custom), process: "p", pid: 7,
                              message: 3..<9, decoded: [1, 2], phase: .exit, value: "v", shape: 12, template: "t", title: 5, redacted: true,
                              observed: [3], runner: TestRunnerLine(kind: .testStarted, runner: .xctest, name: "n"),
                              evidence: .strictMode(className: "C", instances: 2, limit: 1), frame: 1..<2)
        full.event.text = "text"
        let e = Event(kind: .viewWillAppear, className: "New", address: 0x10, dialect: .uikit, line: 4)
        for before in [full, ParsedLine.none] {
            var line = before
            line.becomeEvent(.enveloped, e, process: "App", pid: 42, message: 1..<5, decoded: [9])
            #expect(Self.fields(line) == Self.fields(.enveloped(e, process: "App", pid: 42, message: 1..<5, decoded: [9])))
            line = before
            line.becomeEvent(.enveloped, e, process: nil, pid: 42, message: 1..<5)
            #expect(Self.fields(line) == Self.fields(.enveloped(e, process: nil, pid: 42, message: 1..<5, decoded: nil)))
            line = before
            line.becomeEvent(.bare, e)
            #expect(Self.fields(line) == Self.fields(.bare(e)))
            line = before
            line.becomeFrame(3..<8)
            var frame = ParsedLine(kind: .none, event: Event(kind: .dealloc, className: "", dialect: .uikit))
            frame.frame = 3..<8
            #expect(Self.fields(line) == Self.fields(frame))
            line = before
            let time = LogTime(seconds: 12.5, year: 2024, month: 3, day: 1, hour: 9, minute: 0, second: 12, fraction: 5, fractionDigits: 1, offsetMinutes: nil)
            line.becomeEvidence(.leakCanary("x"), process: "App", pid: 3, time: time)
            var evidence = ParsedLine(kind: .evidence, event: Event(kind: .dealloc, className: "", dialect: .logcat), process: "App", pid: 3)
            evidence.event.time = time
            evidence.evidence = .leakCanary("x")
            #expect(Self.fields(line) == Self.fields(evidence))
        }
        #expect(Self.fields(full) != Self.fields(.bare(e)))
    }
}
