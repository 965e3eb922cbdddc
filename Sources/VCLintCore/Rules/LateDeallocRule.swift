struct LateDeallocRule: Rule {
    typealias Fact = LateDealloc
    static let factTag: UInt8 = 9

    init() {}
    static let description = RuleDescription(
        identifier: "late_dealloc",
        name: "Late dealloc",
        severity: .warning,
        summary: "Deallocated, but later than leak_grace_seconds after its removal.",
        rationale: """
        A removed controller should go away within the animation. When its dealloc comes seconds \
        later, something held it for a while: a timer, a network callback capturing self, an \
        animation completion, a delayed dispatch. Runtime leak finders would have cried leak; vclint \
        sees the whole capture and reports the delay instead.
        """,
        anchor: "the dealloc",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] -[DetailViewController viewDidLoad]
            2024-03-01 10:00:01.010 Shop[100:200] -[HomeViewController viewWillDisappear:]
            2024-03-01 10:00:01.020 Shop[100:200] -[DetailViewController viewWillAppear:]
            2024-03-01 10:00:01.400 Shop[100:200] -[HomeViewController viewDidDisappear:]
            2024-03-01 10:00:01.410 Shop[100:200] -[DetailViewController viewDidAppear:]
            2024-03-01 10:00:02.000 Shop[100:200] -[DetailViewController viewWillDisappear:]
            2024-03-01 10:00:02.010 Shop[100:200] -[HomeViewController viewWillAppear:]
            2024-03-01 10:00:02.400 Shop[100:200] -[HomeViewController viewDidAppear:]
            2024-03-01 10:00:02.410 Shop[100:200] -[DetailViewController viewDidDisappear:]
            ↓2024-03-01 10:00:08.900 Shop[100:200] -[DetailViewController dealloc]
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:02.000 Shop[100:200] -[DetailViewController viewWillDisappear:]
            2024-03-01 10:00:02.010 Shop[100:200] -[HomeViewController viewWillAppear:]
            2024-03-01 10:00:02.400 Shop[100:200] -[HomeViewController viewDidAppear:]
            2024-03-01 10:00:02.410 Shop[100:200] -[DetailViewController viewDidDisappear:]
            2024-03-01 10:00:02.900 Shop[100:200] -[DetailViewController dealloc]
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: LateDealloc, options: TimelineOptions) -> RuleVerdict {
        let removal = fact.removal, delay = fact.delay
        if removal.kind == .ownerDeallocated {
            let owner = fact.owner?.display ?? removal.takenAlongBy ?? "its owner"
            return RuleVerdict(
                message: "\(o.controller.display) was deallocated \(Wording.seconds(delay)) after its owner \(owner) (deallocated at line \(removal.anchor.line), grace \(Wording.seconds(options.leakGraceSeconds))); something held it after its owner went",
                related: [(removal.anchor.line, "owner's dealloc")],
                cause: "late:\(removal.kind.rawValue)", owner: fact.owner)
        }
        return RuleVerdict(
            message: "\(o.controller.display) was deallocated \(Wording.seconds(delay)) after it was \(removal.kind.verb) at line \(removal.evidence.line) (grace \(Wording.seconds(options.leakGraceSeconds))); something held it after its removal",
            related: [(removal.anchor.line, "removal")],
            cause: "late:\(removal.kind.rawValue)")
    }
}

/// A dealloc that came `delay` seconds after the removal (an object's: after its owner's dealloc),
/// more than the grace period.
/// Emitted by `SessionTimeline+Removal.swift` (`deallocate`).
struct LateDealloc: Fact {
    static var transitionConcern: TransitionConcern { .removal }
    var dealloc: EventRef
    var removal: Removal
    var delay: Double
    /// An object's owner (docs/lifecycle.md#objects).
    var owner: ControllerRef? = nil

    func write(to w: inout ObservationWriter) {
        w.ref(dealloc)
        w.removal(removal)
        w.double(delay)
        if let owner { w.byte(1); w.controller(owner) } else { w.byte(0) }
    }
}

extension LateDealloc {
    init(reading r: inout ObservationReader) {
        dealloc = r.ref()
        removal = r.removal()
        delay = r.double()
        owner = r.byte() == 0 ? nil : r.controller()
    }
}
