struct EventAfterDeallocRule: Rule {
    typealias Fact = EventAfterDealloc
    static let factTag: UInt8 = 5

    init() {}
    static let description = RuleDescription(
        identifier: "event_after_dealloc",
        name: "Callback after dealloc",
        severity: .error,
        summary: "A lifecycle callback for a controller after its dealloc.",
        rationale: """
        Nothing may reach a deallocated controller. A callback after dealloc is a message to a \
        zombie (an unsafe_unretained or assign reference, a notification observer never removed) or \
        a log that attributes one controller's callbacks to another; either way the timeline the app \
        believes in is not the real one. A new instance at a reused address is not this.
        """,
        anchor: "the callback",
        triggeringExamples: [
            """
            <DetailViewController: 0x7fa1c8d0a200> viewDidLoad
            <DetailViewController: 0x7fa1c8d0a200> viewWillAppear:
            <DetailViewController: 0x7fa1c8d0a200> viewDidAppear:
            <DetailViewController: 0x7fa1c8d0a200> viewWillDisappear:
            <DetailViewController: 0x7fa1c8d0a200> viewDidDisappear:
            <DetailViewController: 0x7fa1c8d0a200> dealloc
            ↓<DetailViewController: 0x7fa1c8d0a200> viewDidLayoutSubviews
            """,
        ],
        nonTriggeringExamples: [
            // The address is reused by a new instance: creation events start a new controller.
            """
            <DetailViewController: 0x7fa1c8d0a200> viewDidLoad
            <DetailViewController: 0x7fa1c8d0a200> viewWillAppear:
            <DetailViewController: 0x7fa1c8d0a200> viewDidAppear:
            <DetailViewController: 0x7fa1c8d0a200> viewWillDisappear:
            <DetailViewController: 0x7fa1c8d0a200> viewDidDisappear:
            <DetailViewController: 0x7fa1c8d0a200> dealloc
            <DetailViewController: 0x7fa1c8d0a200> viewDidLoad
            <DetailViewController: 0x7fa1c8d0a200> viewWillAppear:
            <DetailViewController: 0x7fa1c8d0a200> viewDidAppear:
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: EventAfterDealloc, options: TimelineOptions) -> RuleVerdict {
        let event = fact.event, dealloc = fact.dealloc
        return RuleVerdict(
            message: "\(o.controller.display) got \(event.kind.rawValue) after its dealloc at line \(dealloc.line); expected no callback once a controller is deallocated",
            related: [(dealloc.line, "dealloc")],
            cause: "after-dealloc")
    }
}

/// A callback for an instance after its dealloc.
/// Emitted by `SessionTimeline.swift` (`apply`).
struct EventAfterDealloc: Fact {
    var event: EventRef
    var dealloc: EventRef

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.ref(dealloc)
    }
}

extension EventAfterDealloc {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        dealloc = r.ref()
    }
}
