import Foundation
import Testing
@testable import VCLintCore

/// Observations and findings are held as bytes (docs/performance.md#memory); what is read back must be what
/// was made.
@Suite struct CompactFindingsTests {
    typealias Random = SplitMix

    static func time(_ r: inout Random) -> LogTime? {
        switch r.int(4) {
        case 0: return nil
        case 1: return LogTime(seconds: Double(r.int(1 << 30)) + 0.25, year: 0, month: 4, day: 1, hour: 16, minute: 30, second: 45,
                               fraction: 0, fractionDigits: 0, offsetMinutes: nil)
        case 2: return LogTime(seconds: -Double(r.int(1000)) / 7, year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59,
                               fraction: UInt32(r.int(1_000_000)), fractionDigits: 6, offsetMinutes: Int16(r.int(1500)) - 750)
        default: return LogTime(seconds: 1.5e9, year: 2020, month: 1, day: 2, hour: 3, minute: 4, second: 5,
                                fraction: 465, fractionDigits: 3, offsetMinutes: Int16.min)
        }
    }

    static func ref(_ r: inout Random, shared: LogTime?) -> EventRef {
        EventRef(line: r.int(3) == 0 ? Int.max - r.int(10) : r.int(1 << 40), time: r.bool() ? shared : time(&r),
                 kind: EventKind.allCases[r.int(EventKind.allCases.count)])
    }

    static func controller(_ r: inout Random) -> ControllerRef {
        let cls = ["HomeViewController", "Ünïcødé.View", "", "A#B"][r.int(4)]
        let instance = [cls, "\(cls)#\(r.int(1_000_000) + 1)", "\(cls)#0", "\(cls)#", "other#12x", "(capture)"][r.int(6)]
        return ControllerRef(className: cls, address: r.bool() ? nil : r.next(), instance: instance)
    }

    static func reason(_ r: inout Random, _ t: LogTime?) -> IncompleteReason {
        switch r.int(4) {
        case 0: return .deallocated(ref(&r, shared: t))
        case 1: return .sessionEnded
        case 2: return .superseded(ref(&r, shared: t))
        default: return .contradicted(ref(&r, shared: t))
        }
    }

