public struct MemoryWarningRule: Rule {
    public init() {}
    public static let description = RuleDescription(
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

    public func verdict(for o: Observation, options: TimelineOptions) -> RuleVerdict? {
        guard case .memoryWarning(_, let count, let classes, let classCount) = o.kind else { return nil }
        var names = classes.joined(separator: ", ")
        if classCount > classes.count { names += " and \(classCount - classes.count) more" }
        let times = count == 1 ? "1 memory warning" : "\(count) memory warnings"
        return RuleVerdict(
            message: "The session received \(times), the first at this line (\(o.controller.display)); \(classCount == 1 ? "class" : "classes") that got one: \(names)",
            cause: "memory-warning")
    }
}
