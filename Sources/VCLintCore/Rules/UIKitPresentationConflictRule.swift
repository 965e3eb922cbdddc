struct UIKitPresentationConflictRule: Rule {
    typealias Fact = UIKitPresentationWarning
    static let factTag: UInt8 = 17

    init() {}
    static let description = RuleDescription(
        identifier: "uikit_presentation_conflict",
        name: "UIKit: presentation refused",
        severity: .error,
        summary: "UIKit printed one of the \"Attempt to present/dismiss …\" warnings.",
        rationale: """
        UIKit refused a present or dismiss: the presenter's view is not in the window hierarchy, it \
        is already presenting something, or another presentation or dismissal is in progress. The \
        screen the user was meant to see never appeared.
        """,
        anchor: "that line",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[HomeViewController viewDidLoad]
            ↓2024-03-01 10:00:01.100 Shop[100:200] Attempt to present <LoginViewController: 0x7fa1c8d0b000> on <HomeViewController: 0x7fa1c8d0a200> (from <HomeViewController: 0x7fa1c8d0a200>) whose view is not in the window hierarchy.
            """,
            """
            ↓Warning: Attempt to dismiss from view controller <SettingsViewController: 0x7fa1c8d0c000> while a presentation or dismiss is in progress!
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[HomeViewController viewDidLoad]
            2024-03-01 10:00:01.100 Shop[100:200] [Router] Attempt to present login again after 3 retries
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: UIKitPresentationWarning, options: TimelineOptions) -> RuleVerdict {
        let text = fact.text, others = fact.others
        let reason: String
        if text.contains("not in the window hierarchy") {
            reason = "its view is not in the window hierarchy"
        } else if text.contains("already presenting") {
            reason = "it is already presenting another controller"
        } else if text.contains("dismiss") && text.hasPrefix("Attempt to dismiss") || text.contains("Attempt to dismiss") {
            reason = "a presentation or dismiss is in progress"
        } else {
            reason = "a presentation is in progress"
        }
        let verb = text.contains("Attempt to dismiss") ? "dismiss from" : "present \(others.first?.display ?? "a controller") on"
        var cause = "uikit-conflict:"
        cause += text.contains("not in the window hierarchy") ? "not-in-window" : text.contains("already presenting") ? "already-presenting" : text.contains("Attempt to dismiss") ? "dismiss-in-progress" : "presentation-in-progress"
        return RuleVerdict(
            message: "UIKit refused to \(verb) \(o.controller.display): \(reason); expected the presenter to be on screen and idle",
            cause: cause)
    }
}

/// One of UIKit's "Attempt to present/dismiss …" lines, with the other controllers it names.
/// Emitted by `SessionTimeline.swift` (`handle`).
struct UIKitPresentationWarning: Fact {
    var event: EventRef
    var text: String
    var others: [ControllerRef]

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.string(text)
        w.controllers(others)
    }
}

extension UIKitPresentationWarning {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        text = r.string()
        others = r.controllers()
    }
}