    static func observation(_ r: inout Random) -> Observation {
        let t = time(&r)
        func e() -> EventRef { ref(&r, shared: t) }
        func oe() -> EventRef? { r.bool() ? nil : e() }
        let states: [Appearance] = [.unknown, .hidden, .appearing, .visible, .disappearing]
        let removalKinds: [RemovalKind] = [.dismissed, .removedFromParent, .popped, .poppedWithTop, .closed]
        func removal() -> Removal {
            Removal(kind: removalKinds[r.int(5)], evidence: e(), takenAlongBy: r.bool() ? nil : "Parent#\(r.int(9))", anchor: e())
        }
        let fact: any Fact
        func heap() -> HeapLeak {
            HeapLeak(ended: "MainActivity#\(r.int(9)) was destroyed", endKnown: r.bool(), chain: "GC Root: x → [A.b] → MainActivity",
                     sizes: r.bool() ? "" : "98.1 kB; watched 6.9 s", sharedBy: 1 + r.int(4), folded: ["ReportFragment", "VM"].prefix(r.int(3)).map { $0 },
                     pattern: r.bool() ? nil : "instance field a.B#c", description: r.bool() ? nil : "A bug.", signature: r.bool() ? nil : "f3f4",
                     related: (0..<r.int(4)).map { HeapLeak.Related(line: r.int(1 << 30), note: "node \($0) é") },
                     owner: r.bool() ? nil : controller(&r), test: r.bool() ? nil : "a.BTest/testC")
        }
        switch r.int(27) {
        case 20: fact = ActivityLeak(heap())
        case 21: fact = FragmentLeak(heap())
        case 22: fact = FragmentViewLeak(heap())
        case 23: fact = LibraryLeak(heap())
        case 24: fact = ObjectLeakFact.heap(heap())
        case 25: fact = RetainedUnconfirmed(count: r.int(9), watches: ["A#1", "B#?"].prefix(r.int(3)).map { $0 }, watchLines: [r.int(99)], moreWatches: r.int(3))
        case 26: fact = LifetimeExceeded(created: e(), scope: .class, limit: "MainActivity", classes: ["MainActivity"], max: 1, alive: 2 + r.int(3),
                                         others: [], owner: nil, strictMode: .init(recreated: oe()))
        case 0: fact = UnfinishedAppearance(will: e(), reason: reason(&r, t))
        case 1: fact = UnfinishedDisappearance(will: e(), reason: reason(&r, t))
        case 2: fact = UnbalancedAppearance.didWithoutWill(did: e(), state: states[r.int(5)])
        case 3: fact = UnbalancedAppearance.willInSameState(will: e(), state: states[r.int(5)], since: oe())
        case 4: fact = AppearanceBeforeLoad(event: e(), created: oe())
        case 5: fact = SecondViewDidLoad(event: e(), firstLoad: oe())
        case 6: fact = EventAfterDealloc(event: e(), dealloc: e())
        case 7: fact = DeallocWhileVisible(dealloc: e(), appeared: oe())
        case 8: fact = ControllerLeak(removal: removal(), anchor: e(), will: oe(), wentOn: r.bool() ? nil : 3.25, confirmed: r.bool())
        case 9: fact = LateDealloc(dealloc: e(), removal: removal(), delay: Double(r.int(100_000)) / 1000)
        case 10: fact = DismissCompletedEarly(marker: e(), did: e(), will: oe())
        case 11: fact = PresentCompletedEarly(marker: e(), did: e(), will: oe())
        case 12: fact = ContainmentMismatch.willMoveWithoutDidMove(will: e(), reason: reason(&r, t))
        case 13: fact = ContainmentMismatch.removedWithoutWillMove(did: e())
        case 14: fact = SlowTransition(will: e(), did: e(), milliseconds: 1234.5)
        case 15: fact = MemoryWarnings(event: e(), countInSession: r.int(100_000), classes: ["A", "B", "A"].prefix(r.int(4)).map { $0 },
                                       classCount: r.int(50))
        case 16: fact = UIKitUnbalancedWarning(event: e(), text: "Unbalanced calls to begin/end appearance transitions for <X: 0x1> \u{0}é")
        case 17: fact = UIKitPresentationWarning(event: e(), text: "Attempt to present", others: (0..<r.int(3)).map { _ in controller(&r) })
        case 18: fact = RedactedLabels(statements: r.int(1 << 40))
        default: fact = NoLifecycleEvents(lines: r.int(1 << 50), unread: r.int(9), firstUnread: r.bool() ? nil : r.int(99))
        }
        let who = controller(&r)
        // Another class's requirement, the controller's own, or its own dealloc (a leak's).
        let requiredOf = [nil, "Req\(r.int(3))", who.className][r.int(3)]
        let requires = requiredOf.map { Requirement(className: $0, anyOf: [.viewDidDisappear, .dealloc].filter { _ in r.bool() }) }
        return Observation(fact, controller: who, requires: requires, line: r.int(1 << 35), time: t)
    }

    /// Requirements compare as sets of kinds (their order is not kept).
    static func text(_ o: Observation) -> String {
        var o = o
        if var r = o.requires {
            r.anyOf.sort { $0.bit < $1.bit }
            o.requires = r
        }
        return String(reflecting: o)
    }

    @Test(arguments: [1, 2, 3, 42, 1_000])
    func everyObservationReadsBackAsItWasMade(seed: UInt64) {
        var r = Random(seed: seed)
        let made = (0..<2_000).map { _ in Self.observation(&r) }
        var list = ObservationList()
        for o in made { list.append(o) }
        #expect(list.count == made.count)
        for (i, o) in made.enumerated() {
            #expect(Self.text(list[i]) == Self.text(o), "seed \(seed), observation \(i)")
        }
        let odd = list.filter { $0.line % 2 == 1 }
        #expect(odd.map(Self.text) == made.filter { $0.line % 2 == 1 }.map(Self.text))
    }

