struct CompletionBeforeAppearanceRule: Rule {
    typealias Fact = PresentCompletedEarly
    static let factTag: UInt8 = 11

    init() {}
    static let description = RuleDescription(
        identifier: "completion_before_appearance",
        name: "Present completion before viewDidAppear",
        severity: .error,
        summary: "A present completion (presentEnd) was logged before the presented controller's viewDidAppear.",
        rationale: """
        The completion of presentViewController:animated:completion: runs after the presented \
        controller's viewDidAppear (seed 000). A completion that runs first means it was attached to \
        another transition or invoked by hand; code in it that assumes the new screen is on display \
        (starting a tour, presenting again) races the animation.
        """,
        anchor: "the completion line",
        triggeringExamples: [
            """
            mainViewCtrl invoke viewDidLoad
            mainViewCtrl invoke viewWillAppear
            mainViewCtrl invoke viewDidAppear
            SecondViewController invoke viewDidLoad
            mainViewCtrl invoke viewWillDisappear
            SecondViewController invoke viewWillAppear
            mainViewCtrl invoke viewDidDisappear
            ↓mainViewCtrl present end
            SecondViewController invoke viewDidAppear
            """,
        ],
        nonTriggeringExamples: [
            """
            mainViewCtrl invoke viewDidLoad
            mainViewCtrl invoke viewWillAppear
            mainViewCtrl invoke viewDidAppear
            SecondViewController invoke viewDidLoad
            mainViewCtrl invoke viewWillDisappear
            SecondViewController invoke viewWillAppear
            SecondViewController invoke viewDidAppear
            mainViewCtrl invoke viewDidDisappear
            mainViewCtrl present end
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: PresentCompletedEarly, options: TimelineOptions) -> RuleVerdict {
        let marker = fact.marker, did = fact.did
        return RuleVerdict(
            message: "The present completion at line \(marker.line) ran before \(o.controller.display)'s viewDidAppear (line \(did.line)); expected the completion after the presented controller appeared",
            related: [(did.line, "viewDidAppear")],
            cause: "present-completion-early")
    }
}

/// A present completion (`marker`) logged before the presented controller's viewDidAppear (`did`).
/// Emitted by `SessionTimeline+Transitions.swift` (`finish`, when the late viewDidAppear arrives).
struct PresentCompletedEarly: Fact {
    static var transitionConcern: TransitionConcern { .current }
    var marker: EventRef
    var did: EventRef
    var will: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(marker)
        w.ref(did)
        w.optionalRef(will)
    }
}

extension PresentCompletedEarly {
    init(reading r: inout ObservationReader) {
        marker = r.ref()
        did = r.ref()
        will = r.optionalRef()
    }
}
