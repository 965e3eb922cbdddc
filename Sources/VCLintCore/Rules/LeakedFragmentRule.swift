struct LeakedFragmentRule: Rule {
    typealias Fact = FragmentLeak
    static let factTag: UInt8 = 27

    init() {}
    static let description = RuleDescription(
        identifier: "leaked_fragment",
        name: "Android: leaked Fragment",
        severity: .error,
        summary: "LeakCanary's heap analysis found a Fragment still retained after its onDestroy.",
        rationale: """
        A Fragment kept after onDestroy keeps its arguments, its adapters and often its host Activity. \
        LeakCanary watched it when it received Fragment#onDestroy() and found it in the heap later; its trace \
        shows what holds it. A Fragment retained only because its leaked Activity is (a trace through a \
        Leaking: YES Activity that has a trace of its own, or watched in the same second as the Activity) is \
        folded into that leaked_activity finding.
        """,
        anchor: "the trace's ╰→ line",
        triggeringExamples: [
            """
             14:40:13.697 : Watching instance of androidx.lifecycle.ReportFragment (androidx.lifecycle.ReportFragment received Fragment#onDestroy() callback) with key a6736b89-2b06-4a09-b169-63a7ff3a5b7c
            ↓    ╰→ androidx.lifecycle.ReportFragment instance
                     Leaking: YES (ObjectWatcher was watching this because androidx.lifecycle.ReportFragment received Fragment#onDestroy() callback)
                     key = a6736b89-2b06-4a09-b169-63a7ff3a5b7c
            """,
        ],
        nonTriggeringExamples: [
            // The fragment was collected: its watch closes as released.
            """
             14:40:13.697 : Watching instance of androidx.lifecycle.ReportFragment (androidx.lifecycle.ReportFragment received Fragment#onDestroy() callback) with key a6736b89-2b06-4a09-b169-63a7ff3a5b7c
             14:40:19.001 : All retained objects have been garbage collected
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: FragmentLeak, options: TimelineOptions) -> RuleVerdict { fact.leak.verdict(rule: Self.description.identifier) }
}

/// What LeakCanary proved (such a trace that ends in a Fragment watched after Fragment#onDestroy()), bound to its instance.
/// Emitted by `SessionTimeline+Evidence.swift` (`analysis`).
struct FragmentLeak: Fact, HeapLeakFact {
    var leak: HeapLeak
    init(_ leak: HeapLeak) { self.leak = leak }
}
