struct DeallocWhileVisibleRule: Rule {
    typealias Fact = DeallocWhileVisible
    static let factTag: UInt8 = 6

    init() {}
    static let description = RuleDescription(
        identifier: "dealloc_while_visible",
        name: "Dealloc while visible",
        severity: .error,
        summary: "A controller was deallocated while it was on screen (appeared, never disappeared).",
        rationale: """
        A visible controller is retained by its container or window. Being deallocated while \
        appeared means its view was taken over by another owner (its view added to another \
        hierarchy without the controller being a child) or the controller was released while its \
        view still shows: callbacks, rotation and trait changes stop reaching it.
        """,
        anchor: "the dealloc",
        triggeringExamples: [
            """
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[PromoViewController viewDidLoad]
            -[PromoViewController viewWillAppear:]
            -[PromoViewController viewDidAppear:]
            ↓-[PromoViewController dealloc]
            -[HomeViewController viewWillDisappear:]
            -[HomeViewController viewDidDisappear:]
            """,
        ],
        nonTriggeringExamples: [
            """
            -[HomeViewController viewDidLoad]
            -[HomeViewController viewWillAppear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController viewDidLoad]
            -[HomeViewController viewWillDisappear:]
            -[DetailViewController viewWillAppear:]
            -[HomeViewController viewDidDisappear:]
            -[DetailViewController viewDidAppear:]
            -[DetailViewController viewWillDisappear:]
            -[HomeViewController viewWillAppear:]
            -[DetailViewController viewDidDisappear:]
            -[HomeViewController viewDidAppear:]
            -[DetailViewController dealloc]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: DeallocWhileVisible, options: TimelineOptions) -> RuleVerdict {
        let dealloc = fact.dealloc, appeared = fact.appeared
        let since = appeared.map { " (visible since line \($0.line))" } ?? ""
        return RuleVerdict(
            message: "\(o.controller.display) was deallocated at line \(dealloc.line) while visible\(since); expected viewWillDisappear and viewDidDisappear before it goes away",
            related: appeared.map { [($0.line, "viewDidAppear")] } ?? [],
            cause: "dealloc-visible")
    }
}

/// A dealloc while the instance was on screen (appeared since `appeared`).
/// Emitted by `SessionTimeline+Removal.swift` (`deallocate`).
struct DeallocWhileVisible: Fact {
    var dealloc: EventRef
    var appeared: EventRef?

    func write(to w: inout ObservationWriter) {
        w.ref(dealloc)
        w.optionalRef(appeared)
    }
}

extension DeallocWhileVisible {
    init(reading r: inout ObservationReader) {
        dealloc = r.ref()
        appeared = r.optionalRef()
    }
}
