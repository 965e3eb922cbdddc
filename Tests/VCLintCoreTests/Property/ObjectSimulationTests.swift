import Testing
@testable import VCLintCore
import VCLintSimulation

/// Apps whose screens own objects (`NavigationSimulator.Options.objects`, docs/development.md#objects-in-simulated-apps): view
/// models made during their screen's setup, VIPER modules and coordinators made in a burst right before
/// their screen, helpers named after no screen, app-lifetime services, classes that log only `init`. The
/// objects must not disturb the controllers' rules: fault-free apps with objects give no warning or error,
/// and each controller fault still gives exactly its finding. The objects' own faults point where the
/// rules of docs/rules.md say. A failure prints how to rebuild its capture:
/// `swift run vclint-loggen --seed N --envelope E --dialect D --objects [--fault X]`.
@Suite struct ObjectSimulationTests {
    typealias Fault = NavigationSimulator.Fault
    typealias Family = NavigationSimulator.Family

    static let envelopes = EnvelopeFormat.apple
    static let dialects = NavigationSimulator.Dialect.allCases
    /// Whether vclint judges objects yet: then the objects' faults must give their findings.
    static let judgesObjects = RuleRegistry.description(of: "leaked_object") != nil

    static func options(seed: UInt64, _ envelope: EnvelopeFormat, _ dialect: NavigationSimulator.Dialect) -> NavigationSimulator.Options {
        var o = NavigationSimulator.Options(seed: seed)
        o.envelope = envelope
        o.dialect = dialect
        o.objects = true
        return o
    }

    static func reproduce(_ o: NavigationSimulator.Options) -> String {
        var s = "swift run vclint-loggen --seed \(o.seed) --envelope \(o.envelope.rawValue) --dialect \(o.dialect.rawValue) --objects"
        if !o.families.isEmpty { s += " --families " + o.families.sorted().map(\.rawValue).joined(separator: ",") }
        if let f = o.fault { s += " --fault \(f.rawValue)" }
        return s
    }

    static func lint(_ out: NavigationSimulator.Output, feed: Int) -> FileResult {
        Linter(options: LintOptions()).lint(bytes: Array(out.text.utf8), path: "sim.log", feedSize: feed)
    }

