struct UIKitUnbalancedTransitionRule: Rule {
    typealias Fact = UIKitUnbalancedWarning
    static let factTag: UInt8 = 16

    init() {}
    static let description = RuleDescription(
        identifier: "uikit_unbalanced_transition",
        name: "UIKit: unbalanced appearance transitions",
        severity: .error,
        summary: "UIKit printed \"Unbalanced calls to begin/end appearance transitions\".",
        rationale: """
        UIKit's own detector for a transition started while another is in flight (pushing twice, \
        presenting during a push, a container calling beginAppearanceTransition without its end). \
        The controllers involved get their appearance callbacks out of order or not at all.
        """,
        anchor: "that line",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[HomeViewController viewDidLoad]
            ↓2024-03-01 10:00:01.100 Shop[100:200] Unbalanced calls to begin/end appearance transitions for <DetailViewController: 0x7fa1c8d0a200>.
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[HomeViewController viewDidLoad]
            2024-03-01 10:00:01.100 Shop[100:200] [Support] known issue: Unbalanced calls to begin/end appearance transitions when pushing twice
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: UIKitUnbalancedWarning, options: TimelineOptions) -> RuleVerdict {
        return RuleVerdict(
            message: "UIKit reported unbalanced begin/end appearance transitions for \(o.controller.display); expected one transition at a time (no push or present while another is in flight)",
            cause: "uikit-unbalanced")
    }
}

/// UIKit's "Unbalanced calls to begin/end appearance transitions" line.
/// Emitted by `SessionTimeline.swift` (`handle`).
struct UIKitUnbalancedWarning: Fact {
    var event: EventRef
    var text: String

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.string(text)
    }
}

extension UIKitUnbalancedWarning {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        text = r.string()
    }
}
