import Testing
@testable import VCLintCore
import VCLintSimulation

/// Property tests over simulated navigation (NavigationSimulator): every legal history, in every envelope
/// and dialect, with noise and random read boundaries, gives no finding; the same history with one injected
/// fault gives exactly that fault's finding on the right line. Histories cover every legal shape of
/// docs/lifecycle.md#legal-flows (push/pop both did orders, present/dismiss with completion markers,
/// recursive dismiss, page sheets, cancelled swipe-backs, tab switches, child controllers, pop to root,
/// memory warnings with view unload and reload, relaunches), with noise, read sizes and buffer sizes drawn
/// from the seed. A failure prints how to rebuild its log:
/// `swift run vclint-loggen --seed N --envelope E --dialect D [--fault F]`, and the read/buffer sizes.
@Suite struct SimulationPropertyTests {
    static let envelopes = EnvelopeFormat.apple
    static let chunkSizes = [1024, 4096, 65536, LintOptions.defaultChunkSize]

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

    @Test(arguments: NavigationSimulator.Fault.classic)
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

    /// A missing did-callback is a finding only for a class that logs that callback somewhere else
    /// (docs/lifecycle.md#instrumentation): the simulator puts the fault on such a class, or nowhere. These
    /// histories once put it on the only DetailViewController or ModalViewController of their capture.
    @Test(arguments: [(UInt64(28045), EnvelopeFormat.syslog, NavigationSimulator.Dialect.freeForm, NavigationSimulator.Fault.missingDidDisappear),
                      (28045, .syslog, .freeForm, .missingDidAppear),
                      (40062, .bare, .described, .missingDidAppearAtEnd)])
    func aMissingCallbackFaultLandsOnAClassThatLogsTheCallback(_ seed: UInt64, _ envelope: EnvelopeFormat,
                                                              _ dialect: NavigationSimulator.Dialect, _ fault: NavigationSimulator.Fault) {
        var o = NavigationSimulator.Options(seed: seed)
        o.envelope = envelope
        o.dialect = dialect
        o.fault = fault
        let (out, r, reproduce) = run(o, feed: 4096)
        let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
        #expect(got == out.expected.map { "\($0.rule)@\($0.line)" }, "\(reproduce)")
    }
}

/// The same histories printed in the app's own words (docs/lifecycle.md#free-form-lifecycle-statements): a
/// random free-form style per seed (label form and position, separator, decoration, spelling, arguments),
/// in every envelope.
@Suite struct FreeFormPropertyTests {
    let base = SimulationPropertyTests()

    @Test(arguments: SimulationPropertyTests.envelopes)
    func legalHistoriesInAnyStyleGiveNoFindingAndTheBuiltInEvents(_ envelope: EnvelopeFormat) {
        for seed in UInt64(1)...16 {
            var o = NavigationSimulator.Options(seed: seed &* 6151 &+ UInt64(envelope.index))
            o.envelope = envelope
            o.dialect = .freeForm
            var styleRNG = SplitMix64(seed: o.seed ^ 0x5EED_F00D)
            let style = FreeFormStyle.random(&styleRNG)
            let (_, r, reproduce) = base.run(o, feed: 1 + Int(seed * 53 % 5000))
            var objc = o
            objc.dialect = .objc
            let (_, reference, _) = base.run(objc, feed: 4096)
            #expect(r.stats.events == reference.stats.events, "\(reproduce) [\(style)]: \(r.stats.events) events, \(reference.stats.events) in ObjC")
            #expect(r.stats.unrecognized == reference.stats.unrecognized, "\(reproduce) [\(style)]")
            let findings = r.findings.filter { $0.rule != "memory_warning" }
            #expect(findings.isEmpty, "\(reproduce) [\(style)]: \(findings.map { "\($0.rule)@\($0.line) \($0.message)" })")
        }
    }

