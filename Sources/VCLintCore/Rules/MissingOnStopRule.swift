struct MissingOnStopRule: Rule {
    typealias Fact = MissingOnStop
    static let factTag: UInt8 = 23

    init() {}
    static let description = RuleDescription(
        identifier: "missing_on_stop",
        name: "Android: destroyed while started",
        severity: .error,
        summary: "An Activity or Fragment got onDestroy while started or paused, with no onStop since its onStart.",
        rationale: """
        Android stops an Activity or Fragment before it destroys it: onStop is where an app unregisters \
        receivers and listeners it registered in onStart. An onDestroy that reaches a started instance means \
        onStop never ran, and what it should have released outlives the instance. `finish()` called from \
        onCreate (onCreate, onDestroy) is legal. Only classes that log onStop somewhere in the input are checked.
        """,
        anchor: "the onDestroy",
        triggeringExamples: [
            """
            2022-01-20 14:01:32.623 6937-6937/com.example.geoquiz D/MainActivity: onStart() called
            2022-01-20 14:01:32.624 6937-6937/com.example.geoquiz D/MainActivity: onResume() called
            2022-01-20 14:02:12.239 6937-6937/com.example.geoquiz D/MainActivity: onPause() called
            2022-01-20 14:02:12.394 6937-6937/com.example.geoquiz D/MainActivity: onStop() called
            2022-01-20 14:02:12.394 6937-6937/com.example.geoquiz D/MainActivity: onDestroy() called
            2022-01-20 14:08:54.998 7183-7183/com.example.geoquiz D/MainActivity: onPause() called
            ↓2022-01-20 14:08:55.001 7183-7183/com.example.geoquiz D/MainActivity: onDestroy() called
            """,
        ],
        nonTriggeringExamples: [
            // A rotation recreate: the second onCreate is a new instance.
            """
            2022-01-20 14:08:54.998 7183-7183/com.example.geoquiz D/MainActivity: onPause() called
            2022-01-20 14:08:55.000 7183-7183/com.example.geoquiz D/MainActivity: onStop() called
            2022-01-20 14:08:55.001 7183-7183/com.example.geoquiz D/MainActivity: onDestroy() called
            2022-01-20 14:08:55.058 7183-7183/com.example.geoquiz D/MainActivity: onCreate(Bundle) called
            2022-01-20 14:08:55.067 7183-7183/com.example.geoquiz D/MainActivity: onStart() called
            2022-01-20 14:08:55.068 7183-7183/com.example.geoquiz D/MainActivity: onResume() called
            """,
            // finish() from onCreate.
            """
            01-05 09:00:00.100  4242  4242 D SplashActivity: onCreate
            01-05 09:00:00.140  4242  4242 D SplashActivity: onDestroy
            01-05 09:00:01.100  4242  4242 D SplashActivity: onCreate
            01-05 09:00:01.140  4242  4242 D SplashActivity: onStart
            01-05 09:00:01.160  4242  4242 D SplashActivity: onStop
            01-05 09:00:01.180  4242  4242 D SplashActivity: onDestroy
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: MissingOnStop, options: TimelineOptions) -> RuleVerdict {
        let since = fact.started.map { " since its onStart at line \($0.line)" } ?? ""
        return RuleVerdict(
            message: "\(o.controller.display) got onDestroy while started\(since); expected onStop first",
            related: fact.started.map { [($0.line, "onStart")] } ?? [],
            cause: "missing-on-stop")
    }
}

/// `onDestroy` on a started or paused Activity or Fragment.
/// Emitted by `SessionTimeline+Android.swift` (`androidEvent`).
struct MissingOnStop: Fact {
    var destroy: EventRef
    var started: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(destroy)
        w.optionalRef(started)
    }
}

extension MissingOnStop {
    init(reading r: inout ObservationReader) {
        destroy = r.ref()
        started = r.optionalRef()
    }
}
