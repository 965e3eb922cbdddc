import Testing
@testable import VCLintCore

/// Property tests over simulated navigation (NavigationSimulator): every legal history, in every
/// envelope and dialect, with noise and random read boundaries, gives no finding; the same history
/// with one injected fault gives exactly that fault's finding on the right line. A failure names
/// its seed: `swift run vclint-loggen --seed N --envelope E --dialect D [--fault F]` rebuilds the log.
@Suite struct SimulationPropertyTests {
    static let envelopes = EnvelopeFormat.allCases

    func run(_ o: NavigationSimulator.Options, feed: Int) -> (NavigationSimulator.Output, FileResult) {
        let out = NavigationSimulator.generate(o)
        var lint = LintOptions()
        lint.chunkSize = 4096
        let result = Linter(options: lint).lint(bytes: Array(out.text.utf8), path: "sim.log", feedSize: feed)
        return (out, result)
    }

    @Test(arguments: envelopes)
    func legalHistoriesGiveNoFinding(_ envelope: EnvelopeFormat) {
        for seed in UInt64(1)...12 {
            for dialect in NavigationSimulator.Dialect.allCases {
                var o = NavigationSimulator.Options(seed: seed &* 7919 &+ UInt64(envelope.index))
                o.envelope = envelope
                o.dialect = dialect
                let (_, r) = run(o, feed: 1 + Int(seed * 37 % 5000))
                let findings = r.findings.filter { $0.rule != "memory_warning" }
                #expect(findings.isEmpty, "seed \(o.seed) \(envelope.rawValue) \(dialect.rawValue): \(findings.map { "\($0.rule)@\($0.line) \($0.message)" })")
            }
        }
    }

    @Test(arguments: NavigationSimulator.Fault.allCases)
    func injectedFaultGivesExactlyItsFinding(_ fault: NavigationSimulator.Fault) {
        var checked = 0
        for seed in UInt64(1)...40 {
            var o = NavigationSimulator.Options(seed: seed &* 104_729)
            o.envelope = Self.envelopes[Int(seed) % Self.envelopes.count]
            o.dialect = NavigationSimulator.Dialect.allCases[Int(seed / 2) % NavigationSimulator.Dialect.allCases.count]
            o.fault = fault
            let (out, r) = run(o, feed: 512 + Int(seed * 131 % 4096))
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            let want = out.expected.map { "\($0.rule)@\($0.line)" }
            #expect(got == want, "seed \(o.seed) \(o.envelope.rawValue) \(o.dialect.rawValue) \(fault.rawValue)")
        }
        #expect(checked >= 15, "the simulator found too few places for \(fault.rawValue)")
    }
}

extension EnvelopeFormat: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
