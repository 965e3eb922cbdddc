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
        for rule in Set(Setting.all.flatMap(\.rules)) {
            #expect(lines.filter { $0.hasPrefix("#\(rule): {") }.count == 1, "\(rule)")
        }
    }

    /// docs/configuration.md's reference table is `Setting.referenceTable()`. After a change to the
    /// table, `VCLINT_UPDATE_DOCS=1 swift test --filter SettingsTableTests` rewrites the file's copy.
    @Test func theReferenceInTheDocsIsGenerated() throws {
        let url = packageRoot.appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- settings-table:begin -->\n"))
        let end = try #require(text.range(of: "<!-- settings-table:end -->"))
        let inFile = String(text[begin.upperBound..<end.lowerBound])
        let generated = Setting.referenceTable()
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_DOCS"] == "1", inFile != generated {
            try (String(text[..<begin.upperBound]) + generated + String(text[end.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(inFile == generated, "docs/configuration.md's table is not the settings table: VCLINT_UPDATE_DOCS=1 swift test --filter SettingsTableTests rewrites it")
    }
}
