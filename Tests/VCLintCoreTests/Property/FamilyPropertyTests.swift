import Testing
@testable import VCLintCore
import VCLintSimulation

/// Exact timelines on flows vclint had not seen. The simulator's families (`NavigationSimulator.Family`)
/// write the flows that were misread when vclint was scored on simulated captures
/// (docs/lifecycle.md#identity-and-sessions, docs/lifecycle.md#the-timeline): stalled transitions followed
/// by sheets, pops and cancellations; same-class twins, one leaked and one popped later; children whose
/// moves show no parent; lazily created tab roots switched in navigation order; captures that end right
/// after a completion; deep address-less stacks of one class with pops to root; relaunches visible only on
/// noise lines. Every family's histories are legal (no finding) in every envelope and dialect,
/// free-form styles included; each family fault gives exactly its finding on its line; and the fast
/// path reads them as the unoptimised one does. A failure prints how to rebuild its capture:
/// `swift run vclint-loggen --seed N --envelope E --dialect D --families F [--fault X]`.
@Suite struct FamilyPropertyTests {
    typealias Family = NavigationSimulator.Family
    typealias Fault = NavigationSimulator.Fault

    static let envelopes = EnvelopeFormat.apple
    static let dialects = NavigationSimulator.Dialect.allCases
    static let chunkSizes = [1024, 4096, 65536, LintOptions.defaultChunkSize]
    static let familyFaults = Fault.allCases.filter { $0.family != nil }

    static func reproduce(_ o: NavigationSimulator.Options) -> String {
        var s = "swift run vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --dialect \(o.dialect.rawValue)"
        if !o.families.isEmpty { s += " --families " + o.families.sorted().map(\.rawValue).joined(separator: ",") }
        if let f = o.fault { s += " --fault \(f.rawValue)" }
        return s
    }

    /// Lints the simulated capture in reads of `feed` bytes, with a buffer drawn from the seed.
    static func run(_ o: NavigationSimulator.Options, feed: Int) -> (NavigationSimulator.Output, FileResult, String) {
        let out = NavigationSimulator.generate(o)
        var lint = LintOptions()
        lint.chunkSize = chunkSizes[Int(o.seed % UInt64(chunkSizes.count))]
        let result = Linter(options: lint).lint(bytes: Array(out.text.utf8), path: "sim.log", feedSize: feed)
        return (out, result, reproduce(o) + " (reads of \(feed) bytes, buffer \(lint.chunkSize))")
    }