    /// Kept in place: what `filter` keeps, in the same order, over many chunks (long texts make
    /// encodings that do not fit in the room left earlier), withdrawn ones left out; then appended to.
    @Test(arguments: [(1, 2), (2, 3), (3, 1), (4, 1_000), (5, 0)])
    func retainedInPlaceIsWhatFilterKeeps(seed: UInt64, every: Int) {
        var r = Random(seed: seed)
        var made: [Observation] = []
        for k in 0..<12_000 {
            var o = Self.observation(&r)
            if k % 97 == 0 {
                o = Observation(UIKitUnbalancedWarning(event: EventRef(line: k, time: nil, kind: .uikitUnbalancedTransition),
                                                       text: String(repeating: "x", count: 3_000 + r.int(90_000))),
                                controller: o.controller, requires: nil, line: k, time: nil)
            }
            made.append(o)
        }
        var list = ObservationList(made)
        for k in stride(from: 5, to: made.count, by: 31) { list.withdraw(at: k) }
        func keep(_ o: Observation) -> Bool { every == 0 ? false : every == 1 || o.line % every != 0 }
        let filtered = list.filter { _, o in keep(o) }
        let before = list.byteCount
        list.retain { _, o in keep(o) }
        #expect(list.count == filtered.count)
        #expect(list.map(Self.text) == filtered.map(Self.text))
        #expect(list.byteCount <= before)
        let more = Self.observation(&r)
        list.append(more)
        #expect(Self.text(list[list.count - 1]) == Self.text(more))
    }

    /// Observations from a real run: the compact list keeps them in tens of bytes each.
    @Test func observationsCostTensOfBytes() {
        var list = ObservationList()
        let t = LogTime(seconds: 1.7e9, year: 2024, month: 3, day: 1, hour: 12, minute: 0, second: 0, fraction: 123, fractionDigits: 3, offsetMinutes: nil)
        for i in 0..<10_000 {
            let did = EventRef(line: 1_000 + i, time: t, kind: .viewDidAppear)
            list.append(Observation(UnbalancedAppearance.didWithoutWill(did: did, state: .visible),
                                    controller: ControllerRef(className: "HomeViewController", address: nil, instance: "HomeViewController#1"),
                                    requires: Requirement(className: "HomeViewController", anyOf: [.viewWillAppear]), line: 1_000 + i, time: t))
        }
        #expect(list.byteCount / list.count < 64, "\(list.byteCount / list.count) bytes per observation")
    }

    /// The findings of a compact list read as the rule engine words them, in report order; counts
    /// by severity, removal and declarations work without changing what is read.
    @Test func findingListReadsLikeTheFindingsItHolds() throws {
        let text = try String(contentsOf: fixtureURL("seeds/navtest-missing-dealloc.log"), encoding: .utf8)
        var result = Linter().lint(text: text, path: "a.log")
        let all = Array(result.findings)
        #expect(!all.isEmpty)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.line <= $1.line })
        #expect(result.findings.count(.error) == all.filter { $0.severity == .error }.count)
        #expect(result.findings.indices.map { result.findings.severity(at: $0) } == all.map(\.severity))
        let cls = all[0].controller.className
        result.findings.attach([cls: Declaration(path: "X.swift", line: 7)])
        #expect(result.findings.filter { $0.controller.className == cls }.allSatisfy { $0.declaration == Declaration(path: "X.swift", line: 7) })
        let first = all[0].fingerprint
        result.findings.removeAll { $0.fingerprint == first }
        #expect(Array(result.findings).map(\.message) == all.filter { $0.fingerprint != first }.map(\.message))
        let run = LintResult(files: [FileResult(stats: result.stats, findings: []), result, FileResult(stats: result.stats, findings: [all[0]])])
        #expect(run.findings.map(\.message) == result.findings.map(\.message) + [all[0].message])
    }
}

/// Times as the parser makes them are stored without their seconds (recomputed from the fields,
/// bit for bit), their date once per list: what keeps a leak's observation small
/// (docs/performance.md#memory).
@Suite struct CompactTimeTests {
    static func parsed(_ text: String, syslog: Bool = false) -> LogTime? {
        var copy = text
        return copy.withUTF8 { buf -> LogTime? in
            var c = ByteCursor(buf.baseAddress!, count: buf.count)
            return syslog ? TimestampParser.parseSyslog(&c) : TimestampParser.parseISOLike(&c)?.0
        }
    }

