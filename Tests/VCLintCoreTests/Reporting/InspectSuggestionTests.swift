import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// `vclint inspect` suggests a dialect only for a shape that is a lifecycle statement of the capture's
/// own format (docs/lifecycle.md#mentions-and-unread-lines): applying what it suggests never adds a
/// finding to a clean capture and never invents a class the capture does not have, while a capture
/// in a regular shape the built-in reader does not know still gets a dialect that reads it.
@Suite struct InspectSuggestionTests {
    /// What a run saw: its findings (`rule@line`), its classes, its events, and the dialects inspect suggests.
    struct Seen {
        var findings: [String]
        var classes: Set<String>
        var events: Int
        var unread: Int
        var suggestions: [Inspection.SuggestedDialect]
        var groups: [Inspection.UnreadGroup]
    }

    static func inspect(_ bytes: [UInt8], path: String, dialects: [Inspection.SuggestedDialect] = []) throws -> Seen {
        var o = LintOptions()
        o.inspect = true
        if !dialects.isEmpty {
            // As the user would: the YAML inspect prints, under `dialects:` in .vclint.yml.
            let yaml = "dialects:\n" + dialects.map { $0.yaml.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") }.joined(separator: "\n") + "\n"
            try Configuration.parse(yaml, path: ".vclint.yml").apply(to: &o)
            #expect(o.customDialects.count == dialects.count)
        }
        let r = Linter(options: o).lint(bytes: bytes, path: path)
        let i = try #require(r.inspection)
        return Seen(findings: r.summary, classes: Set(i.classes.map(\.name)), events: r.stats.events, unread: r.stats.unrecognized,
                    suggestions: i.unreadGroups.compactMap(\.dialect), groups: i.unreadGroups)
    }

    /// Applies every suggestion and checks that nothing was added: no finding, no class.
    @discardableResult
    static func applyingAddsNothing(_ bytes: [UInt8], _ name: String) throws -> Int {
        let before = try inspect(bytes, path: name)
        guard !before.suggestions.isEmpty else { return 0 }
        let after = try inspect(bytes, path: name, dialects: before.suggestions)
        let added = Set(after.findings).subtracting(before.findings)
        #expect(added.isEmpty, "\(name): the suggested dialects add \(added.sorted()): \(before.suggestions.map(\.pattern))")
        let invented = after.classes.subtracting(before.classes)
        #expect(invented.isEmpty, "\(name): the suggested dialects invent \(invented.sorted()): \(before.suggestions.map(\.pattern))")
        return before.suggestions.count
    }

    // MARK: - Nothing is added

    /// Legal histories with noise (a high share of it mentions callbacks), in every envelope, every
    /// built-in dialect and free-form styles: inspect suggests nothing that changes the verdict.
    @Test(arguments: SimulationPropertyTests.envelopes)
    func simulatedCapturesGainNothing(_ envelope: EnvelopeFormat) throws {
        var suggested = 0
        for seed in UInt64(1)...4 {
            for dialect in NavigationSimulator.Dialect.allCases {
                var o = NavigationSimulator.Options(seed: seed &* 4_111 &+ UInt64(envelope.index))
                o.envelope = envelope
                o.dialect = dialect
                o.mentionRate = 0.6
                o.noise = 3
                if dialect == .freeForm {
                    var rng = SplitMix64(seed: o.seed ^ 0x1A5E)
                    o.style = FreeFormStyle.Variant.allCases[Int(seed) % FreeFormStyle.Variant.allCases.count].apply(to: FreeFormStyle.random(&rng))
                }
                let out = NavigationSimulator.generate(o)
                let name = "vclint-loggen --seed \(o.seed) --envelope \(envelope.rawValue) --dialect \(dialect.rawValue) --mention-rate 0.6 --noise 3"
                suggested += try Self.applyingAddsNothing(Array(out.text.utf8), name)
            }
        }
        // The simulator's noise mentions callbacks in sentences only: none of them is a format.
        #expect(suggested == 0)
    }

    /// Every fixture, the noise ones (`formats/noise-*.log`) and the clean ones among them.
    @Test func fixturesGainNothing() throws {
        let fixtures = allFixtureLogs()
        #expect(fixtures.contains("Fixtures/formats/noise-mentions.log"))
        for f in fixtures {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(f)))
            let n = try Self.applyingAddsNothing(bytes, f)
            if f.contains("/noise-") { #expect(n == 0, "\(f): \(n) dialects suggested for noise") }
        }
    }

