import Testing
@testable import VCLintCore
import VCLintSimulation

/// Property tests over simulated Android logcat (AndroidSimulator): legal traffic in every logcat format (launches,
/// A→B→back, rotations, back stacks, ViewPager pages, multi-window pauses, process deaths, LeakCanary's watches,
/// counts that resolve and analyses of unreachable objects) gives no finding; one injected fault gives exactly its
/// finding on its line; following a capture in small reads ends as its batch run. A failure prints how to rebuild
/// the capture: `swift run vclint-loggen --platform android --seed N --envelope F [--leakcanary] [--fault X]`.
/// Seeds 1–50 over every scenario are `Benchmarks/accuracy.sh --platform android`'s.
@Suite struct AndroidSimulationTests {
    static let formats = AndroidSimulator.Format.allCases
    /// The faults of the rules the engine applies to Android today; LeakCanary's and StrictMode's are checked
    /// by their shape (`leakFaultsAreWhereLeakCanaryPutsThem`) until the engine reads that evidence.
    static let orderFaults: [AndroidSimulator.Fault] = [
        .missingOnPause, .missingOnStop, .unbalancedAppearance, .callbackAfterDestroy, .fragmentViewCallback, .fragmentViewException,
    ]
    static let chunkSizes = [1024, 4096, 65536, LintOptions.defaultChunkSize]

    static func reproduce(_ o: AndroidSimulator.Options) -> String {
        "swift run vclint-loggen --platform android --seed \(o.seed) --envelope \(o.format.rawValue)"
            + (o.leakCanary ? " --leakcanary" : "") + (o.fault.map { " --fault \($0.rawValue)" } ?? "")
    }

    /// The capture linted in reads and with a buffer drawn from the seed; its warnings and errors as `rule@line`.
    static func lint(_ o: AndroidSimulator.Options) -> (out: AndroidSimulator.Output, found: [String], result: FileResult) {
        let out = AndroidSimulator.generate(o)
        var options = LintOptions()
        options.chunkSize = chunkSizes[Int(o.seed % UInt64(chunkSizes.count))]
        let result = Linter(options: options).lint(bytes: Array(out.text.utf8), path: "sim.log", feedSize: 1 + Int(o.seed &* 977 % 5000))
        return (out, result.findings.filter { $0.severity >= .warning }.map { "\($0.rule)@\($0.line)" }, result)
    }

    @Test(arguments: formats)
    func legalTrafficGivesNoFinding(_ format: AndroidSimulator.Format) {
        for seed in UInt64(1)...4 {
            var o = AndroidSimulator.Options(seed: seed &* 7_919 &+ UInt64(Self.formats.firstIndex(of: format)!))
            o.format = format
            o.leakCanary = seed % 2 == 0
            let (out, found, result) = Self.lint(o)
            #expect(found.isEmpty, "\(Self.reproduce(o)): \(found)")
            #expect(out.expected.isEmpty)
            #expect(result.stats.events > 50, "\(Self.reproduce(o)): \(result.stats.events) events read")
        }
    }

    /// One capture reads as the same events whatever its format: the format is only the envelope (`tag`, without
    /// pids, leaves out the other app's lines; `thread` and `process` show no tag, and the evidence that only a tag
    /// names, LeakCanary's counts and the system's `Displayed` lines, is read where the tag shows).
    @Test func everyFormatReadsTheSameEvents() {
        var o = AndroidSimulator.Options(seed: 11)
        o.leakCanary = true
        var counts: [String: Int] = [:]
        for format in Self.formats where format.hasPID && format != .thread && format != .process {
            o.format = format
            counts[format.rawValue] = Self.lint(o).result.stats.events
        }
        #expect(Set(counts.values).count == 1, "\(counts)")
    }

    @Test(arguments: orderFaults)
    func aFaultGivesExactlyItsFinding(_ fault: AndroidSimulator.Fault) {
        for seed in UInt64(1)...3 {
            for format in [Self.formats[Int(seed) % Self.formats.count], Self.formats[(Int(seed) + 4) % Self.formats.count]] {
                var o = AndroidSimulator.Options(seed: seed &* 104_729)
                o.format = format
                o.fault = fault
                o.leakCanary = seed == 2
                let (out, found, _) = Self.lint(o)
                #expect(out.expected.count == 1 && out.expected[0].rule == fault.rule)
                #expect(found == out.expected.map { "\($0.rule)@\($0.line)" }, "\(Self.reproduce(o))")
            }
        }
    }

    /// Following a capture in small reads ends with its batch run's findings (LiveEqualsBatchTests' promise).
    @Test(arguments: [AndroidSimulator.Format.threadtime, .long, .studio, .tag])
    func followingEndsAsTheBatchRun(_ format: AndroidSimulator.Format) {
        for (k, fault) in ([nil] + Self.orderFaults.map(Optional.some)).enumerated() where k % 2 == Self.formats.firstIndex(of: format)! % 2 {
            var o = AndroidSimulator.Options(seed: UInt64(31 + k))
            o.format = format
            o.fault = fault
            o.leakCanary = k % 3 == 0
            let out = AndroidSimulator.generate(o)
            let chunk = 1 + (k * 997) % 3000
            let found = LiveEqualsBatchTests.problems(Array(out.text.utf8), path: "sim.log", chunk: chunk)
            #expect(found.isEmpty, "\(Self.reproduce(o)) (reads of \(chunk) bytes): \(found)")
        }
    }

