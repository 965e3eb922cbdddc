struct LeakedActivityRule: Rule {
    typealias Fact = ActivityLeak
    static let factTag: UInt8 = 26

    init() {}
    static let description = RuleDescription(
        identifier: "leaked_activity",
        name: "Android: leaked Activity",
        severity: .error,
        summary: "LeakCanary's heap analysis found a destroyed Activity still retained (a trace under APPLICATION LEAKS, or a 1.x leak block).",
        rationale: """
        An Activity holds its whole view hierarchy and everything its screens loaded; one that is kept after \
        onDestroy costs that much memory for as long as the reference that keeps it lives, and every rotation \
        can add another. LeakCanary proved it from a heap dump: its trace runs from a GC root to the Activity, \
        and the references underlined with ~~~ are the likely culprits (a static field, a listener never \
        unregistered, an inner class handed to a longer-lived object). The finding carries the chain on one \
        line, every node as a related line, and LeakCanary's signature as its fingerprint, so the same bug \
        keeps one baseline entry across heap dumps and devices. Objects retained along with the Activity \
        (its ReportFragment, its ViewModels) are named in the message, not reported apart.
        """,
        anchor: "the trace's ╰→ line (1.x: its `* leaks X instance` line)",
        triggeringExamples: [
            """
            2021-04-28 16:54:52.604 11992-11992/com.example.space D/LeakCanary: Watching instance of com.example.space.service.ServiceActivity (com.example.space.service.ServiceActivity received Activity#onDestroy() callback) with key 47cfcd35-40b9-45c8-b648-f24d144cc927
            2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary: Signature: f3f4dc33860ab6f9f13964f6a6942ee1b545
            2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary: │    ↓ ServiceActivity$2.this$0
            2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary: │                        ~~~~~~
            ↓2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary: ╰→ com.example.space.service.ServiceActivity instance
            2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary:      Leaking: YES (ObjectWatcher was watching this because com.example.space.service.ServiceActivity received
            2021-04-28 16:55:04.437 11992-12150/com.example.space D/LeakCanary:      Activity#onDestroy() callback and Activity#mDestroyed is true)
            """,
        ],
        nonTriggeringExamples: [
            // The watch closes as released.
            """
            2021-04-28 16:54:52.604 11992-11992/com.example.space D/LeakCanary: Watching instance of com.example.space.service.ServiceActivity (com.example.space.service.ServiceActivity received Activity#onDestroy() callback) with key 47cfcd35-40b9-45c8-b648-f24d144cc927
            D/LeakCanary: All retained objects have been garbage collected
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: ActivityLeak, options: TimelineOptions) -> RuleVerdict { fact.leak.verdict(rule: Self.description.identifier) }
}

/// What LeakCanary proved (a LeakCanary trace under APPLICATION LEAKS (or a 1.x block) that ends in an Activity watched after Activity#onDestroy()), bound to its instance.
/// Emitted by `SessionTimeline+Evidence.swift` (`analysis`).
struct ActivityLeak: Fact, HeapLeakFact {
    var leak: HeapLeak
    init(_ leak: HeapLeak) { self.leak = leak }
}
