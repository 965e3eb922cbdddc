struct FragmentViewAfterDestroyViewRule: Rule {
    typealias Fact = FragmentViewAfterDestroyView
    static let factTag: UInt8 = 25

    init() {}
    static let description = RuleDescription(
        identifier: "fragment_view_after_destroy_view",
        name: "Android: Fragment view used without a view",
        severity: .error,
        summary: "A Fragment's view was used while it had none: androidx's getViewLifecycleOwner exception, or a view callback after onDestroyView.",
        rationale: """
        A Fragment on the back stack outlives its view: after onDestroyView the view is gone until the next \
        onCreateView. Code that reaches for the view in between (an observer bound to the fragment instead \
        of its viewLifecycleOwner, a callback that outlives the view) crashes with androidx's "Can't access \
        the Fragment View's LifecycleOwner" or works on a view nobody sees. View callbacks are checked only \
        for classes that log onCreateView somewhere in the input.
        """,
        anchor: "the exception line, or the view callback",
        triggeringExamples: [
            """
            2021-08-31 11:33:56.398 5615-5615/com.google.samples.apps.iosched E/AndroidRuntime: FATAL EXCEPTION: main
                Process: com.google.samples.apps.iosched, PID: 5615
            ↓    java.lang.IllegalStateException: Can't access the Fragment View's LifecycleOwner when getView() is null i.e., before onCreateView() or after onDestroyView()
                    at androidx.fragment.app.Fragment.getViewLifecycleOwner(Fragment.java:361)
                    at com.google.samples.apps.iosched.ui.sessiondetail.SessionFeedbackFragment.onCreateDialog(SessionFeedbackFragment.kt:148)
            """,
            """
            21933-21933/com.example.android.navigation I/TitleFragment: onCreateView called
            21933-21933/com.example.android.navigation I/TitleFragment: onDestroyView called
            ↓21933-21933/com.example.android.navigation I/TitleFragment: onViewCreated called
            """,
        ],
        nonTriggeringExamples: [
            // A back-stack fragment gets its view back.
            """
            21933-21933/com.example.android.navigation I/TitleFragment: onDestroyView called
            21933-21933/com.example.android.navigation I/TitleFragment: onCreateView called
            21933-21933/com.example.android.navigation I/TitleFragment: onViewCreated called
            21933-21933/com.example.android.navigation I/TitleFragment: onStart called
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: FragmentViewAfterDestroyView, options: TimelineOptions) -> RuleVerdict {
        switch fact {
        case .exception(_, let side, let destroyView):
            let when: String
            switch side {
            case .afterDestroyView: when = "after its onDestroyView" + (destroyView.map { " at line \($0.line)" } ?? "")
            case .beforeCreateView: when = "before its onCreateView"
            case .unknown: when = "before its onCreateView or after its onDestroyView"
            }
            return RuleVerdict(
                message: "\(o.controller.display)'s view was used \(when) (getViewLifecycleOwner threw); expected view work only between onCreateView and onDestroyView",
                related: destroyView.map { [($0.line, "onDestroyView")] } ?? [],
                cause: "view-misuse")
        case .callback(let event, let destroyView):
            let since = destroyView.map { " at line \($0.line)" } ?? ""
            return RuleVerdict(
                message: "\(o.controller.display) got \(event.kind.rawValue) after its onDestroyView\(since) with no onCreateView since; expected onCreateView first",
                related: destroyView.map { [($0.line, "onDestroyView")] } ?? [],
                cause: "view-callback:\(event.kind.rawValue)")
        }
    }
}

/// A Fragment's view used while it has none.
/// Emitted by `SessionTimeline+Android.swift` (`androidEvent`, `viewMisuse`).
enum FragmentViewAfterDestroyView: Fact {
    /// Which side of the view's life the timeline shows the exception on.
    enum Side: UInt8 { case unknown, beforeCreateView, afterDestroyView }
    /// androidx's `Can't access the Fragment View's LifecycleOwner` exception.
    case exception(EventRef, side: Side, destroyView: EventRef?)
    /// `onViewCreated` or `onViewStateRestored` after `onDestroyView`, with no `onCreateView` since.
    case callback(EventRef, destroyView: EventRef?)

    func write(to w: inout ObservationWriter) {
        switch self {
        case .exception(let ref, let side, let destroyView):
            w.byte(0)
            w.ref(ref)
            w.byte(side.rawValue)
            w.optionalRef(destroyView)
        case .callback(let ref, let destroyView):
            w.byte(1)
            w.ref(ref)
            w.optionalRef(destroyView)
        }
    }

    init(reading r: inout ObservationReader) {
        switch r.byte() {
        case 0: self = .exception(r.ref(), side: Side(rawValue: r.byte()) ?? .unknown, destroyView: r.optionalRef())
        default: self = .callback(r.ref(), destroyView: r.optionalRef())
        }
    }
}
