#if canImport(Glibc)
import Glibc
#endif

/// What transitions keep per session (`SessionTimeline.transitions`).
struct SessionTransitions {
    /// The latest transition, open or settled (reused once settled: `nextTransition`).
    var current: Transition?
    /// How many transitions have begun.
    var serial = 0
    /// How many live instances are appearing or visible (`setAppearance`).
    var visibleCount = 0
}

/// Transitions (docs/lifecycle.md#transitions): will-callbacks that happen together, their cancellation (an
/// interactive pop let go), and when a transition is over: every member completed, its completion
/// marker logged, an outsider's will-callback once every other member completed, or staleness.
extension SessionTimeline {
    /// Starts (or joins) the transition for a will-callback.
    func begin(_ inst: Instance, _ dir: Transition.Direction, _ ref: EventRef, fromUnknown: Bool) {
        setAppearance(inst, Appearance(LifecycleTable.moving(dir)))
        inst.pendingWill = ref
        inst.emitted.remove(.pendingWill)
        let t: Transition
        if let open = transitions.current, !open.settled, open.hasPending, !isOver(open, before: inst, at: ref) {
            if startsApart(open, at: ref) {
                setAside(open)
                transitions.serial += 1
                t = nextTransition()
            } else {
                t = open
            }
        } else {
            if let open = transitions.current, !open.settled { close(open, by: ref) }
            transitions.serial += 1
            t = nextTransition()
        }
        if let old = t.memberIndex(inst) {
            // Seen again in the same transition after completing: a new member entry.
            t.members.remove(at: old)
        }
        t.members.append(Transition.Member(inst, dir, fromUnknown: fromUnknown, will: ref))
        if t.firstDirection == nil { t.firstDirection = dir }
        t.lastTime = ref.time ?? t.lastTime
        t.lastClock = clock.lastTime?.seconds ?? t.lastClock
        t.lastLine = max(t.lastLine, ref.line)
        t.lastEvent = clock.eventCount
        inst.transition = t
        if dir == .appear, inst.firstAppearSerial == nil { inst.firstAppearSerial = inst.appearedEver ? 0 : t.serial }
    }

    /// Whether the open transition is over when `inst`'s will-callback comes
    /// (docs/lifecycle.md#when-a-transition-is-over): a member's own will is a cancellation or a new move
    /// (`appearance`); for a controller outside it, the transition is over when its completion marker was
    /// logged, when every other member has completed (the next push, sheet, pop or cancellation is not part
    /// of it), or when it stayed open much longer than an animation.
    func isOver(_ t: Transition, before inst: Instance, at ref: EventRef) -> Bool {
        if t.isMember(inst) { return false }
        if t.endedBy != nil || isStale(t, at: ref) { return true }
        var pending = 0, completed = 0
        for k in t.members.indices {
            if t.members[k].pending { pending += 1 } else { completed += 1 }
        }
        return pending == 1 && completed >= 1
    }

    /// Whether an outsider's will-callback at `ref` begins a transition of its own although `t` is
    /// still open and not over (docs/lifecycle.md#when-a-transition-is-over): none of `t`'s members has
    /// completed, and its last callback is longer ago than callbacks of one transition ever are apart
    /// (`joinSeconds`, plus what the times' precision hides). The wills of one transition (a push's
    /// two sides, a container and the children it shows) come within milliseconds of each other; a
    /// controller appearing alone whose did-callback is late or missing must not take in the next
    /// sheet or push. Without times nothing tells them apart, and it joins.
    func startsApart(_ t: Transition, at ref: EventRef) -> Bool {
        guard let last = t.lastClock, let now = clock.lastTime, let precision = ref.time?.precision else { return false }
        for k in t.members.indices where !t.members[k].pending { return false }
        return now.seconds - last > Self.joinSeconds + precision
    }
    static let joinSeconds = 1.0

    /// An open transition that a new one does not join (`startsApart`): its members still pending
    /// keep their will-callback, and their did-callback (late), their own next will-callback, their
    /// dealloc or the session's end decides it, as after a completion marker (`close`).
    func setAside(_ t: Transition) {
        for k in t.members.indices where t.members[k].pending { _ = t.failPending(t.members[k].instance) }
        if !t.settled { settle(t) }
    }

    /// An open transition that is over: its members that never completed get their missing_did_*.
    func close(_ t: Transition, by ref: EventRef) {
        for k in t.members.indices where t.members[k].pending {
            let member = t.members[k].instance
            guard member.isAlive, member.transition === t else { continue }
            let appearing = t.members[k].direction == .appear
            if t.endedBy != nil, let c = member.completionPending, c.appearing == appearing {
                // Its completion marker was logged: its did-callback may still come, late (after the
                // next transition began), and is then one completion_before_* at the marker; its
                // own next will-callback, its dealloc or the session's end says it never came.
                _ = t.failPending(member)
                continue
            }
            incomplete(member, appearing: appearing, reason: .superseded(t.endedBy ?? ref))
        }
        if !t.settled { settle(t) }
    }

