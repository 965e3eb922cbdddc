struct MissingOnPauseRule: Rule {
    typealias Fact = MissingOnPause
    static let factTag: UInt8 = 22

    init() {}
    static let description = RuleDescription(
        identifier: "missing_on_pause",
        name: "Android: stopped or destroyed while resumed",
        severity: .error,
        summary: "An Activity or Fragment got onStop or onDestroy while resumed, with no onPause since its onResume.",
        rationale: """
        Android pauses an Activity or Fragment before it stops it: onPause is where an app releases the \
        camera, stops animations and commits unsaved input. An onStop (or onDestroy) that reaches a resumed \
        instance means the log lost the pause or the app forwards lifecycle callbacks by hand and skipped it; \
        either way the work done in onPause did not run. Only classes that log onPause somewhere in the input \
        are checked.
        """,
        anchor: "the onStop (or onDestroy)",
        triggeringExamples: [
            """
            10-19 10:23:35.132 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onResume
            ↓10-19 10:23:38.660 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onStop
            10-19 10:23:40.100 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onRestart
            10-19 10:23:40.110 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onStart
            10-19 10:23:40.120 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onResume
            10-19 10:23:41.000 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onPause
            """,
        ],
        nonTriggeringExamples: [
            """
            10-19 10:23:35.132 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onResume
            10-19 10:23:38.080 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onPause
            10-19 10:23:38.660 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onStop
            """,
            // Pause without stop (multi-window focus, a dialog-themed activity on top): legal.
            """
            10-19 10:23:35.132 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onResume
            10-19 10:23:38.080 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onPause
            10-19 10:23:39.000 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onResume
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: MissingOnPause, options: TimelineOptions) -> RuleVerdict {
        let since = fact.resumed.map { " since its onResume at line \($0.line)" } ?? ""
        return RuleVerdict(
            message: "\(o.controller.display) got \(fact.callback.kind.rawValue) while resumed\(since); expected onPause first",
            related: fact.resumed.map { [($0.line, "onResume")] } ?? [],
            cause: "missing-on-pause:\(fact.callback.kind.rawValue)")
    }
}

/// `onStop` or `onDestroy` on a resumed Activity or Fragment.
/// Emitted by `SessionTimeline+Android.swift` (`androidEvent`).
struct MissingOnPause: Fact {
    var callback: EventRef
    var resumed: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(callback)
        w.optionalRef(resumed)
    }
}

extension MissingOnPause {
    init(reading r: inout ObservationReader) {
        callback = r.ref()
        resumed = r.optionalRef()
    }
}
