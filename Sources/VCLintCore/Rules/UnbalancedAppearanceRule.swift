struct UnbalancedAppearanceRule: Rule {
    typealias Fact = UnbalancedAppearance
    static let factTag: UInt8 = 2

    init() {}
    static let description = RuleDescription(
        identifier: "unbalanced_appearance",
        name: "Unbalanced appearance callbacks",
        severity: .error,
        summary: "A did-callback without its will-callback, or a will-callback for the state the controller is already in.",
        rationale: """
        Appearance callbacks come in will/did pairs that alternate between appearing and \
        disappearing. A second viewWillAppear on a visible controller, or a viewDidDisappear that no \
        viewWillDisappear announced, means a container or a custom transition forwards appearance \
        callbacks by hand and gets them wrong — the same fault UIKit reports as "Unbalanced calls to \
        begin/end appearance transitions".
        """,
        anchor: "the offending callback",
        triggeringExamples: [
            """
            HomeViewController viewDidLoad()
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            ↓HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            HomeViewController viewWillDisappear(_:)
            HomeViewController viewDidDisappear(_:)
            """,
            """
            HomeViewController viewDidLoad()
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            ↓HomeViewController viewDidDisappear(_:)
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            HomeViewController viewWillDisappear(_:)
            HomeViewController viewDidDisappear(_:)
            """,
        ],
        nonTriggeringExamples: [
            // A tab switch back and forth: like push and pop, nothing unbalanced.
            """
            FeedViewController viewDidLoad()
            FeedViewController viewWillAppear(_:)
            FeedViewController viewDidAppear(_:)
            ProfileViewController viewDidLoad()
            FeedViewController viewWillDisappear(_:)
            ProfileViewController viewWillAppear(_:)
            FeedViewController viewDidDisappear(_:)
            ProfileViewController viewDidAppear(_:)
            ProfileViewController viewWillDisappear(_:)
            FeedViewController viewWillAppear(_:)
            ProfileViewController viewDidDisappear(_:)
            FeedViewController viewDidAppear(_:)
            """,
            // Present with the presented controller appearing first (seed 000's order).
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

    func verdict(for o: Observation, _ fact: UnbalancedAppearance, options: TimelineOptions) -> RuleVerdict {
        switch fact {
        case .didWithoutWill(let did, let state):
            let will = did.kind == .viewDidAppear ? "viewWillAppear" : "viewWillDisappear"
            return RuleVerdict(
                message: "\(o.controller.display) got \(did.kind.rawValue) without a preceding \(will) (it was \(state.rawValue)); expected \(will) first",
                cause: "did-without-will:\(did.kind.rawValue)")
        case .willInSameState(let will, let state, let since):
            let expected = will.kind == .viewWillAppear ? "viewWillDisappear/viewDidDisappear before appearing again" : "viewWillAppear/viewDidAppear before disappearing again"
            let sinceText = since.map { " since line \($0.line)" } ?? ""
            return RuleVerdict(
                message: "\(o.controller.display) got \(will.kind.rawValue) while already \(state.rawValue)\(sinceText); expected \(expected)",
                related: since.map { [($0.line, $0.kind.rawValue)] } ?? [],
                cause: "will-in-state:\(will.kind.rawValue):\(state.rawValue)")
        }
    }
}

/// A did-callback without its will-callback, or a will-callback for the state the instance is already in.
/// Emitted by `SessionTimeline.swift` (`appearance`).
enum UnbalancedAppearance: Fact {
    static var transitionConcern: TransitionConcern { .joined }
    case didWithoutWill(did: EventRef, state: Appearance)
    case willInSameState(will: EventRef, state: Appearance, since: EventRef?)

    func write(to w: inout ObservationWriter) {
        switch self {
        case .didWithoutWill(let did, let state):
            w.byte(0)
            w.ref(did)
            w.appearance(state)
        case .willInSameState(let will, let state, let since):
            w.byte(1)
            w.ref(will)
            w.appearance(state)
            w.optionalRef(since)
        }
    }

    init(reading r: inout ObservationReader) {
        switch r.byte() {
        case 0: self = .didWithoutWill(did: r.ref(), state: r.appearance())
        default: self = .willInSameState(will: r.ref(), state: r.appearance(), since: r.optionalRef())
        }
    }
}
