struct LibraryLeakRule: Rule {
    typealias Fact = LibraryLeak
    static let factTag: UInt8 = 29

    init() {}
    static let description = RuleDescription(
        identifier: "library_leak",
        name: "Android: library leak",
        severity: .warning,
        summary: "LeakCanary's heap analysis found an object retained by a known leak of the framework or a library (a trace under LIBRARY LEAKS).",
        rationale: """
        LeakCanary recognises leaks that the Android framework or a library causes, which the app can only \
        work around, and lists them apart. The object is retained all the same, so vclint reports it, as a \
        warning: the message names LeakCanary's leak pattern and its description of the bug.
        """,
        anchor: "the trace's ╰→ line",
        triggeringExamples: [
            """
            D/LeakCanary: 1 LIBRARY LEAKS
            D/LeakCanary: Leak pattern: instance field android.app.Activity$1#this$0
            ↓D/LeakCanary: ╰→ id.xxx.started_project.layer.presentation.home.MainActivity instance
            """,
        ],
        nonTriggeringExamples: [
            // An application leak is leaked_activity, not library_leak.
            """
            2021-04-28 16:54:52.604 11992-11992/com.example.space D/LeakCanary: Watching instance of com.example.space.service.ServiceActivity (com.example.space.service.ServiceActivity received Activity#onDestroy() callback) with key 47cfcd35-40b9-45c8-b648-f24d144cc927
            D/LeakCanary: All retained objects have been garbage collected
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: LibraryLeak, options: TimelineOptions) -> RuleVerdict { fact.leak.verdict(rule: Self.description.identifier) }
}

/// What LeakCanary proved (a trace under LIBRARY LEAKS), bound to its instance.
/// Emitted by `SessionTimeline+Evidence.swift` (`analysis`).
struct LibraryLeak: Fact, HeapLeakFact {
    var leak: HeapLeak
    init(_ leak: HeapLeak) { self.leak = leak }
}
