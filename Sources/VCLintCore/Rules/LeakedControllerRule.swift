struct LeakedControllerRule: Rule {
    typealias Fact = ControllerLeak
    static let factTag: UInt8 = 7

    init() {}
    static let description = RuleDescription(
        identifier: "leaked_controller",
        name: "Leaked controller",
        severity: .error,
        summary: "A controller left for good (popped, dismissed, removed) and was never deallocated.",
        rationale: """
        Once a controller is popped, dismissed or removed from its parent, nothing should keep it: a \
        controller that outlives its removal is held by a retain cycle (a closure capturing self, a \
        strong delegate, a timer, an observer). vclint reads the whole capture, so a late dealloc \
        clears the leak (see late_dealloc) and there is no false alarm for slow releases. A class \
        that never logs dealloc cannot be judged. When the capture ends within the grace period, \
        the leak is reported as an unconfirmed warning.
        """,
        anchor: "the removed controller's last viewDidDisappear (for one removed without callbacks, the viewDidDisappear of the controller whose removal took it along)",
        triggeringExamples: [
            """
            2024-03-01 10:00:00.000 Shop[100:200] -[HomeViewController viewDidLoad]
            2024-03-01 10:00:00.010 Shop[100:200] -[HomeViewController viewWillAppear:]
            2024-03-01 10:00:00.300 Shop[100:200] -[HomeViewController viewDidAppear:]
            2024-03-01 10:00:01.000 Shop[100:200] -[DetailViewController viewDidLoad]
            2024-03-01 10:00:01.010 Shop[100:200] -[HomeViewController viewWillDisappear:]
            2024-03-01 10:00:01.020 Shop[100:200] -[DetailViewController viewWillAppear:]
            2024-03-01 10:00:01.400 Shop[100:200] -[HomeViewController viewDidDisappear:]
            2024-03-01 10:00:01.410 Shop[100:200] -[DetailViewController viewDidAppear:]
            2024-03-01 10:00:02.000 Shop[100:200] -[DetailViewController viewWillDisappear:]
            2024-03-01 10:00:02.010 Shop[100:200] -[HomeViewController viewWillAppear:]
            2024-03-01 10:00:02.400 Shop[100:200] -[HomeViewController viewDidAppear:]
            ↓2024-03-01 10:00:02.410 Shop[100:200] -[DetailViewController viewDidDisappear:]
            2024-03-01 10:00:02.420 Shop[100:200] -[SettingsViewController viewDidLoad]
            2024-03-01 10:00:02.430 Shop[100:200] -[SettingsViewController dealloc]
            2024-03-01 10:00:09.000 Shop[100:200] Sync finished
            """,
        ],
        nonTriggeringExamples: [
            // The same pop, deallocated at once.
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
            2024-03-01 10:00:02.420 Shop[100:200] -[DetailViewController dealloc]
            2024-03-01 10:00:09.000 Shop[100:200] Sync finished
            """,
            // Pop to root (seed 000's recursive dismiss is the modal twin): the middle controller gets
            // no callbacks and is deallocated with the top one.
            """
            -[RootViewController viewDidLoad]
            -[RootViewController viewWillAppear:]
            -[RootViewController viewDidAppear:]
            -[ListViewController viewDidLoad]
            -[RootViewController viewWillDisappear:]
            -[ListViewController viewWillAppear:]
            -[RootViewController viewDidDisappear:]
            -[ListViewController viewDidAppear:]
            -[ItemViewController viewDidLoad]
            -[ListViewController viewWillDisappear:]
            -[ItemViewController viewWillAppear:]
            -[ListViewController viewDidDisappear:]
            -[ItemViewController viewDidAppear:]
            -[ItemViewController viewWillDisappear:]
            -[RootViewController viewWillAppear:]
            -[ItemViewController viewDidDisappear:]
            -[RootViewController viewDidAppear:]
            -[ItemViewController dealloc]
            -[ListViewController dealloc]
            """,
            // Tab switches (UITabBarController announces the new tab first): the hidden tab's root is
            // not removed, although it never deallocates and other controllers of the app do.
            """
            2024-03-01 10:00:00.000 Shop[100:200] FeedViewController viewDidLoad()
            2024-03-01 10:00:00.010 Shop[100:200] FeedViewController viewWillAppear(_:)
            2024-03-01 10:00:00.300 Shop[100:200] FeedViewController viewDidAppear(_:)
            2024-03-01 10:00:02.000 Shop[100:200] ProfileViewController viewDidLoad()
            2024-03-01 10:00:02.010 Shop[100:200] ProfileViewController viewWillAppear(_:)
            2024-03-01 10:00:02.020 Shop[100:200] FeedViewController viewWillDisappear(_:)
            2024-03-01 10:00:02.030 Shop[100:200] FeedViewController viewDidDisappear(_:)
            2024-03-01 10:00:02.040 Shop[100:200] ProfileViewController viewDidAppear(_:)
            2024-03-01 10:00:04.000 Shop[100:200] FeedViewController viewWillAppear(_:)
            2024-03-01 10:00:04.010 Shop[100:200] ProfileViewController viewWillDisappear(_:)
            2024-03-01 10:00:04.020 Shop[100:200] ProfileViewController viewDidDisappear(_:)
            2024-03-01 10:00:04.030 Shop[100:200] FeedViewController viewDidAppear(_:)
            2024-03-01 10:00:05.000 Shop[100:200] OnboardingViewController deinit
            2024-03-01 10:00:20.000 Shop[100:200] Sync finished
            """,
            // An iOS 13 page sheet: the presenter gets no callbacks; the sheet closes and is freed.
            """
            HomeViewController viewDidLoad()
            HomeViewController viewWillAppear(_:)
            HomeViewController viewDidAppear(_:)
            FilterViewController viewDidLoad()
            FilterViewController viewWillAppear(_:)
            FilterViewController viewDidAppear(_:)
            FilterViewController viewWillDisappear(_:)
            FilterViewController viewDidDisappear(_:)
            FilterViewController deinit
            """,
        ]
    )

    func verdict(for o: Observation, _ fact: ControllerLeak, options: TimelineOptions) -> RuleVerdict {
        let removal = fact.removal, will = fact.will, wentOn = fact.wentOn, confirmed = fact.confirmed
        let how: String
        if let along = removal.takenAlongBy {
            how = "\(removal.kind.verb) (\(along), line \(removal.evidence.line))"
        } else {
            how = "\(removal.kind.verb) at line \(removal.evidence.line)"
        }
        let grace = Wording.seconds(options.leakGraceSeconds)
        var related: [(line: Int, note: String)] = []
        if removal.evidence.line != o.line { related.append((removal.evidence.line, "removal")) }
        if let will, will.line != removal.evidence.line { related.append((will.line, "viewWillDisappear")) }
        related.sort { $0.line < $1.line }
        if confirmed {
            let tail = wentOn.map { "the session went on \(Wording.seconds($0)), grace \(grace)" } ?? "the session ended without it"
            return RuleVerdict(
                message: "\(o.controller.display) was \(how) but never deallocated (\(tail)); expected dealloc after its removal",
                related: related, cause: "leak:\(removal.kind.rawValue)")
        }
        return RuleVerdict(
            message: "\(o.controller.display) was \(how) but not deallocated before the log ended \(Wording.seconds(wentOn ?? 0)) later, within the \(grace) grace: unconfirmed leak",
            related: related, cause: "leak:\(removal.kind.rawValue)", severityCap: .warning)
    }
}

/// A controller removed for good and not deallocated: how long its session went on after the removal (nil without
/// timestamps) and whether that is past the grace period. `wentOn` and `confirmed` have a fixed width: a leak
/// decided before its session ends is completed in place (`ObservationList.complete`).
/// Emitted by `SessionTimeline+Removal.swift` (`leakObservation`, at the session's end or, in live mode, once the
/// grace period has passed).
struct ControllerLeak: Fact {
    static var transitionConcern: TransitionConcern { .removal }
    var removal: Removal
    var anchor: EventRef
    var will: EventRef?
    var wentOn: Double?
    var confirmed: Bool

    func write(to w: inout ObservationWriter) {
        w.removal(removal)
        w.ref(anchor)
        w.optionalRef(will)
        w.optionalDouble(wentOn)
        w.bool(confirmed)
    }
}

extension ControllerLeak {
    init(reading r: inout ObservationReader) {
        removal = r.removal()
        anchor = r.ref()
        will = r.optionalRef()
        wentOn = r.optionalDouble()
        confirmed = r.bool()
    }
}
