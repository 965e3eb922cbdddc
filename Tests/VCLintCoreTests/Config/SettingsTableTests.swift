import Foundation
import Testing
@testable import VCLintCore

/// `Setting.all` is the one place a `.vclint.yml` setting is declared: the parser, the JSON report,
/// `merge`, `vclint rules`, the starter and docs/configuration.md follow it.
@Suite struct SettingsTableTests {
    static let ruleParameters = Setting.all.filter { !$0.rules.isEmpty }.map(\.key)

    static func setting(_ key: String) throws -> Setting { try #require(Setting.all.first { $0.key == key }) }

    /// A YAML value other than the default, for a rule parameter of each kind (a new kind adds one here).
    static func sample(_ s: Setting) -> String? {
        switch s.defaultValue {
        case .double(let d)?: return "\(d + 1.5)"
        case .array?: return "['^Sample$']"
        case .object?: return "{Sample: 2}"
        default: return nil
        }
    }

    static func options(_ yaml: String) throws -> LintOptions {
        var options = LintOptions()
        try Configuration.parse(yaml, path: ".vclint.yml").apply(to: &options)
        return options
    }

    /// A rule parameter is one entry: the entry alone makes it a top-level key and a key of its rules'
    /// sections that lands in the lint options, recorded and read back by the JSON report, named by
    /// `merge` when two runs differ in it, shown and starred by `vclint rules`, in the starter and in
    /// the reference.
    @Test(arguments: ruleParameters)
    func aRuleParameterIsOneEntry(_ key: String) throws {
        let s = try Self.setting(key)
        let yaml = try #require(Self.sample(s), "no sample value for a \(s.type) parameter: add one to sample(_:)")
        let top = try Self.options("\(key): \(yaml)")
        let value = try #require(s.value(in: top), "\(key) does not land in the lint options")
        #expect(value != s.defaultValue)
        for rule in s.rules {
            #expect(RuleRegistry.rule(rule) != nil, "\(key) names no rule \(rule)")
            #expect(s.value(in: try Self.options("\(rule): {\(key): \(yaml)}")) == value, "\(rule).\(key)")
            #expect(s.value(in: try Self.options("\(rule):\n  severity: info\n  \(key): \(yaml)\n")) == value, "\(rule).\(key)")
        }
        if let other = RuleRegistry.identifiers.first(where: { !s.rules.contains($0) }) {
            #expect(YAMLErrorTests().error("\(other): {\(key): \(yaml)}") == "cfg.yml:1:1: \(other).\(key): unknown parameter for \(other)")
        }

        let recorded = RunConfiguration(options: top)
        let document = JSONValue.object([("configuration", recorded.json)]).serialized()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any])
        let back = try RunConfiguration(json: parsed["configuration"] as Any)
        #expect(back == recorded)
        #expect(back.settings.first { $0.key == key }?.value == value)
        #expect(back.json.serialized() == recorded.json.serialized())
        let why = recorded.difference(from: RunConfiguration(options: LintOptions()), there: "in a.json")
        #expect(why?.hasPrefix("\(key) ") == true, "\(why ?? "no difference")")

