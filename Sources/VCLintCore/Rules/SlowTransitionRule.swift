struct SlowTransitionRule: Rule {
    typealias Fact = SlowTransition
    static let factTag: UInt8 = 13

    init() {}
    static let description = RuleDescription(
        identifier: "slow_transition",
        name: "Slow transition",
        severity: .warning,
        isOptIn: true,
        summary: "A will→did appearance pair (on Android, a Displayed line) slower than slow_transition_ms (default 1000).",
        rationale: """
        Between viewWillAppear and viewDidAppear the user watches an animation; when it takes more \
        than a second, heavy work runs on the main thread in a will-callback or layout pass. Opt-in: \
        interactive transitions are legitimately as slow as the user's finger.
        """,
        anchor: "the will-callback",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[DetailViewController viewDidLoad]
            ↓2024-03-01 10:00:01.020 Shop[100:200] -[DetailViewController viewWillAppear:]
            2024-03-01 10:00:03.500 Shop[100:200] -[DetailViewController viewDidAppear:]
            """,
            // Android: the system's Displayed line, from the launch to the first frame.
            """
            ↓07-01 18:48:47.219  1949  1977 I ActivityTaskManager: Displayed com.eternalrave.app/.MainActivity for user 0: +23s157ms
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[DetailViewController viewDidLoad]
            2024-03-01 10:00:01.020 Shop[100:200] -[DetailViewController viewWillAppear:]
            2024-03-01 10:00:01.400 Shop[100:200] -[DetailViewController viewDidAppear:]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: SlowTransition, options: TimelineOptions) -> RuleVerdict {
        let will = fact.will, did = fact.did, ms = fact.milliseconds
        if fact.displayed {
            return RuleVerdict(
                message: "\(o.controller.display) was displayed \(Int(ms.rounded())) ms after its launch (the system's Displayed line); expected under \(Int(options.slowTransitionMilliseconds)) ms",
                cause: "slow:displayed")
        }
        let what = will.kind == .viewWillAppear ? "appearance" : "disappearance"
        return RuleVerdict(
            message: "\(o.controller.display)'s \(what) took \(Int(ms.rounded())) ms from \(will.kind.rawValue) to \(did.kind.rawValue) (line \(did.line)); expected under \(Int(options.slowTransitionMilliseconds)) ms",
            related: [(did.line, did.kind.rawValue)],
            cause: "slow:\(what)")
    }
}

/// A will→did pair that took `milliseconds`.
/// Emitted by `SessionTimeline+Transitions.swift` (`finish`) and, for Android's `Displayed` lines,
/// `SessionTimeline+Evidence.swift` (`displayed`).
struct SlowTransition: Fact {
    static var transitionConcern: TransitionConcern { .current }
    var will: EventRef
    var did: EventRef
    var milliseconds: Double
    /// Android's `Displayed` line (will and did are both its line): the time from the launch to the first frame.
    var displayed = false

    func write(to w: inout ObservationWriter) {
        w.ref(will)
        w.ref(did)
        w.double(milliseconds)
        w.bool(displayed)
    }
}

extension SlowTransition {
    init(reading r: inout ObservationReader) {
        will = r.ref()
        did = r.ref()
        milliseconds = r.double()
        displayed = r.bool()
    }
}
