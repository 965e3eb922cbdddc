public struct MemoryWarningRule: Rule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "memory_warning",
        name: "Memory warning",
        severity: .info,
        summary: "didReceiveMemoryWarning was logged (counted per session).",
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
        guard case .memoryWarning(_, let count) = o.kind else { return nil }
        let nth = count == 1 ? "first" : "#\(count)"
        return RuleVerdict(
            message: "\(o.controller.display) received a memory warning (\(nth) in this session)",
            cause: "memory-warning")
    }
}
