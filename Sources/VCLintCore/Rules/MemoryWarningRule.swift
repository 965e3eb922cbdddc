struct MemoryWarningRule: Rule {
    typealias Fact = MemoryWarnings
    static let factTag: UInt8 = 14

    init() {}
    static let description = RuleDescription(
        identifier: "memory_warning",
        name: "Memory warning",
        severity: .info,
        summary: "didReceiveMemoryWarning was logged: one finding per session, with how many and which classes.",
        rationale: """
        Not a lifecycle fault, but context for one: under memory pressure old iOS versions unload \
        hidden views (viewWillUnload, viewDidUnload, then a second loadView/viewDidLoad), and the \
        system may kill the app. Repeated warnings in one session point at a leak worth reading \
        together with leaked_controller.
        """,
        anchor: "the warning",
        triggeringExamples: [
            """
            HomeViewController viewDidLoad()
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            ↓HomeViewController didReceiveMemoryWarning()
            """,
        ],
        nonTriggeringExamples: [
            """
            HomeViewController viewDidLoad()
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            [Memory] footprint 212 MB after didReceiveMemoryWarning from the system
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: MemoryWarnings, options: TimelineOptions) -> RuleVerdict {
        let count = fact.countInSession, classes = fact.classes, classCount = fact.classCount
        var names = classes.joined(separator: ", ")
        if classCount > classes.count { names += " and \(classCount - classes.count) more" }
        let times = count == 1 ? "1 memory warning" : "\(count) memory warnings"
        return RuleVerdict(
            message: "The session received \(times), the first at this line (\(o.controller.display)); \(classCount == 1 ? "class" : "classes") that got one: \(names)",
            cause: "memory-warning")
    }
}

/// The session's memory warnings, reported once: the first, how many, and which classes got them (the first few, in
/// order, and how many classes in all).
/// Emitted by `SessionTimeline+Removal.swift` (`finish`, at the session's end).
struct MemoryWarnings: Fact {
    var event: EventRef
    var countInSession: Int
    var classes: [String]
    var classCount: Int

    func write(to w: inout ObservationWriter) {
        w.ref(event)
        w.int(countInSession)
        w.names(classes)
        w.int(classCount)
    }
}

extension MemoryWarnings {
    init(reading r: inout ObservationReader) {
        event = r.ref()
        countInSession = r.int()
        classes = r.names()
        classCount = r.int()
    }
}