    /// The project's own noise: sentences, code, a stack frame. Every group is listed, none with a dialect,
    /// each with its reason.
    @Test func noiseIsListedWithItsReason() throws {
        let bytes = [UInt8](try Data(contentsOf: fixtureURL("formats/noise-mentions.log")))
        let seen = try Self.inspect(bytes, path: "noise-mentions.log")
        #expect(seen.groups.reduce(0) { $0 + $1.lines } == seen.unread)
        #expect(seen.groups.count == 11)
        for g in seen.groups {
            #expect(g.dialect == nil, "\(g.template)")
            #expect(g.reason?.hasSuffix("no dialect suggested") == true, "\(g.template): \(g.reason ?? "nil")")
        }
        let analytics = try #require(seen.groups.first { $0.template.hasPrefix("[Analytics]") })
        #expect(analytics.reason == "mentions callbacks in a sentence (`queued`, `screen`, `event`): noise; no dialect suggested")
        let swizzled = try #require(seen.groups.first { $0.template.hasPrefix("[Debug]") })
        #expect(swizzled.reason?.hasPrefix("names several callbacks (`viewWillAppear`, `dealloc`)") == true)
    }

    /// A sentence stays noise however often it repeats, with however many callbacks and classes.
    @Test func aRepeatedSentenceIsStillNoise() throws {
        var lines: [String] = []
        for (i, cls) in ["HomeViewController", "DetailViewController", "CartViewController"].enumerated() {
            for cb in ["viewDidAppear", "viewDidDisappear"] {
                lines.append("2024-03-01 10:00:0\(i).000 Shop[100:200] [Analytics] queued screen event \(cb) for \(cls)")
                lines.append("2024-03-01 10:00:0\(i).100 Shop[100:200] [Nav] screen \(cls) did call \(cb)")
                lines.append("2024-03-01 10:00:0\(i).200 Shop[100:200] \(cls) \(cb) took \(i + 3) ms")
            }
        }
        let seen = try Self.inspect(Array((lines.joined(separator: "\n") + "\n").utf8), path: "analytics.log")
        #expect(seen.groups.count == 3)
        for g in seen.groups {
            #expect(g.lines == 6 && g.callbacks.count == 2 && g.labels == 3, "\(g.template)")
            #expect(g.dialect == nil, "\(g.template)")
            #expect(g.reason?.hasPrefix("mentions callbacks in a sentence") == true, "\(g.template): \(g.reason ?? "nil")")
        }
    }

    /// A statement seen once, or with one callback, or for one class, is no evidence of a format.
    @Test func aShapeMustRepeatWithCallbacksAndClasses() throws {
        func groups(_ messages: [String]) throws -> [Inspection.UnreadGroup] {
            try Self.inspect(Array(messages.map { "2024-03-01 10:00:00.000 Shop[100:200] \($0)" }.joined(separator: "\n").utf8), path: "x.log").groups
        }
        let once = try groups(["HomeViewController@0x7f01 viewDidLoad"])
        #expect(once.first?.dialect == nil)
        #expect(once.first?.reason == "seen with 1 callback and 1 class in 1 line: a format of the capture repeats with several callbacks and classes; no dialect suggested")
        let oneClass = try groups(["HomeViewController@0x7f01 viewDidLoad", "HomeViewController@0x7f01 viewWillAppear", "HomeViewController@0x7f01 viewDidAppear"])
        #expect(oneClass.first?.dialect == nil)
        let oneCallback = try groups(["HomeViewController@0x7f01 viewDidLoad", "CartViewController@0x7f02 viewDidLoad", "DetailViewController@0x7f03 viewDidLoad"])
        #expect(oneCallback.first?.dialect == nil)
        let format = try groups(["HomeViewController@0x7f01 viewDidLoad", "CartViewController@0x7f02 viewDidLoad", "HomeViewController@0x7f01 viewWillAppear"])
        #expect(format.first?.dialect != nil)
    }

    // MARK: - A regular format is still read