    /// LeakCanary's messages of a threadtime capture, read as LeakCanary's evidence (the reader the engine will call).
    static func leakCanaryEvidence(_ out: AndroidSimulator.Output) -> [LeakCanaryReader.Evidence] {
        var reader = LeakCanaryReader()
        var evidence: [LeakCanaryReader.Evidence] = []
        for (k, line) in out.lines.enumerated() {
            guard let tag = line.range(of: " LeakCanary: ") else { continue }
            evidence += reader.read(line[tag.upperBound...], line: k + 1)
        }
        return evidence + reader.finish()
    }

    /// The leak faults' truth is where docs/lifecycle.md#leakcanary puts the finding, in LeakCanary's own shape: a trace's `╰→`
    /// node in the right section with the right end of use, the session's last retained count with nothing after
    /// it, the StrictMode line itself.
    @Test(arguments: AndroidSimulator.Fault.allCases.filter { !orderFaults.contains($0) })
    func leakFaultsAreWhereLeakCanaryPutsThem(_ fault: AndroidSimulator.Fault) throws {
        for seed in UInt64(1)...3 {
            var o = AndroidSimulator.Options(seed: seed &* 7_727)
            o.fault = fault
            o.launches = 1  // the truth is about the first launch's session
            let out = AndroidSimulator.generate(o)
            try #require(out.expected.count == 1, "\(Self.reproduce(o))")
            let line = out.expected[0].line
            #expect(out.expected[0].rule == fault.rule)
            let evidence = Self.leakCanaryEvidence(out)
            let traces = evidence.flatMap { e -> [LeakCanaryReader.Trace] in
                if case .analysis(let a) = e { return a.traces.filter { $0.section != .unreachable } }
                return []
            }
            switch fault {
            case .retainedUnconfirmed:
                #expect(traces.isEmpty)
                let after = evidence.filter { e in
                    switch e {
                    case .retainedCount(_, let l), .allCollected(let l), .dumpingHeap(let l): return l >= line
                    case .analysis(let a): return a.line > line
                    default: return false
                    }
                }
                #expect(after.count == 1, "\(Self.reproduce(o)): \(after)")
                if case .retainedCount(let n, let l) = after.first { #expect(l == line && n > 0) } else { Issue.record("no count at \(line)") }
            case .lifetimeLimit:
                #expect(traces.isEmpty)
                #expect(out.lines[line - 1].hasSuffix(" E StrictMode: class com.example.app.DetailActivity; instances=3; limit=1"), "\(out.lines[line - 1])")
            default:
                try #require(traces.count == 1, "\(Self.reproduce(o)): \(traces.count) traces")
                let t = traces[0]
                #expect(t.line == line, "\(Self.reproduce(o))")
                #expect(t.section == (fault == .libraryLeak ? .library : .application))
                let end: [AndroidSimulator.Fault: LeakCanaryReader.EndOfUse] = [
                    .leakedActivity: .activityDestroyed, .libraryLeak: .activityDestroyed, .leakedFragment: .fragmentDestroyed,
                    .leakedFragmentView: .fragmentViewDestroyed, .leakedObject: .viewModelCleared,
                ]
                #expect(t.endOfUse == end[fault])
                #expect(t.leaking.leaking == .yes)
                #expect(t.signature?.isEmpty == false && t.key != nil && t.chain.contains("["))
            }
        }
    }

    /// Fault-free LeakCanary traffic proves no leak: its heap analyses find the watched objects unreachable (some
    /// seed prints one), and every retained count is resolved before the session ends, by the all-collected line
    /// or by a heap dump and its analysis (which holds no trace).
    @Test func legalLeakCanaryTrafficProvesNoLeak() {
        var unreachable = 0
        for seed in UInt64(1)...8 {
            var o = AndroidSimulator.Options(seed: seed &* 3_571)
            o.leakCanary = true
            o.launches = 1
            let out = AndroidSimulator.generate(o)
            unreachable += out.lines.filter { $0.hasSuffix(" UNREACHABLE OBJECTS") && !$0.hasSuffix(": 0 UNREACHABLE OBJECTS") }.count
            var open = false
            for e in Self.leakCanaryEvidence(out) {
                switch e {
                case .retainedCount(let n, _): open = n > 0
                case .allCollected, .dumpingHeap: open = false
                case .analysis(let a):
                    // An analysis resolves the counts; it must find nothing retained.
                    if !a.traces.isEmpty { Issue.record("\(Self.reproduce(o)): an analysis with traces at line \(a.line)") }
                    open = false
                default: break
                }
            }
            #expect(!open, "\(Self.reproduce(o)): a retained count left open")
        }
        #expect(unreachable > 0, "no seed printed an analysis of unreachable objects")
    }

    @Test func theSameSeedGivesTheSameBytes() {
        var o = AndroidSimulator.Options(seed: 5)
        o.leakCanary = true
        o.fault = .leakedFragment
        #expect(AndroidSimulator.generate(o).text == AndroidSimulator.generate(o).text)
        o.seed = 6
        #expect(AndroidSimulator.generate(o).text != { var p = o; p.seed = 5; return AndroidSimulator.generate(p).text }())
    }
}

extension AndroidSimulator.Format: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

extension AndroidSimulator.Fault: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
