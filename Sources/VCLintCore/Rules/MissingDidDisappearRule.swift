struct MissingDidDisappearRule: Rule {
    typealias Fact = UnfinishedDisappearance
    static let factTag: UInt8 = 1

    init() {}
    static let description = RuleDescription(
        identifier: "missing_did_disappear",
        name: "Missing viewDidDisappear",
        severity: .error,
        summary: "viewWillDisappear was never completed by viewDidDisappear.",
        rationale: """
        The classic child-controller bug (seed 003): a child's view is removed with \
        removeFromSuperview while the containment calls are out of order, so UIKit sends \
        viewWillDisappear and never viewDidDisappear. Cleanup placed in viewDidDisappear (stopping \
        players, timers, observers) never runs. A cancelled interactive transition is not this bug. \
        At a session's end (the capture ends, the app is relaunched or killed) an open \
        will-callback is reported only when the session went on for at least leak_grace_seconds \
        after it (without timestamps: when other events followed its transition); a session that \
        ends sooner says nothing about it, since a UI test's runner kills the app in the middle of \
        an animation.
        """,
        anchor: "the viewWillDisappear",
        triggeringExamples: [
            """
            SplashViewController viewWillAppear(_:)
            SplashViewController viewDidAppear(_:)
            ContainerViewController viewDidLoad()
            SplashViewController viewWillDisappear(_:)
            ContainerViewController viewWillAppear(_:)
            SplashViewController viewDidDisappear(_:)
            ContainerViewController viewDidAppear(_:)
            ChildViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController viewDidLoad()
            ChildViewController viewWillAppear(_:)
            ChildViewController viewDidAppear(_:)
            ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController willMove(toParent:) nil
            ↓ChildViewController viewWillDisappear(_:)
            ChildViewController didMove(toParent:) nil
            ChildViewController deinit
            """,
        ],
        nonTriggeringExamples: [
            """
            ContainerViewController viewDidLoad()
            ContainerViewController viewWillAppear(_:)
            ContainerViewController viewDidAppear(_:)
            ChildViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController viewDidLoad()
            ChildViewController viewWillAppear(_:)
            ChildViewController viewDidAppear(_:)
            ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController willMove(toParent:) nil
            ChildViewController viewWillDisappear(_:)
            ChildViewController viewDidDisappear(_:)
            ChildViewController didMove(toParent:) nil
            ChildViewController deinit
            """,
            // Seed 002: the user starts a swipe back and lets go; Detail's disappearance is cancelled.
            """
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController viewDidLoad]
            -[HomeViewController viewWillDisappear:]
            -[DetailViewController viewWillAppear:]
            -[HomeViewController viewDidDisappear:]
            -[DetailViewController viewDidAppear:]
            -[DetailViewController viewWillDisappear:]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewWillDisappear:]
            -[HomeViewController viewDidDisappear:]
            -[DetailViewController viewWillAppear:]
            -[DetailViewController viewDidAppear:]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: UnfinishedDisappearance, options: TimelineOptions) -> RuleVerdict {
        let will = fact.will, reason = fact.reason
        return RuleVerdict(
            message: "\(o.controller.display) got viewWillDisappear at line \(will.line) but never viewDidDisappear: \(Wording.reason(reason)); expected viewDidDisappear to complete the disappearance",
            related: Wording.reasonRelated(reason),
            cause: Wording.reasonCause(reason))
    }
}

/// A viewWillDisappear that its transition ended without a viewDidDisappear.
/// Emitted by `SessionTimeline+Transitions.swift` (`incomplete`).
struct UnfinishedDisappearance: Fact {
    static var transitionConcern: TransitionConcern { .current }
    var will: EventRef
    var reason: IncompleteReason

    func write(to w: inout ObservationWriter) {
        w.ref(will)
        w.reason(reason)
    }
}

extension UnfinishedDisappearance {
    init(reading r: inout ObservationReader) {
        will = r.ref()
        reason = r.reason()
    }
}
