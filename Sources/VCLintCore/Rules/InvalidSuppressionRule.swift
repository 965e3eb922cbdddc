struct InvalidSuppressionRule: Rule {
    typealias Fact = InvalidSuppression
    static let factTag: UInt8 = 20

    init() {}
    static let description = RuleDescription(
        identifier: "invalid_suppression",
        name: "Invalid suppression",
        severity: .warning,
        summary: "A `// vclint:disable` comment in the app's sources (`--source-root`) without a reason, or naming no rule or an unknown one: it silences nothing.",
        rationale: """
        A suppression next to the code is a decision someone made about that class (the app-wide \
        session screen lives forever); the reason after the rule ids is what tells the next reader \
        why, as SwiftLint's and ESLint's reviewers ask for. A comment without one, or naming a rule \
        that does not exist (a typo silences nothing and would hide that it does), is reported \
        instead of obeyed, at the comment's file and line.
        """,
        anchor: "the comment's line in the source file",
        triggeringExamples: [
            """
            ↓// vclint:disable leaked_controller
            final class SessionViewController: UIViewController {}
            """,
            """
            ↓// vclint:disable leaked_controler — the app-wide session screen lives forever
            final class SessionViewController: UIViewController {}
            """,
        ],
        nonTriggeringExamples: [
            """
            // vclint:disable leaked_controller — the app-wide session screen lives forever
            final class SessionViewController: UIViewController {}
            """,
        ],
        aboutSources: true
    )

    func verdict(for o: Observation, _ fact: InvalidSuppression, options: TimelineOptions) -> RuleVerdict {
        RuleVerdict(message: "This vclint:\(fact.scope.directive) comment is invalid (\(fact.problem)), so it silences nothing; expected `// vclint:\(fact.scope.directive) RULE — reason`",
                    cause: fact.rules.joined(separator: ","))
    }
}

/// A suppression comment that names no rule or an unknown one, or gives no reason.
/// Emitted by `SourceSuppressions.swift` (`problems`, once the findings are known).
struct InvalidSuppression: Fact {
    var scope: SuppressionComment.Scope
    var rules: [String]
    var problem: String

    func write(to w: inout ObservationWriter) {
        w.comment(scope, rules)
        w.string(problem)
    }
}

extension InvalidSuppression {
    init(reading r: inout ObservationReader) {
        (scope, rules) = r.comment()
        problem = r.string()
    }
}

extension SuppressionComment.Scope {
    /// How the comment spells it.
    var directive: String { self == .nextLine ? "disable-next-line" : "disable" }
}