    @Test(arguments: [1, 7, 99])
    func parsedTimesReadBackBitForBit(seed: UInt64) throws {
        var r = SplitMix(seed: seed)
        var list = ObservationList()
        var made: [LogTime] = []
        for _ in 0..<3_000 {
            let digits = r.int(10)
            let fraction = digits == 0 ? "" : "." + (0..<digits).map { _ in String(r.int(10)) }.joined()
            let offsets = ["", "Z", "+08:00", "-0530", "+0000", "-12:00"]
            let text: String
            let syslog = r.int(4) == 0
            if syslog {
                text = "\(["Jan", "Feb", "Mar", "Dec"][r.int(4)]) \(1 + r.int(28)) \(String(format: "%02d:%02d:%02d", r.int(24), r.int(60), r.int(60)))\(fraction)"
            } else {
                text = String(format: "%04d-%02d-%02d %02d:%02d:%02d", 1970 + r.int(100), 1 + r.int(12), 1 + r.int(28), r.int(24), r.int(60), r.int(61))
                    + fraction + offsets[r.int(offsets.count)]
            }
            let t = try #require(Self.parsed(text, syslog: syslog), "\(text)")
            #expect(t.fieldSeconds.bitPattern == t.seconds.bitPattern, "\(text)")
            made.append(t)
            let ref = EventRef(line: made.count, time: t, kind: .viewDidAppear)
            list.append(Observation(UnbalancedAppearance.didWithoutWill(did: ref, state: .visible),
                                    controller: ControllerRef(className: "A", address: nil, instance: "A"), requires: nil, line: made.count, time: t))
        }
        for (i, t) in made.enumerated() {
            let back = try #require(list[i].time)
            #expect(back.seconds.bitPattern == t.seconds.bitPattern && back.iso == t.iso)
        }
    }

    @Test func aLeakCostsFewBytes() {
        var list = ObservationList()
        for i in 0..<1_000 {
            let did = Self.parsed("2024-03-01 10:00:\(String(format: "%02d", i % 60)).\(String(format: "%03d", i % 1000))")!
            let will = Self.parsed("2024-03-01 09:59:59.\(String(format: "%03d", i % 1000))")!
            let anchor = EventRef(line: 10 * i + 5, time: did, kind: .viewDidDisappear)
            let removal = Removal(kind: .popped, evidence: anchor, takenAlongBy: nil, anchor: anchor)
            list.append(Observation(ControllerLeak(removal: removal, anchor: anchor, will: EventRef(line: 10 * i + 1, time: will, kind: .viewWillDisappear),
                                                   wentOn: 12.5, confirmed: true),
                                    controller: ControllerRef(className: "ModalViewController", address: nil, instance: "ModalViewController#\(i + 1)"),
                                    requires: nil, line: 10 * i + 5, time: did))
        }
        #expect(list.byteCount / list.count <= 64, "\(list.byteCount / list.count) bytes per leak")
    }
}

/// An observation keeps a controller's label (`Home#3`) as its number alone when the label is its class's name, `#` and a
/// number (`ControllerRef.generation`); anything else is kept whole. The number is read as the label's text says.
@Suite struct LabelNumberTests {
    /// What the label says, read character by character.
    static func spelled(_ label: String, _ className: String) -> UInt64? {
        guard label.hasPrefix(className + "#") else { return nil }
        let digits = label.dropFirst(className.count + 1)
        guard !digits.isEmpty, digits.count <= 18, digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    @Test func aLabelGivesItsNumberOnlyWhenItIsTheClassAndANumber() {
        var r = SplitMix(seed: 17)
        let classes = ["Home", "HomeViewController", "A", "", "Ünïcode·VC", "Home#2", "x.y.Z"]
        let tails = ["#1", "#42", "#0", "#007", "#", "#12a", "# 3", "#123456789012345678", "#1234567890123456789", "", "3", "#٣", "#𝟙"]
        var numbered = 0
        for _ in 0..<2_000 {
            let cls = classes[r.int(classes.count)]
            let label = [cls, classes[r.int(classes.count)]][r.int(4) == 0 ? 1 : 0] + tails[r.int(tails.count)]
            let got = ControllerRef.generation(of: label, className: cls)
            #expect(got == Self.spelled(label, cls), "\(label) of \(cls)")
            if got != nil { numbered += 1 }
        }
        #expect(numbered > 200)
    }
}