    static func described<C: Collection>(_ findings: C) -> [String] where C.Element == Finding {
        findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line) \($0.message)" }
    }

    /// The event a bare line holds.
    static func event(_ line: String) -> Event? { MessageParser().parse(line) }

    static func isController(_ className: String) -> Bool { className.hasSuffix("ViewController") }

    /// The same seed gives the same capture; objects add lines to it, and off they change nothing
    /// (`FamilyPropertyTests.familiesAreOptIn` holds the bytes without them).
    @Test func objectsAreDeterministicPerSeed() {
        for (k, dialect) in Self.dialects.enumerated() {
            var o = Self.options(seed: 31 + UInt64(k), Self.envelopes[k % Self.envelopes.count], dialect)
            let a = NavigationSimulator.generate(o), b = NavigationSimulator.generate(o)
            #expect(a.text == b.text, "\(Self.reproduce(o))")
            #expect(a.text.contains("ViewModel"), "\(Self.reproduce(o))")
            o.objects = false
            #expect(NavigationSimulator.generate(o).text != a.text)
            o.fault = .leakedObject
            #expect(NavigationSimulator.generate(o).text == NavigationSimulator.generate(o).text)
        }
    }

    @Test func faultFreeAppsWithObjectsGiveNoFinding() {
        // Every envelope and dialect, some with a family; a few `--size` captures (runs one after another).
        var k = 0
        for (e, envelope) in Self.envelopes.enumerated() {
            for (d, dialect) in Self.dialects.enumerated() {
                var o = Self.options(seed: 7_001 &* UInt64(1 + k) &+ UInt64(e * 10 + d), envelope, dialect)
                if k % 3 == 0 { o.families = [Family.allCases[(k / 3) % Family.allCases.count]] }
                k += 1
                let r = Self.lint(NavigationSimulator.generate(o), feed: 1 + k * 97 % 5000)
                let bad = r.findings.filter { $0.severity >= .warning }
                #expect(bad.isEmpty, "\(Self.reproduce(o)): \(Self.described(bad))")
            }
        }
        for seed in UInt64(1)...2 {
            let o = Self.options(seed: seed &* 4_241, Self.envelopes[Int(seed) % Self.envelopes.count], Self.dialects[Int(seed) % 5])
            let text = FaultFreeCapturePropertyTests.capture(o, size: 100_000)
            let r = Linter(options: LintOptions()).lint(bytes: Array(text.utf8), path: "capture.log", feedSize: 65536)
            let bad = r.findings.filter { $0.severity >= .warning }
            #expect(bad.isEmpty, "\(Self.reproduce(o)) --size 100000: \(Self.described(bad.prefix(3)))")
        }
    }

    /// The controllers' faults keep their exact finding when the screens own objects.
    @Test(arguments: Fault.allCases.filter { !$0.needsObjects })
    func controllerFaultsWithObjectsGiveExactlyTheirFinding(_ fault: Fault) {
        var checked = 0
        for seed in UInt64(1)...10 {
            var o = Self.options(seed: seed &* 104_729, Self.envelopes[Int(seed) % Self.envelopes.count], Self.dialects[Int(seed / 2) % Self.dialects.count])
            o.fault = fault
            let out = NavigationSimulator.generate(o)
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let r = Self.lint(out, feed: 512 + Int(seed * 131 % 4096))
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            #expect(got == out.expected.map { "\($0.rule)@\($0.line)" }, "\(Self.reproduce(o)): \(Self.described(r.findings))")
        }
        #expect(checked >= 1, "the simulator found no place for \(fault.rawValue)")
    }

    /// The candidate search and the events thread read the objects' lines as the unoptimised path does.
    @Test func appsWithObjectsMatchTheUnoptimisedPath() {
        for (d, dialect) in Self.dialects.enumerated() {
            for envelope in [Self.envelopes[(d * 3 + 1) % Self.envelopes.count]] {
                var o = Self.options(seed: UInt64(900 + d), envelope, dialect)
                o.noise = 6
                o.fault = d % 2 == 0 ? .leakedObject : .lateObjectRelease
                let bytes = Array(NavigationSimulator.generate(o).text.utf8)
                var fastOptions = LintOptions()
                fastOptions.chunkSize = 4096
                let slow = EquivalenceTests.json([EquivalenceTests.reference(bytes, path: "gen.log")])
                let fast = EquivalenceTests.json([Linter(options: fastOptions).lint(bytes: bytes, path: "gen.log", feedSize: 997)])
                #expect(fast == slow, "\(Self.reproduce(o)): the candidate search changed the report")
                var pipedOptions = EquivalenceTests.pipelined(batchRecords: 1 + d * 7)
                pipedOptions.chunkSize = 4096
                let piped = EquivalenceTests.json([Linter(options: pipedOptions).lint(bytes: bytes, path: "gen.log", feedSize: 1009)])
                #expect(piped == slow, "\(Self.reproduce(o)): the events thread changed the report")
            }
        }
    }

    /// `leaked-object` deletes one object's `deinit` from the fault-free history (the same history: faults
    /// draw after it), and the truth is `leaked_object` on its owner's dealloc, a controller of the
    /// object's stem when it has one.
    @Test func leakedObjectTruthIsItsOwnersDealloc() {
        var checked = 0
        for seed in UInt64(1)...24 {
            var o = Self.options(seed: seed &* 7_919, .bare, Self.dialects[Int(seed) % Self.dialects.count])
            o.fault = .leakedObject
            let out = NavigationSimulator.generate(o)
            guard let truth = out.expected.first else { continue }
            checked += 1
            o.fault = nil
            let clean = NavigationSimulator.generate(o).lines
            #expect(out.expected.count == 1 && truth.rule == "leaked_object" && clean.count == out.lines.count + 1, "\(Self.reproduce(o))")
            let gone = out.lines.indices.first { clean[$0] != out.lines[$0] } ?? out.lines.count
            guard let deleted = Self.event(clean[gone]),
                  let owner = Self.event(out.lines[truth.line - 1]) else {
                Issue.record("\(Self.reproduce(o)): no deleted line or no event on line \(truth.line)")
                continue
            }
            #expect(deleted.kind == .dealloc && !Self.isController(deleted.className), "\(Self.reproduce(o)): deleted \(clean[gone])")
            #expect(owner.kind == .dealloc && Self.isController(owner.className), "\(Self.reproduce(o)): \(out.lines[truth.line - 1])")
            #expect(Array(clean[..<gone]) + clean[(gone + 1)...] == out.lines, "\(Self.reproduce(o)): more than the deinit changed")
            // The deinit came with its owner's dealloc (before or after it, within a few lines).
            #expect(abs(gone - (truth.line - 1)) < 40, "\(Self.reproduce(o))")
            let objectStem = ["ViewModel", "Presenter", "Interactor", "Router", "Coordinator"].first { deleted.className.hasSuffix($0) }
                .map { String(deleted.className.dropLast($0.count)) }
            if let objectStem {
                #expect(NavigationSimulator.stem(owner.className).hasSuffix(objectStem), "\(Self.reproduce(o)): \(deleted.className) owned by \(owner.className)")
            }
            // Its class logs deinit elsewhere in the capture.
            let cls = deleted.className
            #expect(out.lines.contains { line in
                guard let e = Self.event(line) else { return false }
                return e.kind == EventKind.dealloc && e.className == cls
            }, "\(Self.reproduce(o))")
        }
        #expect(checked >= 15, "the simulator found too few places for leaked-object")
    }

    /// `late-object-release` moves one object's `deinit` later in its session, to the truth's line.
    @Test func lateObjectReleaseTruthIsTheMovedDeinit() {
        var checked = 0
        for seed in UInt64(1)...24 {
            var o = Self.options(seed: seed &* 6_007, .nslogTZ, Self.dialects[Int(seed) % Self.dialects.count])
            o.fault = .lateObjectRelease
            let out = NavigationSimulator.generate(o)
            guard let truth = out.expected.first else { continue }
            checked += 1
            #expect(out.expected.count == 1 && truth.rule == "late_dealloc", "\(Self.reproduce(o))")
            let line = out.lines[truth.line - 1]
            let message = line.split(separator: "] ", maxSplits: 1).last.map(String.init) ?? line
            let e = Self.event(message)
            #expect(e?.kind == .dealloc && e.map { !Self.isController($0.className) } == true, "\(Self.reproduce(o)): \(line)")
            o.fault = nil
            let clean = NavigationSimulator.generate(o).lines
            #expect(clean.count == out.lines.count && clean.sorted() != out.lines.sorted(), "\(Self.reproduce(o)): one line moved, its time changed")
        }
        #expect(checked >= 15, "the simulator found too few places for late-object-release")
    }

    /// Once vclint judges objects: each object fault gives exactly its finding, in every dialect.
    @Test(.enabled(if: judgesObjects), arguments: Fault.objectFaults)
    func objectFaultsGiveExactlyTheirFinding(_ fault: Fault) {
        var checked = 0
        for seed in UInt64(1)...24 {
            var o = Self.options(seed: seed &* 104_729, Self.envelopes[Int(seed) % Self.envelopes.count], Self.dialects[Int(seed / 2) % Self.dialects.count])
            o.fault = fault
            let out = NavigationSimulator.generate(o)
            guard !out.expected.isEmpty else { continue }
            checked += 1
            let r = Self.lint(out, feed: 512 + Int(seed * 131 % 4096))
            let got = r.findings.filter { $0.rule != "memory_warning" }.map { "\($0.rule)@\($0.line)" }
            #expect(got == out.expected.map { "\($0.rule)@\($0.line)" }, "\(Self.reproduce(o)): \(Self.described(r.findings))")
        }
        #expect(checked >= 12, "the simulator found too few places for \(fault.rawValue)")
    }
}
