struct AppearanceBeforeLoadRule: Rule {
    typealias Fact = AppearanceBeforeLoad
    static let factTag: UInt8 = 3

    init() {}
    static let description = RuleDescription(
        identifier: "appearance_before_load",
        name: "Appearance before viewDidLoad",
        severity: .error,
        summary: "viewWillAppear/viewDidAppear before viewDidLoad on a controller created in the log.",
        rationale: """
        UIKit always loads the view (loadView, viewDidLoad) before it can appear. An appearance \
        callback first means the callbacks were invoked by hand (a container calling \
        viewWillAppear directly) or viewDidLoad does not call through to its logging, so setup that \
        lives in viewDidLoad has not happened when the controller shows.
        """,
        anchor: "the appearance callback",
        triggeringExamples: [
            """
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[BannerViewController init]
            ↓-[BannerViewController viewWillAppear:]
            -[BannerViewController viewDidLoad]
            -[BannerViewController viewDidAppear:]
            """,
        ],
        nonTriggeringExamples: [
            // Seed 001: init, loadView, viewDidLoad, then the push.
            """
            init:ViewController2
            loadView:ViewController2
            viewDidLoad:ViewController2
            viewWillAppear:ViewController2
            viewWillLayoutSubviews:ViewController2
            viewDidLayoutSubviews:ViewController2
            viewDidAppear:ViewController2
            """,
            // The log starts mid-flow: nothing about the controller's creation is known.
            """
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: AppearanceBeforeLoad, options: TimelineOptions) -> RuleVerdict {
        let event = fact.event
        return RuleVerdict(
            message: "\(o.controller.display) got \(event.kind.rawValue) before its viewDidLoad; expected the view to load (viewDidLoad) before it appears",
            cause: "appearance-before-load")
    }
}

/// An appearance callback before the instance's viewDidLoad, `created` being the line that began it.
/// Emitted by `SessionTimeline.swift` (`appearance`).
struct AppearanceBeforeLoad: Fact {
    static var transitionConcern: TransitionConcern { .joined }
    var event: EventRef
    var created: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.optionalRef(created)
    }
}

extension AppearanceBeforeLoad {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        created = r.optionalRef()
    }
}
