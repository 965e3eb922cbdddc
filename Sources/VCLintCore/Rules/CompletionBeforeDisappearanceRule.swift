struct CompletionBeforeDisappearanceRule: Rule {
    typealias Fact = DismissCompletedEarly
    static let factTag: UInt8 = 10

    init() {}
    static let description = RuleDescription(
        identifier: "completion_before_disappearance",
        name: "Dismiss completion before viewDidDisappear",
        severity: .error,
        summary: "A dismiss completion (dismissEnd) was logged before the dismissed controller's viewDidDisappear.",
        rationale: """
        UIKit calls the completion of dismissViewControllerAnimated:completion: after the dismissed \
        controller's viewDidDisappear (seed 000 relies on this to dismiss a chain recursively). A \
        completion that runs first means the dismissal was not the one the code thinks (the \
        completion belongs to another transition, or was called by hand), and code that presents \
        the next screen from it races the disappearing one.
        """,
        anchor: "the completion line",
        triggeringExamples: [
            """
            SecondViewController invoke viewDidLoad
            SecondViewController invoke viewWillAppear
            SecondViewController invoke viewDidAppear
            SecondViewController dismiss begin
            SecondViewController invoke viewWillDisappear
            mainViewCtrl invoke viewWillAppear
            mainViewCtrl invoke viewDidAppear
            ↓SecondViewController dismiss end
            SecondViewController invoke viewDidDisappear
            SecondViewController .......dealloc.......
            """,
        ],
        nonTriggeringExamples: [
            // Seed 000's real order: the completion comes after viewDidDisappear.
            """
            Child1ViewController dismiss begin
            Child1ViewController invoke viewWillDisappear
            SecondViewController invoke viewWillAppear
            SecondViewController invoke viewDidAppear
            Child1ViewController invoke viewDidDisappear
            Child1ViewController dismiss end
            SecondViewController dismiss begin
            Child1ViewController …….dealloc…….
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: DismissCompletedEarly, options: TimelineOptions) -> RuleVerdict {
        let marker = fact.marker, did = fact.did
        return RuleVerdict(
            message: "The dismiss completion at line \(marker.line) ran before \(o.controller.display)'s viewDidDisappear (line \(did.line)); expected the completion after the dismissed controller disappeared",
            related: [(did.line, "viewDidDisappear")],
            cause: "dismiss-completion-early")
    }
}

/// A dismiss completion (`marker`) logged before the dismissed controller's viewDidDisappear (`did`).
/// Emitted by `SessionTimeline.swift` (`appearance`, when the late viewDidDisappear arrives).
struct DismissCompletedEarly: Fact {
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

extension DismissCompletedEarly {
    init(reading r: inout ObservationReader) {
        marker = r.ref()
        did = r.ref()
        will = r.optionalRef()
    }
}