        let table = RuleTable.text(top, configuration: "c.yml")
        for rule in s.rules {
            let row = try #require(table.split(separator: "\n").first { $0.hasPrefix(rule + " ") })
            #expect(row.contains("\(key): \(Setting.text(value))*"), "\(row)")
        }
        #expect(table.hasSuffix("* set by c.yml\n"))
        #expect(Configuration.starter.contains("\n#\(key): ") || Configuration.starter.contains("\n\(key): "))
        #expect(Setting.referenceTable().contains("| `\(key)` |"))
    }

    // MARK: - Each rule list against the code

    /// A capture whose findings the suite knows, with the options it is linted with.
    struct Capture: Sendable {
        let name: String
        let text: String
        let options: LintOptions
    }

    /// What the timeline decides with the grace when a session ends (docs/lifecycle.md#when-a-transition-is-over):
    /// a will-callback still open is reported only when the session went on for the grace after it. No
    /// rule example or fixture shows it for an appearance or a child's move with timestamps.
    static let openAtTheEnd = [
        """
        2024-03-01 10:00:00.000 Shop[100:200] HomeViewController viewDidLoad()
        2024-03-01 10:00:00.010 Shop[100:200] HomeViewController viewWillAppear(_:)
        2024-03-01 10:00:00.300 Shop[100:200] HomeViewController viewDidAppear(_:)
        2024-03-01 10:00:01.000 Shop[100:200] HomeViewController viewWillDisappear(_:)
        2024-03-01 10:00:01.300 Shop[100:200] HomeViewController viewDidDisappear(_:)
        2024-03-01 10:00:02.000 Shop[100:200] HomeViewController viewWillAppear(_:)
        2024-03-01 10:00:07.000 Shop[100:200] Sync finished
        """,
        """
        2024-03-01 10:00:00.000 Shop[100:200] ContainerViewController viewDidLoad()
        2024-03-01 10:00:00.010 Shop[100:200] ContainerViewController viewWillAppear(_:)
        2024-03-01 10:00:00.300 Shop[100:200] ContainerViewController viewDidAppear(_:)
        2024-03-01 10:00:01.000 Shop[100:200] ChildViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
        2024-03-01 10:00:01.010 Shop[100:200] ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>
        2024-03-01 10:00:02.000 Shop[100:200] BannerViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
        2024-03-01 10:00:07.000 Shop[100:200] Sync finished
        """,
    ]

    /// Every rule's examples, with the options they run with (every rule on), every golden fixture and
    /// the captures above, with every rule on.
    static let corpus: [Capture] = {
        var out: [Capture] = []
        for d in RuleRegistry.descriptions {
            let options = exampleOptions(d)
            for (i, example) in (d.triggeringExamples + d.nonTriggeringExamples).enumerated() {
                out.append(Capture(name: "\(d.identifier)'s example \(i + 1)", text: stripMarkers(example).text, options: options))
            }
        }
        var everyRule = LintOptions()
        everyRule.rules = .all
        for fixture in allFixtureLogs() where !fixture.hasSuffix(".gz") {
            guard let text = try? String(contentsOf: packageRoot.appendingPathComponent(fixture), encoding: .utf8) else { continue }
            out.append(Capture(name: fixture, text: text, options: everyRule))
        }
        for (i, text) in openAtTheEnd.enumerated() { out.append(Capture(name: "openAtTheEnd[\(i)]", text: text, options: everyRule)) }
        return out
    }()

    /// The values that tell whether a rule reads a setting: its default, a number's bounds (a grace of
    /// 0 s confirms every leak at once, one of a day none), and what the rules' example configurations
    /// give it (lifetime_limit's limits).
    static func tellingValues(_ s: Setting) throws -> [any Sendable] {
        var yaml = ["\(s.key): \(try #require(s.defaultValue).serialized())"]
        if let number = s.kind as? NumberKind {
            yaml += [number.range.lowerBound, number.range.upperBound].map { "\(s.key): \(NumberKind.plain($0))" }
        }
        yaml += RuleRegistry.descriptions.compactMap(\.exampleConfiguration)
        return try yaml.compactMap { try Configuration.parse($0, path: "c.yml").values[s.key] }
    }

    /// Each finding of a run, by rule, as its reader sees it.
    static func findingsByRule(_ capture: Capture, _ options: LintOptions) -> [String: [String]] {
        let findings = Linter(options: options).lint(text: capture.text).findings
        return Dictionary(grouping: findings, by: \.rule).mapValues { $0.map { "\($0.line) \($0.severity) \($0.message)" } }
    }

    /// A rule parameter's `rules` are exactly the rules whose findings it changes, proved against the
    /// code rather than the list: every capture of the corpus is linted at each telling value of the
    /// setting, and a rule whose findings differ between two of them reads it (through its verdict or
    /// through what the timeline decides). A rule that reads it and is not listed fails (leaked_object's
    /// section refused `leak_grace_seconds`, which decides its leaks); so does a listed one that does not.
    @Test(arguments: ruleParameters)
    func eachRuleListIsTheRulesTheSettingChanges(_ key: String) throws {
        let s = try Self.setting(key)
        let values = try Self.tellingValues(s)
        #expect(values.count >= 2, "\(key) needs two values to compare: its default and another")
        var changed: Set<String> = []
        var shownBy: [String: String] = [:]
        for capture in Self.corpus {
            let runs = values.map { value in
                var options = capture.options
                s.landValue!(value, &options)
                return Self.findingsByRule(capture, options)
            }
            for run in runs.dropFirst() {
                for rule in Set(run.keys).union(runs[0].keys) where run[rule] != runs[0][rule] {
                    changed.insert(rule)
                    shownBy[rule] = shownBy[rule] ?? capture.name
                }
            }
        }
        let read = RuleRegistry.identifiers.filter(changed.contains)
        #expect(Set(s.rules) == Set(read) && s.rules.count == read.count,
                "\(key) changes the findings of \(read.map { "\($0) (\(shownBy[$0]!))" }); its rules: list says \(s.rules)")
    }

    /// The issue's case: leaked_object reads the grace (an owned object's leak is confirmed once its
    /// session went on for it), so its section takes it; `vclint lint` exited 2 with "unknown parameter".
    @Test func leakedObjectTakesTheGraceInItsSection() throws {
        let d = try #require(RuleRegistry.description(of: "leaked_object"))
        // The session goes on 4.58 s after the owner's deinit: past the default grace, within 5 s.
        let capture = stripMarkers(d.triggeringExamples[0]).text
        let byDefault = try #require(Linter(options: try Self.options("")).lint(text: capture).findings.first)
        #expect(byDefault.severity == .error && byDefault.message.contains("grace 3.0 s"), "\(byDefault.message)")
        let options = try Self.options("leaked_object: {leak_grace_seconds: 5}")
        #expect(options.timeline.leakGraceSeconds == 5)
        let configured = try #require(Linter(options: options).lint(text: capture).findings.first)
        #expect(configured.rule == "leaked_object")
        #expect(configured.severity == .warning && configured.message.hasSuffix("within the 5.0 s grace: unconfirmed leak"), "\(configured.message)")
    }

    /// A parameter's default is its options field's initial value, and unset it stays there.
    @Test(arguments: ruleParameters)
    func anUnsetParameterKeepsItsDefault(_ key: String) throws {
        let s = try Self.setting(key)
        #expect(s.value(in: try Self.options("")) == s.defaultValue)
        #expect(!RuleTable.text(LintOptions(), configuration: nil).contains("*"))
    }

    @Test func keysAreUniqueAndNoRuleID() {
        let keys = Setting.all.map(\.key)
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { RuleRegistry.rule($0) == nil && $0 != "severity" })
    }

    /// The unknown-key error, the report's keys and their order come from the table.
    @Test func everyListOfKeysIsTheTables() throws {
        #expect(YAMLErrorTests().error("nope: 1") == "cfg.yml:1:1: nope: unknown key (expected one of \(Setting.all.map(\.key).joined(separator: ", ")), or a rule id)")
        guard case .object(let pairs) = RunConfiguration(options: LintOptions()).json else { Issue.record("not an object"); return }
        #expect(pairs.map(\.0) == ["rules"] + Setting.recorded.map(\.key) + ["strict", "baseline"])
        #expect(!Setting.recorded.contains { ["included", "excluded", "disabled_rules", "opt_in_rules"].contains($0.key) })
        #expect(Configuration.keys.map(\.key) == Setting.all.map(\.key) + ["RULE_ID"])
    }

    /// Each key is one line of the starter: `key: value`, commented out or not.
    @Test func theStarterHasEveryKeyOnce() {
        let lines = Configuration.starter.split(separator: "\n")
        for s in Setting.all {
            #expect(lines.filter { $0.hasPrefix("\(s.key): ") || $0.hasPrefix("#\(s.key): ") }.count == 1, "\(s.key)")
        }
        // A rule parameter is shown once, in the section of the rule it is chiefly for (its first).
        for s in Setting.all where !s.rules.isEmpty {
            #expect(lines.filter { $0.hasPrefix("#\(s.rules[0]): {") && $0.contains(" \(s.key): ") }.count == 1, "\(s.key)")
            #expect(lines.filter { $0.contains(" \(s.key): ") }.count == 1, "\(s.key)")
        }
    }

    /// docs/configuration.md's reference table is `Setting.referenceTable()`. After a change to the
    /// table, `VCLINT_UPDATE_DOCS=1 swift test --filter SettingsTableTests` rewrites the file's copy.
    @Test func theReferenceInTheDocsIsGenerated() throws {
        try Docs.expectGenerated("docs/configuration.md", between: "<!-- settings-table:begin -->\n", and: "<!-- settings-table:end -->",
                                 is: Setting.referenceTable(),
                                 "docs/configuration.md's table is not the settings table: VCLINT_UPDATE_DOCS=1 swift test --filter SettingsTableTests rewrites it")
    }
}
