struct RetainedUnconfirmedRule: Rule {
    typealias Fact = RetainedUnconfirmed
    static let factTag: UInt8 = 30

    init() {}
    static let description = RuleDescription(
        identifier: "retained_unconfirmed",
        name: "Android: retained objects never analysed",
        severity: .warning,
        summary: "LeakCanary counted retained objects, and the session ended with no heap analysis and no 'All retained objects have been garbage collected'.",
        rationale: """
        LeakCanary counts watched objects that survived a GC, but while the app is visible it dumps the heap \
        only at 5 of them. A capture that ends on a count above 0 holds objects that may be leaks and were \
        never proved either way. One finding per session names the watches still open; dump the heap (send \
        the app to the background, or tap LeakCanary's notification) or lower LeakCanary's \
        retainedVisibleThreshold in tests to get the proof.
        """,
        anchor: "the session's last retained count",
        triggeringExamples: [
            """
            ↓2020-09-30 21:44:24.069 7040-7071/io.flutter.add2apptest D/LeakCanary: Found 4 retained instances, which is less than the visible threshold of 5
            2020-09-30 21:44:24.073 7040-7071/io.flutter.add2apptest D/LeakCanary: Checking retained instances because Showing retained instance notification
            """,
        ],
        nonTriggeringExamples: [
            """
             14:41:12.829 : Rescheduling check for retained objects in 2000ms because found only 3 retained objects (< 5 while app visible)
             14:41:14.961 : Check for retained objects found 3 objects, dumping the heap
             14:41:25.996 : Found 3 paths to retained objects, down to 1 after removing duplicated paths
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: RetainedUnconfirmed, options: TimelineOptions) -> RuleVerdict {
        var open = fact.watches
        if fact.moreWatches > 0 { open.append("\(fact.moreWatches) more") }
        let watches = open.isEmpty ? "" : " (watched: \(open.joined(separator: ", ")))"
        let objects = fact.count == 1 ? "1 retained object" : "\(fact.count) retained objects"
        return RuleVerdict(
            message: "LeakCanary counted \(objects)\(watches) and the session ended with no heap analysis and no 'All retained objects have been garbage collected': possible leaks never proved; dump the heap (send the app to the background, or tap LeakCanary's notification)",
            related: fact.watchLines.map { ($0, "Watching instance") },
            cause: "retained-unconfirmed")
    }
}

/// A session's last LeakCanary retained count above 0 that nothing resolved: the count, and the watches still open
/// (the first few by name and line).
/// Emitted by `SessionTimeline+Evidence.swift` (`finishEvidence`).
struct RetainedUnconfirmed: Fact {
    var count: Int
    var watches: [String]
    var watchLines: [Int]
    var moreWatches: Int

    func write(to w: inout ObservationWriter) {
        w.int(count)
        w.names(watches)
        w.uint(UInt64(watchLines.count))
        for l in watchLines { w.int(l) }
        w.int(moreWatches)
    }
}

extension RetainedUnconfirmed {
    init(reading r: inout ObservationReader) {
        count = r.int()
        watches = r.names()
        watchLines = (0..<Int(r.uint())).map { _ in r.int() }
        moreWatches = r.int()
    }
}