    /// `viewDidLoad() was called on HomeViewController`, `HomeViewController@0x… viewDidLoad`: shapes the
    /// built-in reader does not know, repeated for several classes and callbacks. The dialect inspect
    /// suggests reads every line, as the events they are, and the legal flow they tell gives no finding.
    @Test(arguments: ["{callback}() was called on {class}", "{class}@{address} {callback}", "[Nav] {class}@{address} :: {callback}"])
    func aRegularFormatGetsADialectThatReadsIt(_ shape: String) throws {
        let flow: [(String, String, String)] = [
            ("HomeViewController", "0x7f8a1c00a000", "viewDidLoad"), ("HomeViewController", "0x7f8a1c00a000", "viewWillAppear"),
            ("HomeViewController", "0x7f8a1c00a000", "viewDidAppear"), ("DetailViewController", "0x7f8a1c00b000", "viewDidLoad"),
            ("HomeViewController", "0x7f8a1c00a000", "viewWillDisappear"), ("DetailViewController", "0x7f8a1c00b000", "viewWillAppear"),
            ("HomeViewController", "0x7f8a1c00a000", "viewDidDisappear"), ("DetailViewController", "0x7f8a1c00b000", "viewDidAppear"),
            ("DetailViewController", "0x7f8a1c00b000", "viewWillDisappear"), ("HomeViewController", "0x7f8a1c00a000", "viewWillAppear"),
            ("DetailViewController", "0x7f8a1c00b000", "viewDidDisappear"), ("HomeViewController", "0x7f8a1c00a000", "viewDidAppear"),
            ("DetailViewController", "0x7f8a1c00b000", "dealloc"),
        ]
        var lines: [String] = []
        for (k, (cls, address, callback)) in flow.enumerated() {
            let message = shape.replacingOccurrences(of: "{class}", with: "Shop." + cls).replacingOccurrences(of: "{address}", with: address)
                .replacingOccurrences(of: "{callback}", with: callback)
            lines.append(String(format: "2024-03-01 10:00:%02d.000 Shop[100:200] %@", k, message))
            if k % 4 == 0 { lines.append(String(format: "2024-03-01 10:00:%02d.500 Shop[100:200] [Analytics] queued screen event %@ for %@", k, callback, cls)) }
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let before = try Self.inspect(bytes, path: "format.log")
        #expect(before.events == 0, "the built-in reader does not read \(shape)")
        #expect(before.suggestions.count == 1, "\(before.groups.map { "\($0.template): \($0.reason ?? "suggested")" })")
        let pattern = try #require(before.suggestions.first?.pattern)
        #expect(pattern.hasPrefix("^") && pattern.hasSuffix("$"), "anchored to the whole message: \(pattern)")
        let after = try Self.inspect(bytes, path: "format.log", dialects: before.suggestions)
        #expect(after.events == flow.count)
        #expect(after.unread == before.unread - flow.count, "the analytics sentences stay unread")
        #expect(after.classes == ["HomeViewController", "DetailViewController"], "the module is not part of the class")
        #expect(after.findings.isEmpty, "\(after.findings)")
    }

    /// Simulated histories whose lifecycle lines are printed as `Class@0x… callback` (rewritten from the
    /// described-object dialect): the suggested dialect reads them as the described reading does: the same
    /// events, the same classes, and no finding.
    @Test(arguments: [EnvelopeFormat.nslog, .oslog, .bare])
    func simulatedCapturesInAnUnknownFormatAreRead(_ envelope: EnvelopeFormat) throws {
        let described = try Regex(#"<([A-Za-z_][A-Za-z0-9_]*): (0x[0-9a-f]+)> ([A-Za-z]+):?$"#)
        for seed in UInt64(1)...3 {
            var o = NavigationSimulator.Options(seed: seed &* 31 &+ UInt64(envelope.index))
            o.envelope = envelope
            o.dialect = .described
            let out = NavigationSimulator.generate(o)
            let reference = try Self.inspect(Array(out.text.utf8), path: "described.log")
            let rewritten = out.lines.map { line in
                line.replacing(described) { m in "\(m.output[1].substring ?? "")@\(m.output[2].substring ?? "") \(m.output[3].substring ?? "")" }
            }
            let bytes = Array((rewritten.joined(separator: "\n") + "\n").utf8)
            let before = try Self.inspect(bytes, path: "rewritten.log")
            let name = "seed \(o.seed), \(envelope.rawValue)"
            #expect(before.events < reference.events, "\(name): the rewritten lines are unread")
            #expect(before.suggestions.count == 1, "\(name): \(before.groups.map { "\($0.template): \($0.reason ?? "suggested")" })")
            let after = try Self.inspect(bytes, path: "rewritten.log", dialects: before.suggestions)
            #expect(after.events == reference.events, "\(name)")
            #expect(after.classes == reference.classes, "\(name)")
            #expect(after.findings.filter { !$0.hasPrefix("memory_warning") } == [], "\(name): \(after.findings)")
        }
    }

    // MARK: - The pattern

    /// The class group never takes a callback's name or a common word, and the pattern holds the whole message.
    @Test func thePatternNamesOnlyControllers() throws {
        let lines = ["HomeViewController@0x7f01 viewDidLoad", "CartViewController@0x7f02 viewWillAppear", "HomeViewController@0x7f01 viewDidAppear"]
        let seen = try Self.inspect(Array(lines.joined(separator: "\n").utf8), path: "x.log")
        let d = try #require(seen.suggestions.first)
        let parser = MessageParser(custom: [try CustomDialect(pattern: d.pattern, events: Dictionary(uniqueKeysWithValues: d.events.map { ($0.text, $0.kind.rawValue) }))])
        #expect(parser.parse("Shop.CartViewController@0x7f02 viewDidDisappear")?.className == "CartViewController")
        #expect(parser.parse("CartViewController@0x7f02 viewDidDisappear")?.address == 0x7f02)
        for line in ["viewDidLoad@0x7f02 viewDidAppear", "ViewWillAppear@0x1 viewDidLoad", "self@0x7f02 viewDidLoad", "The@0x1 viewDidLoad",
                     "[x] CartViewController@0x7f02 viewDidLoad", "CartViewController@0x7f02 viewDidLoad took 3 ms"] {
            #expect(parser.parse(line)?.dialect != .custom, "\(line)")
        }
    }
}
