import Testing
@testable import VCLintCore

/// Property tests over simulated navigation (NavigationSimulator): every legal history, in every
/// envelope and dialect, with noise and random read boundaries, gives no finding; the same history
/// with one injected fault gives exactly that fault's finding on the right line. Histories cover
/// every legal shape of lifecycle.md §4 (push/pop both did orders, present/dismiss with completion
/// markers, recursive dismiss, page sheets, cancelled swipe-backs, tab switches, child controllers,
/// pop to root, memory warnings with view unload and reload, relaunches), with noise, read sizes and
/// buffer sizes drawn from the seed. A failure prints how to rebuild its log:
/// `swift run vclint-loggen --seed N --envelope E --dialect D [--fault F]`, and the read/buffer sizes.
@Suite struct SimulationPropertyTests {
    static let envelopes = EnvelopeFormat.apple
    static let chunkSizes = [1024, 4096, 65536, LogScanner.defaultChunkSize]

    func run(_ o: NavigationSimulator.Options, feed: Int) -> (NavigationSimulator.Output, FileResult, String) {
        let out = NavigationSimulator.generate(o)
        var lint = LintOptions()
        lint.chunkSize = Self.chunkSizes[Int(o.seed % UInt64(Self.chunkSizes.count))]
        let result = Linter(options: lint).lint(bytes: Array(out.text.utf8), path: "sim.log", feedSize: feed)
        let reproduce = "swift run vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --dialect \(o.dialect.rawValue)"
            + (o.fault.map { " --fault \($0.rawValue)" } ?? "") + " (reads of \(feed) bytes, buffer \(lint.chunkSize))"
        return (out, result, reproduce)
    }

    @Test(arguments: envelopes)
    func legalHistoriesGiveNoFinding(_ envelope: EnvelopeFormat) {
        for seed in UInt64(1)...12 {
            for dialect in NavigationSimulator.Dialect.allCases {
                var o = NavigationSimulator.Options(seed: seed &* 7919 &+ UInt64(envelope.index))
                o.envelope = envelope
                o.dialect = dialect
                let (_, r, reproduce) = run(o, feed: 1 + Int(seed * 37 % 5000))
                let findings = r.findings.filter { $0.rule != "memory_warning" }
                #expect(findings.isEmpty, "\(reproduce): \(findings.map { "\($0.rule)@\($0.line) \($0.message)" })")
            }
        }
    }

    @Test(arguments: NavigationSimulator.Fault.allCases)
    func injectedFaultGivesExactlyItsFinding(_ fault: NavigationSimulator.Fault) {
        var checked = 0
        for seed in UInt64(1)...60 {
            var o = NavigationSimulator.Options(seed: seed &* 104_729)
            o.envelope = Self.envelopes[Int(seed) % Self.envelopes.count]
            o.dialect = NavigationSimulator.Dialect.allCases[Int(seed / 2) % NavigationSimulator.Dialect.allCases.count]
            o.fault = fault
            let (out, r, reproduce) = run(o, feed: 512 + Int(seed * 131 % 4096))
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            let want = out.expected.map { "\($0.rule)@\($0.line)" }
            #expect(got == want, "\(reproduce)")
        }
        #expect(checked >= 15, "the simulator found too few places for \(fault.rawValue)")
    }
}

extension EnvelopeFormat: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
