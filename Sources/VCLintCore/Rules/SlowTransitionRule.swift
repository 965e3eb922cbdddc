struct SlowTransitionRule: Rule {
    typealias Fact = SlowTransition
    static let factTag: UInt8 = 13

    init() {}
    static let description = RuleDescription(
        identifier: "slow_transition",
        name: "Slow transition",
        severity: .warning,
        isOptIn: true,
        summary: "A will→did appearance pair slower than slow_transition_ms (default 1000).",
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
        let what = will.kind == .viewWillAppear ? "appearance" : "disappearance"
        return RuleVerdict(
            message: "\(o.controller.display)'s \(what) took \(Int(ms.rounded())) ms from \(will.kind.rawValue) to \(did.kind.rawValue) (line \(did.line)); expected under \(Int(options.slowTransitionMilliseconds)) ms",
            related: [(did.line, did.kind.rawValue)],
            cause: "slow:\(what)")
    }
}

/// A will→did pair that took `milliseconds`.
/// Emitted by `SessionTimeline+Transitions.swift` (`finish`).
struct SlowTransition: Fact {
    static var transitionConcern: TransitionConcern { .current }
    var will: EventRef
    var did: EventRef
    var milliseconds: Double

    func write(to w: inout ObservationWriter) {
        w.ref(will)
        w.ref(did)
        w.double(milliseconds)
    }
}

extension SlowTransition {
    init(reading r: inout ObservationReader) {
        will = r.ref()
        did = r.ref()
        milliseconds = r.double()
    }
}
