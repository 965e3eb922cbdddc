/// Why a pending will-callback was judged incomplete.
public enum IncompleteReason: Sendable, Equatable {
    case deallocated(EventRef)
    case sessionEnded
    /// The transition settled and the instance then went the other way (line of that callback).
    case superseded(EventRef)
    /// A did-callback for the other direction arrived.
    case contradicted(EventRef)
}

/// What the timeline saw that a rule may report. The timeline decides *that* something happened;
/// the rule decides how it is worded, at which severity, and whether it is enabled.
public enum ObservationKind: Sendable {
    case missingDidAppear(will: EventRef, reason: IncompleteReason)
    case missingDidDisappear(will: EventRef, reason: IncompleteReason)
    case didWithoutWill(did: EventRef, state: Appearance)
    case willInSameState(will: EventRef, state: Appearance, since: EventRef?)
    case appearanceBeforeLoad(event: EventRef, created: EventRef?)
    case duplicateViewDidLoad(event: EventRef, firstLoad: EventRef?)
    case eventAfterDealloc(event: EventRef, dealloc: EventRef)
    case deallocWhileVisible(dealloc: EventRef, appeared: EventRef?)
    case leaked(removal: Removal, anchor: EventRef, will: EventRef?, wentOn: Double?, confirmed: Bool)
    case lateDealloc(dealloc: EventRef, removal: Removal, delay: Double)
    case completionBeforeDisappearance(marker: EventRef, did: EventRef, will: EventRef?)
    case completionBeforeAppearance(marker: EventRef, did: EventRef, will: EventRef?)
    case willMoveWithoutDidMove(will: EventRef, reason: IncompleteReason)
    case removedWithoutWillMove(did: EventRef)
    case slowTransition(will: EventRef, did: EventRef, milliseconds: Double)
    case memoryWarning(event: EventRef, countInSession: Int)
    case uikitUnbalanced(event: EventRef, text: String)
    case uikitPresentationConflict(event: EventRef, text: String, others: [ControllerRef])
    /// An input in which no lifecycle event was read: its lines, those that mention a callback
    /// without being read, and the first of them.
    case noLifecycleEvents(lines: Int, unread: Int, firstUnread: Int?)
}

/// A rule applies to a class only if the callback it needs is logged for that class somewhere in
/// the input (lifecycle.md §3, instrumentation). Checked once the whole input is read.
public struct Requirement: Sendable, Equatable {
    public var className: String
    /// At least one of these kinds must be logged for the class.
    public var anyOf: [EventKind]
}

public struct Observation: Sendable {
    /// `no_lifecycle_events`'s observation of an input's statistics, or nil when it has events.
    public static func noEvents(_ stats: InputStats) -> Observation? {
        guard stats.events == 0 else { return nil }
        return Observation(kind: .noLifecycleEvents(lines: stats.lines, unread: stats.unrecognized, firstUnread: stats.firstUnrecognized),
                           controller: NoLifecycleEventsRule.subject, requires: nil, line: stats.firstUnrecognized ?? 1, time: nil)
    }

    public var kind: ObservationKind
    public var controller: ControllerRef
    public var requires: Requirement?
    /// The line the finding points at (lifecycle.md §5, last column).
    public var line: Int
    public var time: LogTime?
}
