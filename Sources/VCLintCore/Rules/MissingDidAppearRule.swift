struct MissingDidAppearRule: Rule {
    typealias Fact = UnfinishedAppearance
    static let factTag: UInt8 = 0

    init() {}
    static let description = RuleDescription(
        identifier: "missing_did_appear",
        name: "Missing viewDidAppear",
        severity: .error,
        summary: "viewWillAppear was never completed by viewDidAppear.",
        rationale: """
        UIKit pairs every viewWillAppear with a viewDidAppear unless the transition is cancelled (an \
        interactive pop the user abandons). A controller stuck between the two usually means an \
        appearance transition was begun by hand (beginAppearanceTransition) and never ended, or a \
        container forwarded only half of the callbacks: work done in viewDidAppear (analytics, timers, \
        first responder) silently never happens. \
        At a session's end (the capture ends, the app is relaunched or killed) an open \
        will-callback is reported only when the session went on for at least leak_grace_seconds \
        after it (without timestamps: when other events followed its transition); a session that \
        ends sooner says nothing about it, since a UI test's runner kills the app in the middle of \
        an animation.
        """,
        anchor: "the viewWillAppear",
        triggeringExamples: [
            """
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController viewDidLoad]
            -[HomeViewController viewWillDisappear:]
            ↓-[DetailViewController viewWillAppear:]
            -[HomeViewController viewDidDisappear:]
            -[DetailViewController viewWillDisappear:]
            -[HomeViewController viewWillAppear:]
            -[DetailViewController viewDidDisappear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController dealloc]
            """,
        ],
        nonTriggeringExamples: [
            """
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController viewDidLoad]
            -[HomeViewController viewWillDisappear:]
            -[DetailViewController viewWillAppear:]
            -[HomeViewController viewDidDisappear:]
            -[DetailViewController viewDidAppear:]
            """,
            // The cancelled interactive pop of seed 002: Home's appearance is cancelled, not missing.
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

    func verdict(for o: Observation, _ fact: UnfinishedAppearance, options: TimelineOptions) -> RuleVerdict {
        let will = fact.will, reason = fact.reason
        return RuleVerdict(
            message: "\(o.controller.display) got viewWillAppear at line \(will.line) but never viewDidAppear: \(Wording.reason(reason)); expected viewDidAppear to complete the appearance",
            related: Wording.reasonRelated(reason),
            cause: Wording.reasonCause(reason))
    }
}

/// A viewWillAppear that its transition ended without a viewDidAppear.
/// Emitted by `SessionTimeline+Transitions.swift` (`incomplete`).
struct UnfinishedAppearance: Fact {
    static var transitionConcern: TransitionConcern { .current }
    var will: EventRef
    var reason: IncompleteReason

    func write(to w: inout ObservationWriter) {
        w.ref(will)
        w.reason(reason)
    }
}

extension UnfinishedAppearance {
    init(reading r: inout ObservationReader) {
        will = r.ref()
        reason = r.reason()
    }
}