    static func described<C: Collection>(_ findings: C) -> [String] where C.Element == Finding {
        findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line) \($0.message)" }
    }

    @Test(arguments: Family.allCases)
    func legalHistoriesGiveNoFinding(_ family: Family) {
        for seed in UInt64(1)...3 {
            for (e, envelope) in Self.envelopes.enumerated() {
                for (d, dialect) in Self.dialects.enumerated() {
                    var o = NavigationSimulator.Options(seed: seed &* 7_919 &+ UInt64(e * 10 + d))
                    o.envelope = envelope
                    o.dialect = dialect
                    o.families = [family]
                    let (_, r, reproduce) = Self.run(o, feed: 1 + Int(seed * 37 % 5000) + 97 * d)
                    let findings = Self.described(r.findings)
                    #expect(findings.isEmpty, "\(reproduce): \(findings)")
                }
            }
        }
    }

    @Test(arguments: familyFaults)
    func injectedFaultGivesExactlyItsFinding(_ fault: Fault) {
        var checked = 0
        for seed in UInt64(1)...84 {
            var o = NavigationSimulator.Options(seed: seed &* 104_729)
            o.envelope = Self.envelopes[Int(seed) % Self.envelopes.count]
            o.dialect = Self.dialects[Int(seed / 2) % Self.dialects.count]
            o.fault = fault
            let (out, r, reproduce) = Self.run(o, feed: 512 + Int(seed * 131 % 4096))
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            let want = out.expected.map { "\($0.rule)@\($0.line)" }
            #expect(got == want, "\(reproduce): \(Self.described(r.findings))")
        }
        #expect(checked >= 15, "the simulator found too few places for \(fault.rawValue)")
    }

    /// The classic faults keep their exact finding in each family's histories.
    @Test(arguments: Family.allCases)
    func classicFaultsInTheFamilysHistoriesGiveExactlyTheirFinding(_ family: Family) {
        var checked = 0
        for seed in UInt64(1)...30 {
            var o = NavigationSimulator.Options(seed: seed &* 6_151)
            o.envelope = Self.envelopes[Int(seed) % Self.envelopes.count]
            o.dialect = Self.dialects[Int(seed / 3) % Self.dialects.count]
            o.families = [family]
            o.fault = Fault.classic[Int(seed) % Fault.classic.count]
            let (out, r, reproduce) = Self.run(o, feed: 700 + Int(seed * 211 % 4096))
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            #expect(got == out.expected.map { "\($0.rule)@\($0.line)" }, "\(reproduce): \(Self.described(r.findings))")
        }
        #expect(checked >= 10)
    }

    /// The candidate search, the events thread and small reads give the report of the unoptimised
    /// path (every line parsed) on every family's histories, faults included.
    @Test(arguments: Family.allCases)
    func familyHistoriesMatchTheUnoptimisedPath(_ family: Family) {
        let faults: [Fault?] = [nil] + Self.familyFaults.filter { $0.family == family } + Fault.classic
        var compared = 0
        for (e, envelope) in Self.envelopes.enumerated() {
            for (d, dialect) in Self.dialects.enumerated() {
                var o = NavigationSimulator.Options(seed: UInt64(500 + e * 31 + d))
                o.envelope = envelope
                o.dialect = dialect
                o.noise = 6
                o.families = [family]
                o.fault = faults[compared % faults.count]
                let bytes = Array(NavigationSimulator.generate(o).text.utf8)
                var fastOptions = LintOptions()
                fastOptions.chunkSize = 4096
                let slow = EquivalenceTests.json([EquivalenceTests.reference(bytes, path: "gen.log")])
                let fast = EquivalenceTests.json([Linter(options: fastOptions).lint(bytes: bytes, path: "gen.log", feedSize: 997)])
                #expect(fast == slow, "\(Self.reproduce(o)): the candidate search changed the report")
                var pipedOptions = EquivalenceTests.pipelined(batchRecords: 1 + compared % 50)
                pipedOptions.chunkSize = 4096
                let piped = EquivalenceTests.json([Linter(options: pipedOptions).lint(bytes: bytes, path: "gen.log", feedSize: 1009)])
                #expect(piped == slow, "\(Self.reproduce(o)): the events thread changed the report")
                compared += 1
            }
        }
    }

    /// Lazy tabs and twins together, in apps with objects: a tab switch in navigation order that reads as a pop
    /// leaves its top to be known again by its state, which a twin of either side would make ambiguous, so the
    /// simulator writes none (it once did: one of these 40 histories gave a false leaked_controller).
    @Test func lazyTabsWithTwinsGiveNoFinding() {
        for seed in UInt64(1)...40 {
            var o = NavigationSimulator.Options(seed: seed)
            o.envelope = Self.envelopes[Int(seed) % Self.envelopes.count]
            o.dialect = Self.dialects[Int(seed) % Self.dialects.count]
            o.families = [.lazyTabs, .twins]
            o.objects = true
            o.steps = 80
            o.sessions = 6
            let (_, r, reproduce) = Self.run(o, feed: 4096)
            let findings = Self.described(r.findings)
            #expect(findings.isEmpty, "\(reproduce) --objects --steps 80 --sessions 6: \(findings)")
        }
    }

    /// The families leave the classic histories alone: without them the simulator writes what it
    /// wrote before they existed, byte for byte (Benchmarks/run.sh keeps its captures as `-v2`), and
    /// each family changes them.
    @Test func familiesAreOptIn() {
        func fnv(_ s: String) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            return h
        }
        var o = NavigationSimulator.Options(seed: 42)
        o.fault = .leak
        #expect(fnv(NavigationSimulator.generate(o).text) == 7_532_547_283_068_442_342, "seed 42, nslog-tz, objc, leak")
        o = NavigationSimulator.Options(seed: 7)
        o.envelope = .ndjson
        o.dialect = .freeForm
        #expect(fnv(NavigationSimulator.generate(o).text) == 161_533_891_323_962_612, "seed 7, ndjson, free-form")
        for family in Family.allCases {
            o.families = [family]
            #expect(fnv(NavigationSimulator.generate(o).text) != fnv(NavigationSimulator.generate(NavigationSimulator.Options(seed: 7)).text))
        }
    }
}

extension NavigationSimulator.Family: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

extension NavigationSimulator.Fault: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
