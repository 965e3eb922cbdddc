struct NoLifecycleEventsRule: Rule {
    typealias Fact = NoLifecycleEvents
    static let factTag: UInt8 = 18

    init() {}
    static let description = RuleDescription(
        identifier: "no_lifecycle_events",
        name: "No lifecycle events",
        severity: .error,
        summary: "An input in which no lifecycle event was read: empty, the wrong capture, or a format vclint cannot read.",
        rationale: """
        A gate that passes on a capture it did not understand is worse than none. A broken capture \
        step (a `log stream` predicate that misses the app, `print` output that `log stream` never \
        sees, an empty file) would look like a clean app. The finding says how many lines were read \
        and how many mention callback names without being read; `vclint inspect` shows what vclint \
        made of the capture and, for unread lines that repeat as statements of the capture's own \
        format, a `.vclint.yml` dialect that reads them.
        """,
        anchor: "the first line that mentions a callback without being read, else line 1",
        triggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] [Network] GET https://api.example.com/feed -> 200
            ↓2024-03-01 10:00:01.100 Shop[100:200] [Analytics] queued screen event viewDidAppear for HomeViewController
            2024-03-01 10:00:01.200 Shop[100:200] [Analytics] queued screen event viewDidDisappear for HomeViewController
            """,
            """
            ↓root:x:0:0:root:/root:/bin/bash
            daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
            """,
            """
            ↓2024-03-01 10:00:00.100 Shop[100:200] Firebase initialized
            2024-03-01 10:00:00.200 Shop[100:200] AnalyticsService initialized
            """,
        ],
        nonTriggeringExamples: [
            """
            2024-03-01 10:00:01.000 Shop[100:200] [Network] GET https://api.example.com/feed -> 200
            2024-03-01 10:00:01.100 Shop[100:200] HomeViewController viewDidAppear(_:)
            """,
            """
            HomeViewController viewDidLoad
            HomeViewController viewWillAppear
            HomeViewController viewDidAppear
            """,
        ]
    )

    /// The input's own pseudo-controller: the finding is about the capture, not a controller.
    static let subject = ControllerRef(className: "(capture)", address: nil, instance: "(capture)")

    func verdict(for o: Observation, _ fact: NoLifecycleEvents, options: TimelineOptions) -> RuleVerdict {
        let lines = fact.lines, unread = fact.unread, first = fact.firstUnread
        let capture = "expected the app's lifecycle logs: check the capture step (a `log stream` predicate that misses the app, or `print` output, which `log stream` never sees)"
        if lines == 0 {
            return RuleVerdict(message: "The input is empty: no lifecycle event to lint; \(capture)", cause: "empty")
        }
        var read = "No lifecycle event was read in \(lines) line\(lines == 1 ? "" : "s")"
        if fact.initializers > 0 {
            // `Firebase initialized`: an initializer alone says nothing about a screen.
            read += " (only \(fact.initializers == 1 ? "1 initializer" : "\(fact.initializers) initializers"), which alone say nothing about a screen's lifecycle)"
        }
        if unread > 0, let first {
            let some = unread == 1 ? "1 line mentions a callback name" : "\(unread) lines mention callback names"
            return RuleVerdict(
                message: "\(read), but \(some) without being read (the first at line \(first)); expected lines vclint can read: `vclint inspect` shows them, with a `.vclint.yml` dialect when their shape is a statement of the capture's own format",
                cause: "unread")
        }
        return RuleVerdict(message: "\(read), and none mentions a callback name; \(capture)", cause: "no-mentions")
    }
}

/// An input in which no lifecycle event was read: its lines, those that mention a callback without being read, and
/// the first of them.
/// Emitted by `InputPipeline.swift` (`inputObservations`, when the input ends).
struct NoLifecycleEvents: Fact {
    var lines: Int
    var unread: Int
    var firstUnread: Int?
    /// Events that were only initializers (the input had nothing else).
    var initializers = 0

    func write(to w: inout ObservationWriter) {
        w.int(lines)
        w.int(unread)
        w.optionalInt(firstUnread)
        w.int(initializers)
    }
}

extension NoLifecycleEvents {
    init(reading r: inout ObservationReader) {
        lines = r.int()
        unread = r.int()
        firstUnread = r.optionalInt()
        initializers = r.int()
    }
}
