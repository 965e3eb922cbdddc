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
            // Android: onResume on a resumed Activity (the class logs onCreate: no new instance).
            """
            04-11 09:44:57.350 11757-11757/cn.hotwoo.play:remote I/MainActivity: onCreate
            04-11 09:44:57.354 11757-11757/cn.hotwoo.play:remote I/MainActivity: onStart
            04-11 09:44:57.356 11757-11757/cn.hotwoo.play:remote I/MainActivity: onResume
            04-11 09:44:57.425 11757-11757/cn.hotwoo.play:remote I/MainActivity: onCreateOptionsMenu
            ↓04-11 09:44:59.237 11757-11757/cn.hotwoo.play:remote I/MainActivity: onResume
            04-11 09:45:01.000 11757-11757/cn.hotwoo.play:remote I/MainActivity: onPause
            """,
        ],
        nonTriggeringExamples: [
            // Android: one logger's two identical lines at one time are one event.
            """
            11-16 19:24:34.524    1203-1203/? D/LogLifeCycle﹕ pwittchen.com.androiddebugplayground.MainActivity [1384319084] ⟳ onCreate
            11-16 19:24:34.524    1203-1203/? D/LogLifeCycle﹕ pwittchen.com.androiddebugplayground.MainActivity [1384319084] ⟳ onCreate
            11-16 19:24:34.560    1203-1203/? D/LogLifeCycle﹕ pwittchen.com.androiddebugplayground.MainActivity [1384319084] ⟳ onStart
            """,
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
        case .android(let callback, let state, let since):
            let word = AndroidTable.State(rawValue: state)?.word ?? "unknown"
            let sinceText = since.map { " since line \($0.line)" } ?? ""
            return RuleVerdict(
                message: "\(o.controller.display) got \(callback.kind.rawValue) while \(word)\(sinceText); expected \(Self.androidExpectation(callback.kind))",
                related: since.map { [($0.line, $0.kind.rawValue)] } ?? [],
                cause: "android:\(callback.kind.rawValue):\(word)")
        }
    }

    /// What an Activity or Fragment gets before the callback again (docs/lifecycle.md#android-legal-orders).
    static func androidExpectation(_ k: EventKind) -> String {
        switch k {
        case .onStart: return "onStop before starting again"
        case .onResume: return "onPause before resuming again, or onRestart and onStart after onStop"
        case .onPause: return "onResume before pausing"
        default: return "onStart before stopping again"
        }
    }
}

/// A did-callback without its will-callback, or a will-callback for the state the instance is already in; on
/// Android, a callback repeated in the state it leads to, or out of its place.
/// Emitted by `SessionTimeline.swift` (`appearance`) and `SessionTimeline+Android.swift` (`androidEvent`).
enum UnbalancedAppearance: Fact {
    static var transitionConcern: TransitionConcern { .joined }
    case didWithoutWill(did: EventRef, state: Appearance)
    case willInSameState(will: EventRef, state: Appearance, since: EventRef?)
    /// An Android callback repeated in the state it leads to, or out of its place (`AndroidTable.State`'s raw value).
    case android(callback: EventRef, state: UInt8, since: EventRef?)

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
        case .android(let callback, let state, let since):
            w.byte(2)
            w.ref(callback)
            w.byte(state)
            w.optionalRef(since)
        }
    }

    init(reading r: inout ObservationReader) {
        switch r.byte() {
        case 0: self = .didWithoutWill(did: r.ref(), state: r.appearance())
        case 2: self = .android(callback: r.ref(), state: r.byte(), since: r.optionalRef())
        default: self = .willInSameState(will: r.ref(), state: r.appearance(), since: r.optionalRef())
        }
    }
}
