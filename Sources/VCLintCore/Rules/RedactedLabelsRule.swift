struct RedactedLabelsRule: Rule {
    typealias Fact = RedactedLabels
    static let factTag: UInt8 = 19

    init() {}
    static let description = RuleDescription(
        identifier: "redacted_labels",
        name: "Redacted labels",
        severity: .warning,
        summary: "Lifecycle statements whose controller name the unified log redacted (`<private> viewDidLoad`).",
        rationale: """
        `Logger` and `os_log` redact every interpolated string that is not marked public, so \
        `logger.debug("\\(self) viewDidLoad")` reaches `log show` and `log stream` as `<private> \
        viewDidLoad`. Such a statement names no class: vclint reads it as an event of the session's \
        unnamed controller, which is then every screen at once. Nothing tells those screens apart, so \
        vclint does not judge the unnamed controller of such an input: a leak or a missing callback \
        among them goes unseen, and this finding says so. \
        Interpolate the name with `privacy: .public` \
        (`logger.debug("\\(String(describing: self), privacy: .public) viewDidLoad")`), or hash it \
        with `privacy: .private(mask: .hash)`, which keeps one stable label per class. One finding per \
        input, with the count.
        """,
        anchor: "the first statement whose label was redacted",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] HomeViewController viewDidLoad
            ↓2024-03-01 10:00:01.100000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] <private> viewDidLoad
            2024-03-01 10:00:01.200000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] <private> viewWillAppear(_:)
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] HomeViewController viewDidLoad
            2024-03-01 10:00:01.100000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] HomeViewController viewWillAppear(_:)
            """,
            """
            2024-03-01 10:00:01.000000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] <mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='> viewDidLoad
            2024-03-01 10:00:01.100000+0800 0x1a2b3c   Debug       0x0                  100    0    Shop: [com.example.shop:lifecycle] <mask.hash: 'Cq7J2PmHv/1bnK2eXnY+Ww=='> viewWillAppear(_:)
            """,
        ]
    )

    /// The finding is about the capture, not a controller.
    static let subject = ControllerRef(className: "(capture)", address: nil, instance: "(capture)")

    static let fix = "interpolate the controller's name with `privacy: .public`, e.g. `logger.debug(\"\\(String(describing: self), privacy: .public) viewDidLoad\")`"

    func verdict(for o: Observation, _ fact: RedactedLabels, options: TimelineOptions) -> RuleVerdict {
        let n = fact.statements
        let some = n == 1 ? "1 lifecycle statement" : "\(n) lifecycle statements"
        return RuleVerdict(
            message: "\(some) lost the controller's name to the unified log's redaction (`<private>`, the first at line \(o.line)): they are read as the unnamed controller's, which is not judged; expected a readable name: \(Self.fix)",
            cause: "private")
    }
}

/// An input whose lifecycle statements lost their label to redaction (`<private> viewDidLoad`): how many.
/// Emitted by `InputPipeline.swift` (`inputObservations`, when the input ends).
struct RedactedLabels: Fact {
    var statements: Int

    func write(to w: inout ObservationWriter) {
        w.int(statements)
    }
}

extension RedactedLabels {
    init(reading r: inout ObservationReader) {
        statements = r.int()
    }
}
