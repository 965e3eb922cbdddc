import Testing
@testable import VCLintCore

/// One generic test over every rule's own examples (SwiftLint's pattern): the documentation and
/// the behaviour cannot drift apart.
@Suite struct RuleExampleTests {
    static let descriptions = RuleRegistry.all.map { type(of: $0).description }

    @Test(arguments: descriptions)
    func triggeringExamplesYieldExactlyThatRuleOnTheMarkedLine(_ d: RuleDescription) {
        #expect(!d.triggeringExamples.isEmpty, "every rule documents a triggering example")
        for example in d.triggeringExamples {
            let (text, marked) = stripMarkers(example)
            #expect(marked.count == 1, "\(d.identifier): mark the reported line with ↓")
            let result = lint(text, rules: .all)
            let findings = result.findings
            #expect(findings.count == 1, "\(d.identifier) example gave \(result.summary)\n\(text)")
            #expect(findings.first?.rule == d.identifier, "\(d.identifier) example gave \(result.summary)")
            #expect(findings.first?.line == marked.first, "\(d.identifier) example gave \(result.summary)")
        }
    }

    @Test(arguments: descriptions)
    func nonTriggeringExamplesYieldNothing(_ d: RuleDescription) {
        #expect(!d.nonTriggeringExamples.isEmpty, "every rule documents a legal flow")
        for example in d.nonTriggeringExamples {
            let (text, _) = stripMarkers(example)
            let result = lint(text, rules: .all)
            // Memory warnings are information about a legal flow, not a violation of it.
            let findings = result.findings.filter { $0.rule != "memory_warning" || d.identifier == "memory_warning" }
            #expect(findings.isEmpty, "\(d.identifier) legal example gave \(result.summary)\n\(text)")
        }
    }

    @Test func identifiersAreUniqueAndSnakeCase() {
        let ids = RuleRegistry.identifiers
        #expect(Set(ids).count == ids.count)
        for id in ids { #expect(id.allSatisfy { $0.isLowercase || $0 == "_" }, "\(id)") }
    }

    @Test func defaultsMatchTheSpec() {
        let expected: [String: (Severity, Bool)] = [
            "missing_did_appear": (.error, false), "missing_did_disappear": (.error, false),
            "unbalanced_appearance": (.error, false), "appearance_before_load": (.error, false),
            "duplicate_view_did_load": (.warning, false), "event_after_dealloc": (.error, false),
            "dealloc_while_visible": (.error, false), "leaked_controller": (.error, false),
            "late_dealloc": (.warning, false), "completion_before_disappearance": (.error, false),
            "completion_before_appearance": (.error, false), "child_containment": (.warning, false),
            "slow_transition": (.warning, true), "memory_warning": (.info, false),
            "uikit_unbalanced_transition": (.error, false), "uikit_presentation_conflict": (.error, false),
            "no_lifecycle_events": (.error, false),
        ]
        #expect(Set(expected.keys) == Set(RuleRegistry.identifiers))
        for d in Self.descriptions {
            #expect(d.severity == expected[d.identifier]?.0, "\(d.identifier)")
            #expect(d.isOptIn == expected[d.identifier]?.1, "\(d.identifier)")
        }
        #expect(!RuleSettings.default.enabled.contains("slow_transition"))
    }
}

extension RuleDescription: CustomTestStringConvertible {
    public var testDescription: String { identifier }
}
