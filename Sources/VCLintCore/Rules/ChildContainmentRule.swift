struct ChildContainmentRule: Rule {
    typealias Fact = ContainmentMismatch
    static let factTag: UInt8 = 12

    init() {}
    static let description = RuleDescription(
        identifier: "child_containment",
        name: "Child containment calls",
        severity: .warning,
        summary: "willMoveToParent never followed by didMoveToParent, or a child removed without willMoveToParent(nil).",
        rationale: """
        Container controllers must bracket adding a child with willMove(toParent:) (automatic in \
        addChild) and didMove(toParent:) (manual), and removing it with willMove(toParent: nil) \
        (manual) and didMove(toParent: nil) (automatic in removeFromParent). The manual halves are \
        the ones forgotten (seed 003); the child then misses its appearance callbacks or keeps \
        observers alive.
        """,
        anchor: "the unmatched call",
        triggeringExamples: [
            """
            ContainerViewController viewDidLoad()
            ContainerViewController viewWillAppear(_:)
            ContainerViewController viewDidAppear(_:)
            ChildViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController viewDidLoad()
            ChildViewController viewWillAppear(_:)
            ChildViewController viewDidAppear(_:)
            ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController viewWillDisappear(_:)
            ChildViewController viewDidDisappear(_:)
            ↓ChildViewController didMove(toParent:) nil
            ChildViewController deinit
            """,
        ],
        nonTriggeringExamples: [
            """
            ContainerViewController viewDidLoad()
            ContainerViewController viewWillAppear(_:)
            ContainerViewController viewDidAppear(_:)
            ChildViewController willMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController viewDidLoad()
            ChildViewController viewWillAppear(_:)
            ChildViewController viewDidAppear(_:)
            ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>
            ChildViewController willMove(toParent:) nil
            ChildViewController viewWillDisappear(_:)
            ChildViewController viewDidDisappear(_:)
            ChildViewController didMove(toParent:) nil
            ChildViewController deinit
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: ContainmentMismatch, options: TimelineOptions) -> RuleVerdict {
        switch fact {
        case .willMoveWithoutDidMove(let will, let reason):
            var why = Wording.reason(reason)
            if case .superseded(let e) = reason, e.kind == .willMoveToParent || e.kind == .didMoveToParent {
                why = "its removal began at line \(e.line) (\(e.kind == .willMoveToParent ? "willMove" : "didMove")(toParent: nil))"
            }
            return RuleVerdict(
                message: "\(o.controller.display) got willMove(toParent:) at line \(will.line) but never didMove(toParent:): \(why); expected didMove(toParent:) after adding the child",
                related: Wording.reasonRelated(reason),
                cause: "will-move-without-did")
        case .removedWithoutWillMove(let did):
            return RuleVerdict(
                message: "\(o.controller.display) was removed from its parent (didMove(toParent: nil) at line \(did.line)) without willMove(toParent: nil); expected willMove(toParent: nil) before removeFromParent",
                cause: "removed-without-will-move")
        }
    }
}

/// A willMove(toParent:) never followed by didMove(toParent:), or a child removed without willMove(toParent: nil).
/// Emitted by `SessionTimeline+Containment.swift` (`containment`) and `SessionTimeline+Removal.swift` (`deallocate`,
/// `finish`: the child went away, or the session ended, first).
enum ContainmentMismatch: Fact {
    case willMoveWithoutDidMove(will: EventRef, reason: IncompleteReason)
    case removedWithoutWillMove(did: EventRef)

    func write(to w: inout ObservationWriter) {
        switch self {
        case .willMoveWithoutDidMove(let will, let reason):
            w.byte(0)
            w.ref(will)
            w.reason(reason)
        case .removedWithoutWillMove(let did):
            w.byte(1)
            w.ref(did)
        }
    }

    init(reading r: inout ObservationReader) {
        switch r.byte() {
        case 0: self = .willMoveWithoutDidMove(will: r.ref(), reason: r.reason())
        default: self = .removedWithoutWillMove(did: r.ref())
        }
    }
}
