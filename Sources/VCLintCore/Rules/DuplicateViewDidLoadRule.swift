struct DuplicateViewDidLoadRule: Rule {
    typealias Fact = SecondViewDidLoad
    static let factTag: UInt8 = 4

    init() {}
    static let description = RuleDescription(
        identifier: "duplicate_view_did_load",
        name: "Duplicate viewDidLoad",
        severity: .warning,
        summary: "A second viewDidLoad on one instance with no view unload in between.",
        rationale: """
        viewDidLoad runs once per loaded view. A second one without a view unload (viewDidUnload or a \
        memory warning on old iOS, or `self.view = nil`) means something assigned or reloaded the \
        view by hand, or called viewDidLoad directly: observers and subviews added there are now \
        added twice.
        """,
        anchor: "the second viewDidLoad",
        triggeringExamples: [
            """
            -[HomeViewController initWithNibName:bundle:]
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            ↓-[HomeViewController viewDidLoad]
            """,
        ],
        nonTriggeringExamples: [
            // Memory warning on iOS 5 (seed 001): the hidden controller's view is unloaded and reloaded.
            """
            init:ViewController1
            loadView:ViewController1
            viewDidLoad:ViewController1
            viewWillAppear:ViewController1
            viewDidAppear:ViewController1
            init:ViewController2
            loadView:ViewController2
            viewDidLoad:ViewController2
            viewWillDisappear:ViewController1
            viewWillAppear:ViewController2
            viewDidDisappear:ViewController1
            viewDidAppear:ViewController2
            didReceiveMemoryWarning:ViewController1
            viewWillUnload:ViewController1
            viewDidUnload:ViewController1
            loadView:ViewController1
            viewDidLoad:ViewController1
            viewWillDisappear:ViewController2
            viewWillAppear:ViewController1
            viewDidDisappear:ViewController2
            viewDidAppear:ViewController1
            dealloc:ViewController2
            """,
            // Two instances of one class: each loads once.
            """
            -[DetailViewController initWithNibName:bundle:]
            -[DetailViewController viewDidLoad]
            -[DetailViewController initWithNibName:bundle:]
            -[DetailViewController viewDidLoad]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: SecondViewDidLoad, options: TimelineOptions) -> RuleVerdict {
        let first = fact.firstLoad
        let firstText = first.map { " (first at line \($0.line))" } ?? ""
        return RuleVerdict(
            message: "\(o.controller.display) got a second viewDidLoad\(firstText) with no view unload in between; expected viewDidLoad once per loaded view",
            related: first.map { [($0.line, "first viewDidLoad")] } ?? [],
            cause: "second-load")
    }
}

/// A second viewDidLoad on one instance with no view unload in between.
/// Emitted by `SessionTimeline.swift` (`apply`).
struct SecondViewDidLoad: Fact {
    var event: EventRef
    var firstLoad: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.optionalRef(firstLoad)
    }
}

extension SecondViewDidLoad {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        firstLoad = r.optionalRef()
    }
}
