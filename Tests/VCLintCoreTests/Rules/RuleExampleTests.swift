import Testing
@testable import VCLintCore

/// One generic test over every rule's own examples (SwiftLint's pattern): the documentation and
/// the behaviour cannot drift apart.
@Suite struct RuleExampleTests {
    static let descriptions = RuleRegistry.all.map { type(of: $0).description }
    /// The rules about captures: their examples are logs (those about sources: `SuppressionTests`).
    static let captureRules = descriptions.filter { !$0.aboutSources }

    @Test(arguments: captureRules)
    func triggeringExamplesYieldExactlyThatRuleOnTheMarkedLine(_ d: RuleDescription) {
        #expect(!d.triggeringExamples.isEmpty, "every rule documents a triggering example")
        for example in d.triggeringExamples {
            let (text, marked) = stripMarkers(example)
            #expect(marked.count == 1, "\(d.identifier): mark the reported line with ↓")
            let result = lintExample(text, d)
            let findings = result.findings
            #expect(findings.count == 1, "\(d.identifier) example gave \(result.summary)\n\(text)")
            #expect(findings.first?.rule == d.identifier, "\(d.identifier) example gave \(result.summary)")
            #expect(findings.first?.line == marked.first, "\(d.identifier) example gave \(result.summary)")
        }
    }

    @Test(arguments: captureRules)
    func nonTriggeringExamplesYieldNothing(_ d: RuleDescription) {
        #expect(!d.nonTriggeringExamples.isEmpty, "every rule documents a legal flow")
        for example in d.nonTriggeringExamples {
            let (text, _) = stripMarkers(example)
            let result = lintExample(text, d)
            // Memory warnings are information about a legal flow, not a violation of it.
            let findings = result.findings.filter { $0.rule != "memory_warning" || d.identifier == "memory_warning" }
            #expect(findings.isEmpty, "\(d.identifier) legal example gave \(result.summary)\n\(text)")
        }
    }

    /// A rule's example, with every rule on and the configuration the rule's examples run with.
    func lintExample(_ text: String, _ d: RuleDescription) -> FileResult {
        d.exampleConfiguration == nil ? lint(text, rules: .all) : Linter(options: exampleOptions(d)).lint(text: text)
    }

    /// A rule that checks only what a setting configures documents the configuration of its examples,
    /// and without it its examples give nothing (it is on, with nothing to check).
    @Test(arguments: descriptions.filter { $0.configuredBy != nil })
    func aConfiguredRuleChecksNothingUnconfigured(_ d: RuleDescription) throws {
        let yaml = try #require(d.exampleConfiguration, "\(d.identifier) runs its examples with a configuration")
        #expect(yaml.hasPrefix("\(d.configuredBy!):"))
        #expect(!d.isOptIn)
        for example in d.triggeringExamples {
            #expect(lint(stripMarkers(example).text, rules: .all).findings.isEmpty, "\(d.identifier) without \(d.configuredBy!)")
        }
    }

    @Test func identifiersAreUniqueAndSnakeCase() {
        let ids = RuleRegistry.identifiers
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0 == "_" }, "\(id)") }
    }

    /// A run's defaults are the rule descriptions' own (no second list to keep in step), and
    /// docs/rules.md, which users read as the contract, states each one.
    @Test func defaultsComeFromTheDescriptions() throws {
        let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for d in Self.descriptions {
            #expect(RuleSettings.default.enabled.contains(d.identifier) == !d.isOptIn, "\(d.identifier)")
            #expect(RuleSettings.default.severity(of: d) == d.severity, "\(d.identifier)")
            #expect(reference.contains("| `\(d.identifier)` | \(d.severity.rawValue) | \(RuleTable.defaultOn(d)) |"), "docs/rules.md states \(d.identifier)'s default")
        }
        #expect(RuleSettings.all.enabled == Set(RuleRegistry.identifiers))
    }
}

extension RuleDescription: CustomTestStringConvertible {
    public var testDescription: String { identifier }
}