    @Test(arguments: NavigationSimulator.Fault.classic)
    func injectedFaultInAnyStyleGivesExactlyItsFinding(_ fault: NavigationSimulator.Fault) {
        var checked = 0
        for seed in UInt64(1)...40 {
            var o = NavigationSimulator.Options(seed: seed &* 7_727)
            o.envelope = SimulationPropertyTests.envelopes[Int(seed) % SimulationPropertyTests.envelopes.count]
            o.dialect = .freeForm
            o.fault = fault
            let (out, r, reproduce) = base.run(o, feed: 512 + Int(seed * 131 % 4096))
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            #expect(got == out.expected.map { "\($0.rule)@\($0.line)" }, "\(reproduce)")
        }
        #expect(checked >= 10, "the simulator found too few places for \(fault.rawValue)")
    }

    /// Every style the simulator draws is read line by line as the callback and class it printed.
    @Test func everyStyledLineReadsAsItsEvent() {
        var rng = SplitMix64(seed: 77)
        let parser = MessageParser()
        for _ in 0..<400 {
            let style = FreeFormStyle.random(&rng)
            for (callback, kind) in [(style.callback("viewWillAppear", selector: "viewWillAppear:", swift: "viewWillAppear(_:)"), EventKind.viewWillAppear),
                                     (style.callback("viewDidLoad", selector: "viewDidLoad", swift: "viewDidLoad()"), .viewDidLoad),
                                     (style.callback("dealloc", selector: "dealloc", swift: "deinit"), .dealloc)] {
                let line = style.statement("DetailViewController", callback: callback, argument: kind == .viewWillAppear ? style.argument : "", parent: nil)
                let e = parser.parse(line)
                #expect(e?.kind == kind && e?.className == "DetailViewController", "\(line) [\(style)]")
            }
        }
    }
}

extension EnvelopeFormat: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// Fault-free captures as `vclint-loggen --size` writes them: runs of the simulator one after another
/// (seed, seed+1, …, each a relaunch with a later clock and a new pid, the app logging `init` and
/// `dealloc` as its first run drew), about 200 KB each, over many seeds, in the default envelope and
/// dialect and in the others: no error and no warning (infos such as memory_warning are fine). A false
/// finding on fault-free captures once showed only in 256 MiB captures (Fixtures/flows/pop-below-the-twin.log);
/// `Benchmarks/fault-free.sh` checks the large sizes. A failure prints how to rebuild its capture.
@Suite struct FaultFreeCapturePropertyTests {
    static let size = 200_000

    /// The bytes `vclint-loggen --seed SEED --envelope E --dialect D --size SIZE` writes.
    static func capture(_ first: NavigationSimulator.Options, size: Int) -> String {
        var o = first
        var text = ""
        repeat {
            let out = NavigationSimulator.generate(o)
            text += out.text
            o.seed &+= 1
            o.startTime = out.endTime + 60
            o.firstPID = out.nextPID
            o.logsInit = out.logsInit
            o.logsDealloc = out.logsDealloc
        } while text.utf8.count < size
        return text
    }

    @Test func faultFreeCapturesAreClean() {
        // 16 seeds keep the suite's time (a sanitizer run is several times slower); the benchmark
        // runs 50 seeds at 16 MiB and 10 at 1 GiB.
        for k in UInt64(0)..<16 {
            var o = NavigationSimulator.Options(seed: 1 + k &* 211)
            // Half of them as the benchmarks make them; the others in every envelope and dialect.
            if k % 2 == 1 {
                o.envelope = SimulationPropertyTests.envelopes[Int(k / 2) % SimulationPropertyTests.envelopes.count]
                o.dialect = NavigationSimulator.Dialect.allCases.filter { $0 != .freeForm }[Int(k / 2) % 5]
            }
            let text = Self.capture(o, size: Self.size)
            let r = Linter(options: LintOptions()).lint(bytes: Array(text.utf8), path: "capture.log", feedSize: 65536)
            let bad = r.findings.filter { $0.severity == .error || $0.severity == .warning }
            #expect(bad.isEmpty, """
                vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --dialect \(o.dialect.rawValue) --size \(Self.size): \
                \(bad.prefix(3).map { "\($0.rule)@\($0.line) \($0.message)" })
                """)
        }
    }
}
