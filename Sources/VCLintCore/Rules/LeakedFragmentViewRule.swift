struct LeakedFragmentViewRule: Rule {
    typealias Fact = FragmentViewLeak
    static let factTag: UInt8 = 28

    init() {}
    static let description = RuleDescription(
        identifier: "leaked_fragment_view",
        name: "Android: leaked Fragment view",
        severity: .error,
        summary: "LeakCanary's heap analysis found a Fragment's view still retained after its onDestroyView.",
        rationale: """
        A Fragment on the back stack lives on after onDestroyView, but its view must go: the Fragment gets a \
        new one when it comes back. A field that still points at the old view (a binding, an adapter, a \
        listener) keeps the whole destroyed hierarchy. LeakCanary watched the view when the Fragment received \
        Fragment#onDestroyView(); clear such references in onDestroyView.
        """,
        anchor: "the trace's ╰→ line",
        triggeringExamples: [
            """
            ├─ com.amaze.filemanager.ui.fragments.AppsListFragment instance
            │    Leaking: NO (Fragment.mLifecycleRegistry.state is CREATED)
            │    ↓ AppsListFragment.rootView
            │                       ~~~~~~~~
            ↓╰→ androidx.constraintlayout.widget.ConstraintLayout instance
                 Leaking: YES (ObjectWatcher was watching this because com.amaze.filemanager.ui.fragments.AppsListFragment received Fragment#onDestroyView() callback (references to its views should be cleared to prevent leaks))
            """,
        ],
        nonTriggeringExamples: [
            // A back-stack fragment gets its view back; no LeakCanary evidence, no finding.
            """
            21933-21933/com.example.android.navigation I/TitleFragment: onDestroyView called
            21933-21933/com.example.android.navigation I/TitleFragment: onCreateView called
            21933-21933/com.example.android.navigation I/TitleFragment: onViewCreated called
            21933-21933/com.example.android.navigation I/TitleFragment: onStart called
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: FragmentViewLeak, options: TimelineOptions) -> RuleVerdict { fact.leak.verdict(rule: Self.description.identifier) }
}

/// What LeakCanary proved (such a trace that ends in a Fragment's view watched after Fragment#onDestroyView()), bound to its instance.
/// Emitted by `SessionTimeline+Evidence.swift` (`analysis`).
struct FragmentViewLeak: Fact, HeapLeakFact {
    var leak: HeapLeak
    init(_ leak: HeapLeak) { self.leak = leak }
}