    /// A new current transition. The previous one is settled, and its members no longer point at it:
    /// unless something else still holds it, it is reset and reused, with its members' buffer.
    func nextTransition() -> Transition {
        if isKnownUniquelyReferenced(&transitions.current), let t = transitions.current, t.settled {
            t.reset(serial: transitions.serial)
            return t
        }
        let t = Transition(serial: transitions.serial)
        transitions.current = t
        return t
    }

    /// A transition whose last callback is long past is over, even if some did-callback never came:
    /// a few seconds of log time (an animation takes a fraction of one), or without timestamps,
    /// many lifecycle events later.
    func isStale(_ t: Transition, at ref: EventRef) -> Bool {
        if let a = t.lastTime, let b = ref.time { return b.seconds - a.seconds > Self.staleSeconds }
        return clock.eventCount - t.lastEvent > Self.staleEvents
    }
    static let staleSeconds = 3.0
    static let staleEvents = 16

    /// The opposite will-callback while a will/did pair is open: an interactive transition that was
    /// cancelled (seed 002), legal while no member of its transition has completed the move.
    func cancel(_ inst: Instance, to dir: Transition.Direction, _ ref: EventRef) -> Bool {
        guard let t = inst.transition, !t.settled, let k = t.memberIndex(inst), t.members[k].pending, !t.committed else { return false }
        // An appearance is only cancelled by an interactive pop or dismissal, which has a controller
        // leaving; a lone appearing controller (a child, a sheet) cannot take it back. A lone
        // disappearance can be cancelled (a sheet swiped down and let go).
        if dir == .disappear, !t.members.indices.contains(where: { $0 != k && t.members[$0].initialDirection == .disappear }) { return false }
        t.members[k].direction = dir
        t.cancelled = true
        setAppearance(inst, Appearance(LifecycleTable.moving(dir)))
        inst.pendingWill = ref
        inst.emitted.remove(.pendingWill)
        t.lastTime = ref.time ?? t.lastTime
        t.lastClock = clock.lastTime?.seconds ?? t.lastClock
        t.lastLine = max(t.lastLine, ref.line)
        t.lastEvent = clock.eventCount
        return true
    }

    /// A did-callback completing the pending will.
    func finish(_ inst: Instance, _ ref: EventRef) {
        if let will = inst.pendingWill, let a = will.time, let b = ref.time {
            let ms = (b.seconds - a.seconds) * 1000
            if ms > options.slowTransitionMilliseconds {
                emit(SlowTransition(will: will, did: ref, milliseconds: ms), inst.ref, line: will.line, time: will.time, of: inst)
            }
        }
        if let t = inst.transition, let k = t.memberIndex(inst), t.members[k].pending {
            t.members[k].done = true
            if t.members[k].direction == t.members[k].initialDirection { t.committed = true }
            t.lastTime = ref.time ?? t.lastTime
            t.lastClock = clock.lastTime?.seconds ?? t.lastClock
            t.lastLine = max(t.lastLine, ref.line)
            t.lastEvent = clock.eventCount
        }
        if let c = inst.completionPending, c.appearing, ref.kind == .viewDidAppear {
            inst.completionPending = nil
            emit(PresentCompletedEarly(marker: c.marker, did: ref, will: nil), inst.ref, line: c.marker.line, time: c.marker.time, of: inst)
        }
        if ref.kind == .viewDidAppear { settleIfDone(inst.transition) }
    }

    func dropFromTransition(_ inst: Instance) {
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
    }

    /// A will-callback that never completed: one missing_did_* finding, then the pair is closed.
    func incomplete(_ inst: Instance, appearing: Bool, reason: IncompleteReason) {
        guard let will = inst.pendingWill else { return }
        inst.completionPending = nil
        if inst.emitted.contains(.pendingWill) {
            // Reported already, as a will for the state it was in: one root cause, one finding.
        } else if appearing {
            emit(UnfinishedAppearance(will: will, reason: reason), inst.ref, line: will.line, time: will.time,
                 requires: [.viewDidAppear], of: inst)
        } else {
            emit(UnfinishedDisappearance(will: will, reason: reason), inst.ref, line: will.line, time: will.time,
                 requires: [.viewDidDisappear], of: inst)
        }
        inst.pendingWill = nil
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
    }

    /// The log has a gap: a controller whose arrival was never logged is leaving in this transition,
    /// so the state of the others is what that unlogged arrival left (seed 000's excerpt).
    func gapExplains(_ inst: Instance, direction: Transition.Direction) -> Bool {
        guard let t = transitions.current, !t.settled, t.hasPending else { return false }
        for k in t.members.indices where t.members[k].instance !== inst {
            if t.members[k].fromUnknown && t.members[k].initialDirection != direction { return true }
        }
        return false
    }

    func settleIfDone(_ t: Transition?) {
        guard let t, !t.settled, !t.hasPending else { return }
        settle(t)
    }
}

extension Instance {
    /// Whether it was created for this transition (or its creation is not in the log).
    func createdFor(_ t: Transition) -> Bool {
        guard let epoch = initEpoch else { return true }
        return epoch >= t.serial - 1
    }

    /// Whether it had appeared before this transition (a "new" controller has not).
    func appearedBefore(_ t: Transition) -> Bool {
        if let first = firstAppearSerial { return first < t.serial }
        return false
    }
}
