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
}
