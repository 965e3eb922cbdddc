struct LeakedObjectRule: Rule {
    typealias Fact = ObjectLeakFact
    static let factTag: UInt8 = 8

    init() {}
    static let description = RuleDescription(
        identifier: "leaked_object",
        name: "Leaked object",
        severity: .error,
        summary: "A screen's object (view model, presenter, coordinator) outlived the controller that owns it.",
        rationale: """
        The objects a screen makes (its view model, presenter, interactor, router, coordinator, the \
        helpers made while it was set up) should go when the screen goes. One that is still alive \
        after its owner controller was deallocated is held by something else: a closure capturing \
        it, a singleton's observer list, a parent coordinator that never removed its child. The \
        owner is the controller (or SwiftUI view) that shares the object's name stem \
        (DetailViewModel and DetailViewController), else the one whose setup was running when the \
        object was made; objects made while no screen was being set up live as long as the app and \
        are never judged. A class that never logs its deinit cannot be judged; a deinit that comes \
        later than the grace period is late_dealloc instead.
        """,
        anchor: "the owner's dealloc",
        triggeringExamples: [
            // The second detail screen's view model outlives it (the first one's shows that the
            // class logs its deinit).
            """
            2024-03-01 10:00:01.000 Shop[100:200] DetailViewController viewDidLoad()
            2024-03-01 10:00:01.001 Shop[100:200] DetailViewModel init
            2024-03-01 10:00:01.020 Shop[100:200] DetailViewController viewWillAppear(_:)
            2024-03-01 10:00:01.410 Shop[100:200] DetailViewController viewDidAppear(_:)
            2024-03-01 10:00:02.000 Shop[100:200] DetailViewController viewWillDisappear(_:)
            2024-03-01 10:00:02.410 Shop[100:200] DetailViewController viewDidDisappear(_:)
            2024-03-01 10:00:02.420 Shop[100:200] DetailViewController deinit
            2024-03-01 10:00:02.430 Shop[100:200] DetailViewModel deinit
            2024-03-01 10:00:03.000 Shop[100:200] DetailViewController viewDidLoad()
            2024-03-01 10:00:03.001 Shop[100:200] DetailViewModel init
            2024-03-01 10:00:03.020 Shop[100:200] DetailViewController viewWillAppear(_:)
            2024-03-01 10:00:03.410 Shop[100:200] DetailViewController viewDidAppear(_:)
            2024-03-01 10:00:04.000 Shop[100:200] DetailViewController viewWillDisappear(_:)
            2024-03-01 10:00:04.410 Shop[100:200] DetailViewController viewDidDisappear(_:)
            ↓2024-03-01 10:00:04.420 Shop[100:200] DetailViewController deinit
            2024-03-01 10:00:09.000 Shop[100:200] Sync finished
            """,
        ],
        nonTriggeringExamples: [
            // The view model goes with its screen, before or after the screen's own deinit.
            """
            2024-03-01 10:00:01.000 Shop[100:200] DetailViewController viewDidLoad()
            2024-03-01 10:00:01.001 Shop[100:200] DetailViewModel init
            2024-03-01 10:00:01.020 Shop[100:200] DetailViewController viewWillAppear(_:)
            2024-03-01 10:00:01.410 Shop[100:200] DetailViewController viewDidAppear(_:)
            2024-03-01 10:00:02.000 Shop[100:200] DetailViewController viewWillDisappear(_:)
            2024-03-01 10:00:02.410 Shop[100:200] DetailViewController viewDidDisappear(_:)
            2024-03-01 10:00:02.420 Shop[100:200] DetailViewController deinit
            2024-03-01 10:00:02.600 Shop[100:200] DetailViewModel deinit
            2024-03-01 10:00:09.000 Shop[100:200] Sync finished
            """,
            // An app-lifetime service, made while no screen was being set up: never judged.
            """
            2024-03-01 10:00:00.000 Shop[100:200] HomeViewController viewDidLoad()
            2024-03-01 10:00:00.010 Shop[100:200] HomeViewController viewWillAppear(_:)
            2024-03-01 10:00:00.300 Shop[100:200] HomeViewController viewDidAppear(_:)
            2024-03-01 10:00:00.500 Shop[100:200] ImageCache init
            2024-03-01 10:00:00.600 Shop[100:200] HomeViewController viewWillDisappear(_:)
            2024-03-01 10:00:00.900 Shop[100:200] HomeViewController viewDidDisappear(_:)
            2024-03-01 10:00:01.000 Shop[100:200] HomeViewController deinit
            2024-03-01 10:00:09.000 Shop[100:200] ImageCache deinit
            """,
            // A view model class that never logs its deinit cannot be judged.
            """
            2024-03-01 10:00:01.000 Shop[100:200] DetailViewController viewDidLoad()
            2024-03-01 10:00:01.001 Shop[100:200] DetailViewModel init
            2024-03-01 10:00:01.020 Shop[100:200] DetailViewController viewWillAppear(_:)
            2024-03-01 10:00:01.410 Shop[100:200] DetailViewController viewDidAppear(_:)
            2024-03-01 10:00:02.000 Shop[100:200] DetailViewController viewWillDisappear(_:)
            2024-03-01 10:00:02.410 Shop[100:200] DetailViewController viewDidDisappear(_:)
            2024-03-01 10:00:02.420 Shop[100:200] DetailViewController deinit
            2024-03-01 10:00:09.000 Shop[100:200] Sync finished
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: ObjectLeakFact, options: TimelineOptions) -> RuleVerdict {
        switch fact {
        case .outlived(let leak): return verdict(for: o, leak, options: options)
        case .heap(let leak): return leak.verdict(rule: Self.description.identifier)
        }
    }

    private func verdict(for o: Observation, _ fact: ObjectLeak, options: TimelineOptions) -> RuleVerdict {
        let grace = Wording.seconds(options.leakGraceSeconds)
        let owner = fact.owner.display
        let deallocLine = fact.ownerGone.anchor.line
        var related: [(line: Int, note: String)] = []
        if let made = fact.made { related.append((made.line, "init")) }
        if fact.ownerGone.evidence.line != deallocLine { related.append((fact.ownerGone.evidence.line, "owner's removal")) }
        related.sort { $0.line < $1.line }
        let cause = "outlived-owner"
        if fact.confirmed {
            let tail = fact.wentOn.map { "the session went on \(Wording.seconds($0)) without its deinit, grace \(grace)" } ?? "the session ended without its deinit"
            return RuleVerdict(
                message: "\(o.controller.display) outlived \(owner), deallocated at line \(deallocLine) (\(tail)): expected it to go with its owner",
                related: related, cause: cause, owner: fact.owner)
        }
        return RuleVerdict(
            message: "\(o.controller.display) outlived \(owner), deallocated at line \(deallocLine), but the log ended \(Wording.seconds(fact.wentOn ?? 0)) later, within the \(grace) grace: unconfirmed leak",
            related: related, cause: cause, severityCap: .warning, owner: fact.owner)
    }
}

/// What leaked_object words: an object that outlived its owner (iOS: a missing deinit, docs/lifecycle.md#objects),
/// or one LeakCanary proved retained (Android: a ViewModel, a detached root view, a destroyed Service, an object
/// the app watches; docs/lifecycle.md#leakcanary). The first keeps a fixed-width encoding (`ObservationList.complete`).
/// Emitted by `SessionTimeline+Objects.swift` (`objectLeakObservation`) and `SessionTimeline+Evidence.swift` (`analysis`);
/// completed in place by `SessionTimeline+Removal.swift` (`completeLeak`).
enum ObjectLeakFact: Fact {
    case outlived(ObjectLeak)
    case heap(HeapLeak)

    func write(to w: inout ObservationWriter) {
        switch self {
        case .outlived(let leak): w.byte(0); leak.write(to: &w)
        case .heap(let leak): w.byte(1); leak.write(to: &w)
        }
    }

    init(reading r: inout ObservationReader) {
        self = r.byte() == 0 ? .outlived(ObjectLeak(reading: &r)) : .heap(HeapLeak(reading: &r))
    }
}

/// An object still alive after its owner's dealloc: the owner, its dealloc (`ownerGone.anchor`) and
/// removal (`ownerGone.evidence`), the object's init, and how long its session went on after the
/// owner's dealloc. `wentOn` and `confirmed` have a fixed width: a leak decided before its session
/// ends is completed in place (`ObservationList.complete`).
/// Emitted by `SessionTimeline+Objects.swift` (`objectLeakObservation`, at the session's end or, in live mode, once
/// the grace period has passed).
struct ObjectLeak: Sendable {
    var ownerGone: Removal
    var made: EventRef?
    var owner: ControllerRef
    var wentOn: Double?
    var confirmed: Bool

    func write(to w: inout ObservationWriter) {
        w.removal(ownerGone)
        w.optionalRef(made)
        w.controller(owner)
        w.optionalDouble(wentOn)
        w.bool(confirmed)
    }
}

extension ObjectLeak {
    init(reading r: inout ObservationReader) {
        ownerGone = r.removal()
        made = r.optionalRef()
        owner = r.controller()
        wentOn = r.optionalDouble()
        confirmed = r.bool()
    }
}
