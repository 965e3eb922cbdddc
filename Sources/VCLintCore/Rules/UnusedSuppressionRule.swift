struct UnusedSuppressionRule: Rule {
    typealias Fact = UnusedSuppression
    static let factTag: UInt8 = 21

    init() {}
    static let description = RuleDescription(
        identifier: "unused_suppression",
        name: "Unused suppression",
        severity: .info,
        summary: "A valid `// vclint:disable` comment in the app's sources (`--source-root`) that silenced nothing in the run.",
        rationale: """
        A suppression outlives the problem it was written for: the leak gets fixed, the class is \
        renamed, the comment drifts away from its declaration. Left in place it would silence the \
        next real finding of that class unseen. As SwiftLint's superfluous disable command rule does, \
        vclint reports a suppression that silenced no finding of the run, at the comment's file and \
        line (information only: a capture that did not show the class is no proof the comment is stale).
        """,
        anchor: "the comment's line in the source file",
        triggeringExamples: [
            """
            ↓// vclint:disable late_dealloc — the session screen is released with the window
            final class SessionViewController: UIViewController {}
            """,
            """
            final class SessionViewController: UIViewController {
            ↓    // vclint:disable-next-line leaked_controller — kept by the window
                override func viewDidLoad() {}
            }
            """,
        ],
        nonTriggeringExamples: [
            """
            // vclint:disable leaked_controller — the app-wide session screen lives forever
            final class SessionViewController: UIViewController {}
            """,
            """
            final class SessionViewController: UIViewController {
                // vclint:disable-next-line leaked_controller — kept by the window until logout
                deinit {}
            }
            """,
        ],
        aboutSources: true
    )

    func verdict(for o: Observation, _ fact: UnusedSuppression, options: TimelineOptions) -> RuleVerdict {
        let rules = fact.rules.joined(separator: ", ")
        let target: String
        switch (fact.scope, fact.callback) {
        case (.declaration, _) where o.controller.className == SourceSuppressions.noClass.className:
            target = "it is not on or just above a class declaration"
        case (.declaration, _): target = "no finding of \(o.controller.className) was silenced"
        case (.nextLine, nil): target = "the next line declares no deinit, dealloc or callback"
        case (.nextLine, let callback?): target = "no finding of \(o.controller.className) about \(callback) was silenced"
        }
        return RuleVerdict(message: "This vclint:\(fact.scope.directive) \(rules) comment silenced nothing in this run: \(target); remove it if the problem is gone",
                           cause: fact.scope.directive + ":" + fact.rules.joined(separator: ","))
    }
}

/// A valid suppression comment that silenced no finding of the run.
/// Emitted by `SourceSuppressions.swift` (`problems`, once the findings are known).
struct UnusedSuppression: Fact {
    var scope: SuppressionComment.Scope
    var rules: [String]
    var callback: String?

    func write(to w: inout ObservationWriter) {
        w.comment(scope, rules)
        w.optionalString(callback)
    }
}

extension UnusedSuppression {
    init(reading r: inout ObservationReader) {
        (scope, rules) = r.comment()
        callback = r.optionalString()
    }
}
