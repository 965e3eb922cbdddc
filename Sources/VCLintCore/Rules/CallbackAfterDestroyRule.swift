struct CallbackAfterDestroyRule: Rule {
    typealias Fact = CallbackAfterDestroy
    static let factTag: UInt8 = 24

    init() {}
    static let description = RuleDescription(
        identifier: "callback_after_destroy",
        name: "Android: callback after onDestroy",
        severity: .error,
        summary: "An Activity or Fragment got a lifecycle callback after its onDestroy (a Fragment's onDetach excepted).",
        rationale: """
        onDestroy is an Activity's or Fragment's last callback (a Fragment's onDetach follows it). A callback \
        after it reaches an instance the system has finished with: the app forwards callbacks to a stale \
        reference, or one logger attributes a new instance's callbacks to the old one. A creation callback \
        (onCreate, onAttach) after onDestroy is a new instance, not this.
        """,
        anchor: "the callback",
        triggeringExamples: [
            """
            10-19 10:20:27.092 21119-21119/com.ivy.activityfragmentlifecycle V/MyFragment: onDestroyView
            10-19 10:20:27.092 21119-21119/com.ivy.activityfragmentlifecycle V/MyFragment: onDestroy
            10-19 10:20:27.092 21119-21119/com.ivy.activityfragmentlifecycle V/MyFragment: onDetach
            ↓10-19 10:20:27.500 21119-21119/com.ivy.activityfragmentlifecycle V/MyFragment: onResume
            """,
        ],
        nonTriggeringExamples: [
            """
            10-19 10:23:38.660 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onStop
            10-19 10:23:38.660 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onDestroy
            10-19 10:24:06.052 29482-29482/com.ivy.activityfragmentlifecycle V/MainActivity: onCreate
            10-19 10:24:06.088 29482-29482/com.ivy.activityfragmentlifecycle V/MyFragment: onAttach
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: CallbackAfterDestroy, options: TimelineOptions) -> RuleVerdict {
        RuleVerdict(
            message: "\(o.controller.display) got \(fact.event.kind.rawValue) after its onDestroy at line \(fact.destroy.line); expected no callback once it is destroyed",
            related: [(fact.destroy.line, "onDestroy")],
            cause: "after-destroy")
    }
}

/// A callback of an Activity or Fragment after its `onDestroy` (once per instance).
/// Emitted by `SessionTimeline+Android.swift` (`androidEvent`).
struct CallbackAfterDestroy: Fact {
    var event: EventRef
    var destroy: EventRef

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.ref(destroy)
    }
}

extension CallbackAfterDestroy {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        destroy = r.ref()
    }
}
