#if canImport(Glibc)
import Glibc
#endif

/// Removal and leaks (docs/lifecycle.md#removal; the rules docs/rules.md#leaked_controller and
/// docs/rules.md#late_dealloc): what a
/// settled transition says about who left for good, removals taken back, deallocs, and the end of a
/// session (pending callbacks reported, removed controllers never deallocated reported as leaks).
extension SessionTimeline {
    /// Removal inference over a finished transition (docs/lifecycle.md#evidence-of-removal).
    func settle(_ t: Transition) {
        t.settled = true
        defer {
            // Members no longer need their transition; dropping the link frees both.
            for k in t.members.indices where t.members[k].instance.transition === t { t.members[k].instance.transition = nil }
        }
        if t.cancelled {
            name(t, popped: false, covering: false, tookAlong: false)
            return
        }
        var poppedAny = false, coveringAny = false, tookAlongAny = false
        // The members are walked in place rather than filtered into lists of the leaving and the
        // arriving: settling changes no member, and no instance dies meanwhile.
        let members = t.members
        let stacks = t.firstDirection == .disappear
        var cameAny = false
        for k in members.indices where members[k].direction == .appear { cameAny = true; break }
        for g in members.indices where members[g].direction == .disappear && members[g].instance.isAlive {
            let leaving = members[g].instance
            let will = members[g].will
            // Its viewDidDisappear in this transition, or (when that never came) the will-callback.
            let ownDid = leaving.lastDidDisappear.flatMap { $0.line > will.line ? $0 : nil }
            var popped = false
            // Pops and dismissals, like pushes, announce the leaving controller first.
            for c in members.indices where stacks && members[c].direction == .appear {
                let arriving = members[c].instance
                if let path = coverPath(from: arriving, to: leaving) {
                    let anchor = ownDid ?? will
                    markRemoved(leaving, .popped, evidence: anchor, anchor: anchor)
                    var leavingName: String?  // made once, for the first controller taken along
                    for middle in path where middle !== leaving && middle.isAlive && middle.appearance != .visible {
                        if leavingName == nil { leavingName = leaving.display }
                        markRemoved(middle, .poppedWithTop, evidence: anchor, anchor: anchor, takenAlongBy: leavingName)
                        if middle.removal?.kind == .poppedWithTop {
                            leaving.tookAlong.append(middle)
                            tookAlongAny = true
                        }
                    }
                    // Keeping the buffer: it is likely to be covered again (the next push or presentation).
                    if !arriving.coveredBy.isEmpty { arriving.coveredBy.removeAll() }
                    // Twins told apart wrongly are found out by a later pop (`takeTwinsStack`), which follows
                    // what was popped off what.
                    if leaving.address == nil, arriving.address == nil, arriving.poppedOff != nil || hasTwin(leaving) {
                        arriving.poppedOff = leaving
                    }
                    popped = true
                    poppedAny = true
                }
            }
            if popped { continue }
            if !cameAny {
                // Sheet dismissal or child removal, but only while something of ours stays on screen
                // (a system controller we cannot see may have covered it instead).
                if stillVisible(except: leaving) {
                    let anchor = ownDid ?? will
                    markRemoved(leaving, .closed, evidence: anchor, anchor: anchor)
                }
            } else if t.firstDirection == .disappear {
                // Pushed or presented over it: a controller made for this transition. One created
                // long before (a tab root instantiated at launch, a cached screen) is a sibling.
                for c in members.indices where members[c].direction == .appear {
                    let arriving = members[c].instance
                    guard arriving.isAlive && !arriving.appearedBefore(t) && arriving.createdFor(t) else { continue }
                    coveringAny = true
                    if !leaving.coveredBy.contains(where: { $0 === arriving }) {
                        if leaving.coveredBy.contains(where: { !$0.isAlive }) { leaving.coveredBy.removeAll { !$0.isAlive } }
                        leaving.coveredBy.append(arriving)
                    }
                }
            }
        }
        name(t, popped: poppedAny, covering: coveringAny, tookAlong: tookAlongAny)
    }

    /// Whether a live instance other than `inst` is on screen (or coming on screen).
    func stillVisible(except inst: Instance) -> Bool {
        let visible = transitions.visibleCount > (inst.isAlive && inst.appearance.isVisible ? 1 : 0)
        #if DEBUG
        // Debug builds (the test suite) check the count against a scan, where a scan is cheap.
        if identity.classes.count < 64 {
            var scanned = false
            for state in identity.classes.values {
                for i in state.live where i !== inst && i.appearance.isVisible { scanned = true }
            }
            assert(scanned == visible, "visibleCount \(transitions.visibleCount) disagrees with the live instances")
        }
        #endif
        return visible
    }

    /// The chain of instances from `arriving` up through what covered it to `leaving` (exclusive of
    /// `arriving`), or nil when `leaving` is not above it: breadth first, at most 256 nodes expanded.
    func coverPath(from arriving: Instance, to leaving: Instance) -> [Instance]? {
        // Most controllers are covered by nothing, or directly by the one leaving (a pop, a dismissal).
        if arriving.coveredBy.isEmpty { return nil }
        if leaving !== arriving, arriving.coveredBy.contains(where: { $0 === leaving }), leaving.isAlive { return [leaving] }
        // The nodes reached, in order (the queue), each with the index of the node it covers (the
        // paths, walked back). A node is seen when it carries this search's mark (no hashing).
        let mark = nextCoverMark()
        arriving.coverMark = mark
        var nodes: [Instance] = [arriving]
        var below: [Int] = [-1]
        var next = 0
        while next < nodes.count, next < 256 {
            let node = nodes[next]
            for above in node.coveredBy where above.isAlive && above.coverMark != mark {
                if above === leaving {
                    var path = [above]
                    var k = next
                    while k > 0 { path.append(nodes[k]); k = below[k] }
                    path.reverse()
                    return path
                }
                above.coverMark = mark
                nodes.append(above)
                below.append(next)
            }
            next += 1
        }
        return nil
    }

    /// A new search's mark (`Instance.coverMark`): numbered within 32 bits, never 0 (an instance no search reached).
    func nextCoverMark() -> Int {
        removals.coverSearches = removals.coverSearches & 0xFFFF_FFFF == 0xFFFF_FFFF ? 1 : removals.coverSearches + 1
        return removals.coverSearches
    }

    func markRemoved(_ inst: Instance, _ kind: RemovalKind, evidence: EventRef, anchor: EventRef, takenAlongBy: String? = nil) {
        if let existing = inst.removal, existing.kind == .dismissed || existing.kind == .removedFromParent { return }
        if let existing = inst.removal, existing.kind != kind || existing.anchor.line != anchor.line { resolveEmittedLeak(inst, .removedAgain) }
        // Removed after its transition settled (a didMove(toParent: nil) after the disappearance):
        // by that transition; one still open names it when it settles.
        let by: TransitionKind?
        if let t = inst.transition { by = t.settled && naming.hasLast && naming.lastSerial == t.serial ? naming.lastKind : nil }
        else { by = naming.inLast(inst) ? naming.lastKind : nil }
        inst.removal = Removal(kind: kind, evidence: evidence, takenAlongBy: takenAlongBy, anchor: anchor, transition: by)
        scheduleLeakCheck(inst)
    }

    /// Sets a removed controller's anchor (the line its leak is timed from).
    func moveRemovalAnchor(_ inst: Instance, to anchor: EventRef) {
        guard inst.isRemoved else { return }
        if inst.removal?.anchor.line != anchor.line { resolveEmittedLeak(inst, .removedAgain) }
        inst.removal?.anchor = anchor
        scheduleLeakCheck(inst)
    }

    /// Live mode: when the removal's leak falls due (`reportExpiredLeaks`).
    func scheduleLeakCheck(_ inst: Instance) {
        guard options.live, let r = inst.removal, let at = r.anchor.time ?? r.evidence.time else { return }
        removals.leakClock.push(at: at.seconds, inst)
    }

    func unremove(_ inst: Instance) {
        // A controller that appears again was not removed, whatever was inferred
        // (docs/lifecycle.md#covered-is-not-removed),
        // and neither were the controllers its inferred removal took along (a tab switch that
        // looked like a pop to root at first).
        // (Checked first: storing nil destroys the old value even when there is none.)
        if inst.isRemoved {
            inst.removal = nil
            resolveEmittedLeak(inst, .appearedAgain)
        }
        if inst.dismissPending != nil { inst.dismissPending = nil }
        if !inst.tookAlong.isEmpty {
            for m in inst.tookAlong where m.isAlive && m.removal?.kind == .poppedWithTop {
                m.removal = nil
                resolveEmittedLeak(m, .appearedAgain)
            }
            inst.tookAlong.removeAll()
        }
    }

    /// Live mode: a leak emitted when its grace passed (`reportExpiredLeaks`) that a later line
    /// changes (docs/lifecycle.md#live-mode): it is withdrawn from the observations, so the run's
    /// result is a batch run's, and the resolution is recorded for `LiveLinter` to print. The
    /// controller may leak again (a new removal).
    func resolveEmittedLeak(_ inst: Instance, _ cause: LeakResolution.Cause) {
        guard options.live, !removals.emittedLive.isEmpty,
              let (index, _) = removals.emittedLive.removeValue(forKey: ObjectIdentifier(inst)) else { return }
        withdrawEmittedLeak(at: Int(index), cause)
        inst.emitted.remove(.leak)
    }

    /// The leak at `index`, emitted live, withdrawn for `cause` at the current line (`LeakResolution`).
    func withdrawEmittedLeak(at index: Int, _ cause: LeakResolution.Cause) {
        let leak = context.observations[index]
        context.observations.withdraw(at: index)
        context.resolutions.append(LeakResolution(observation: index, leak: leak, cause: cause, line: clock.lastEventLine))
    }

    /// Live mode, at the session's end: the leaks emitted before it, worded as a batch run words
    /// them (how long the session went on in all), in place.
    func completeEmittedLeaks() {
        for (index, dialect) in removals.emittedLive.values { completeLeak(at: index, dialect: dialect) }
        removals.emittedLive = [:]
    }

    /// A leak among the observations, decided before its session ended, completed at the end: how
    /// long the session went on, and whether its class's dealloc must be logged for it to count.
    func completeLeak(at index: UInt32, dialect: Dialect) {
        let tag = context.observations.tag(at: Int(index))
        if tag == Int(ObservationList.withdrawnTag) { return }  // brought back (`bringBack`), or resolved
        if tag == RuleRegistry.objectLeakTag {
            guard case .outlived(var leak) = context.observations.fact(at: Int(index), as: ObjectLeakFact.self) else { return }
            (leak.wentOn, leak.confirmed) = leakTiming(leak.ownerGone)
            context.observations.complete(at: Int(index), fact: ObjectLeakFact.outlived(leak), requiresOwnDealloc: true)
            return
        }
        var leak = context.observations.fact(at: Int(index), as: ControllerLeak.self)
        (leak.wentOn, leak.confirmed) = leakTiming(leak.removal)
        context.observations.complete(at: Int(index), fact: leak, requiresOwnDealloc: !removals.deallocDialects.contains(dialect))
    }


    /// Live mode (`--follow`): a removed controller is leaked as soon as the grace period has passed
    /// in log time without its dealloc, instead of when the session ends.
    func reportExpiredLeaks(now: LogTime) {
        // The removals that fell due, earliest first: each is checked against what the controller
        // is now (deallocated, back on screen, forgotten, or its anchor moved since, which
        // scheduled it again), so a line costs nothing when no leak is due (time is linear in
        // the input, whatever the number of live controllers: docs/performance.md#speed).
        while let inst = removals.leakClock.popDue(now: now.seconds, grace: options.leakGraceSeconds) {
            guard Self.awaitsLeakVerdict(inst), let r = inst.removal, let at = r.anchor.time ?? r.evidence.time else { continue }
            let wentOn = now.seconds - at.seconds
            if wentOn >= options.leakGraceSeconds {
                reportLeak(inst, r, wentOn: wentOn, confirmed: true)
                // Worded again at the session's end, or withdrawn if a later line changes it.
                removals.emittedLive[ObjectIdentifier(inst)] = (UInt32(context.observations.count - 1), inst.dialect.family)
            }
        }
        removals.leakClock.compact(keep: Self.awaitsLeakVerdict)
    }

    /// Removed, still alive and reachable, and its leak not reported yet (a `leakClock` entry that
    /// is not stale).
    static func awaitsLeakVerdict(_ inst: Instance) -> Bool {
        inst.isRemoved && inst.isAlive && !inst.forgotten && !inst.emitted.contains(.leak)
    }

    func reportLeak(_ inst: Instance, _ r: Removal, wentOn: Double?, confirmed: Bool) {
        inst.emitted.insert(.leak)
        if r.kind == .ownerDeallocated {
            context.observations.append(objectLeakObservation(inst, r, wentOn: wentOn, confirmed: confirmed))
            return
        }
        // dealloc is instrumented when this class logs it, or every class of its dialect does.
        let requirement = removals.deallocDialects.contains(inst.dialect.family) ? nil : Requirement(className: inst.className, anyOf: [.dealloc])
        context.observations.append(Self.leakObservation(inst, r, wentOn: wentOn, confirmed: confirmed, requirement: requirement))
    }

    static func leakObservation(_ inst: Instance, _ r: Removal, wentOn: Double?, confirmed: Bool, requirement: Requirement?) -> Observation {
        let will = r.takenAlongBy == nil ? inst.lastWillDisappear.flatMap { $0.line < r.anchor.line ? $0 : nil } : nil
        return Observation(ControllerLeak(removal: r, anchor: r.anchor, will: will, wentOn: wentOn, confirmed: confirmed),
                           controller: inst.ref, requires: requirement, line: r.anchor.line, time: r.anchor.time, transition: r.transition)
    }

    /// The session's end: the leaks of the evicted instances, worded as `finish` words the others'
    /// (they wait among the observations and are completed in place: same fields, same length).
    func reportEvictedLeaks() {
        for (index, dialect) in removals.evictedLeaks { completeLeak(at: index, dialect: dialect) }
        removals.evictedLeaks = []
    }

    /// How long the session went on after a removal, and whether that is past the grace period.
    func leakTiming(_ r: Removal) -> (wentOn: Double?, confirmed: Bool) {
        Self.leakTiming(r, sessionEnd: sessionEndForLeaks, grace: options.leakGraceSeconds)
    }

    /// When the session ended, as its leaks are timed (nil: its capture has no times).
    var sessionEndForLeaks: LogTime? { clock.hasTimes ? clock.lastTime : nil }

    static func leakTiming(_ r: Removal, sessionEnd: LogTime?, grace: Double) -> (wentOn: Double?, confirmed: Bool) {
        guard let end = sessionEnd, let at = r.anchor.time ?? r.evidence.time else { return (nil, true) }
        let wentOn = max(0, end.seconds - at.seconds)
        return (wentOn, wentOn >= grace)
    }


    // MARK: - Dealloc and the end of the session

    func deallocate(_ inst: Instance, _ ref: EventRef) {
        let facts = LifecycleTable.step(LifecycleTable.State(inst.appearance), .dealloc).facts
        if facts.contains(.leavesMoveUnfinished) {
            incomplete(inst, appearing: inst.appearance == .appearing, reason: .deallocated(ref))
        } else if facts.contains(.deallocWhileVisible) {
            emit(DeallocWhileVisible(dealloc: ref, appeared: inst.lastAppear), inst.ref, line: ref.line, time: ref.time,
                 requires: [.viewWillDisappear, .viewDidDisappear], of: inst)
        }
        if case .adding(let will) = inst.parentState {
            emit(ContainmentMismatch.willMoveWithoutDidMove(will: will, reason: .deallocated(ref)), inst.ref, line: will.line, time: will.time,
                 requires: [.didMoveToParent], of: inst)
        }
        if inst.emitted.contains(.leak), let r = inst.removal {
            // Live mode printed its leak: the dealloc turns it into the late_dealloc below (or, exactly
            // at the grace, into nothing).
            var late = false
            if let removedAt = r.anchor.time ?? r.evidence.time, let at = ref.time { late = at.seconds - removedAt.seconds > options.leakGraceSeconds }
            resolveEmittedLeak(inst, late ? .deallocatedLate : .deallocated)
        }
        if let r = inst.removal, let removedAt = r.anchor.time ?? r.evidence.time, let at = ref.time {
            let delay = at.seconds - removedAt.seconds
            if delay > options.leakGraceSeconds, !inst.emitted.contains(.leak) {
                if r.kind == .ownerDeallocated {
                    let owner = inst.owner?.ref
                    context.observations.append(Observation(LateDealloc(dealloc: ref, removal: r, delay: delay, owner: owner), controller: inst.ref,
                                                            requires: Requirement(className: inst.className, anyOf: [.dealloc], object: true),
                                                            line: ref.line, time: ref.time))
                } else {
                    emit(LateDealloc(dealloc: ref, removal: r, delay: delay), inst.ref, line: ref.line, time: ref.time, of: inst)
                }
            }
        }
        if inst.ownerCandidate { ownerDeallocated(inst, ref, addressed: inst.address != nil) }
        leaveLive(inst)
        inst.dealloc = ref
        if let t = inst.transition, t.failPending(inst) { settleIfDone(t) }
        inst.transition = nil
        inst.coveredBy.removeAll()
        inst.tookAlong.removeAll()
        // A dead controller's own pops are not followed: no chain of the dead outlives them.
        if inst.poppedOff != nil { inst.poppedOff = nil }
        let state = classState(inst.className, dialect: inst.dialect.family)
        // Its one entry (removeAll(where:) costs a partition and a generic replaceSubrange).
        if let k = state.live.lastIndex(where: { $0 === inst }) { state.live.remove(at: k) }
        state.lastDead = inst
        // Others' `coveredBy` may still hold it: they skip dead entries (removing it from every live
        // controller here made each dealloc cost O(live controllers), quadratic on long captures).
        if let a = inst.address { rememberDead(a) }
    }

    /// The session ended (a relaunch, or the end of the capture): what was still pending is reported
    /// if the session went on long enough after it to show that it never came, removed controllers
    /// that were never deallocated are leaks (controllers merely alive were killed with the process).
    /// A relaunch is judged as the capture's end is: a UI test's runner kills the app between tests,
    /// often in the middle of an animation, and a relaunch after the last event changes no finding.
    func finish() {
        finishEvidence()
        // A transition a completion marker proved over is judged even if the capture ends at once.
        var endedByMarker: [ObjectIdentifier: EventRef] = [:]
        if let t = transitions.current, !t.settled {
            if let marker = t.endedBy {
                for k in t.members.indices where t.members[k].pending { endedByMarker[ObjectIdentifier(t.members[k].instance)] = marker }
            }
            settle(t)
        }
        if let (ref, who) = warnings.first {
            emit(MemoryWarnings(event: ref, countInSession: warnings.count, classes: warnings.classes, classCount: warnings.classCount), who,
                 line: ref.line, time: ref.time)
        }
        recorder?.finished(session: serial, deallocDialects: removals.deallocDialects, lastTime: clock.lastTime)
        reportPendingAndRelease(endedByMarker: endedByMarker)
        // The recording's lanes move into its flat lists now that nothing here holds their instances: each goes
        // as its lane moves.
        recorder?.released(session: serial)
    }

    /// What was still pending at the session's end is reported (`finish`), and its controllers are released.
    private func reportPendingAndRelease(endedByMarker: [ObjectIdentifier: EventRef]) {
        // The live lists as they are now (held: reporting may change a class's list, never these).
        let lists = identity.classes.values.map(\.live).filter { !$0.isEmpty }
        // A recording's folded controllers among them, as if they had stayed (`foldedInSerialOrder`).
        var folded = foldedInSerialOrder()
        Self.forEachOldestFirst(lists) { inst in
            if folded != nil { reportFolded(before: inst.serial, in: &folded!) }
            recorder?.settled(inst, session: serial)
            let pendingLine = inst.transition?.lastLine ?? inst.pendingWill?.line ?? 0
            let marker = endedByMarker[ObjectIdentifier(inst)]
            if marker != nil || wentOn(after: inst.pendingWill, lastLine: pendingLine) {
                let reason: IncompleteReason = marker.map { .superseded($0) } ?? .sessionEnded
                switch inst.appearance {
                case .appearing: incomplete(inst, appearing: true, reason: reason)
                case .disappearing: incomplete(inst, appearing: false, reason: reason)
                default: break
                }
            }
            if case .adding(let will) = inst.parentState, wentOn(after: will, lastLine: will.line) {
                emit(ContainmentMismatch.willMoveWithoutDidMove(will: will, reason: .sessionEnded), inst.ref, line: will.line, time: will.time,
                     requires: [.didMoveToParent], of: inst)
            }
            guard let r = inst.removal, !inst.emitted.contains(.leak) else { return }
            let (wentOn, confirmed) = leakTiming(r)
            reportLeak(inst, r, wentOn: wentOn, confirmed: confirmed)
        }
        if folded != nil { reportFolded(before: .max, in: &folded!) }
        folded = nil
        reportEvictedLeaks()
        reportFoldedLeaks()
        if options.live { completeEmittedLeaks() }
        // The session is over: release its controllers (memory follows live controllers only).
        for list in lists {
            for inst in list {
                inst.transition = nil
                inst.coveredBy.removeAll()
                inst.tookAlong.removeAll()
                // An owner's objects point back at it: the list goes, the objects' links stay.
                if let link = inst.objects, !link.owned.isEmpty { link.owned = [] }
            }
        }
        for state in identity.classes.values {
            state.live = []
            state.lastDead = nil
        }
        identity.byAddress.removeAll()
        identity.evicted.removeAll()
        objects = SessionObjects()
        removals.leakClock = LeakClock()
        transitions.visibleCount = 0
        transitions.current = nil
        identity.lastInitInstance = nil
        naming = TransitionNaming()
    }

    /// Whether the session went on long enough after `ref` to judge that something never came: a
    /// capture that stops, or a process that is killed, in the middle of an animation has not shown
    /// its end.
    func wentOn(after ref: EventRef?, lastLine: Int) -> Bool {
        guard let ref else { return false }
        if clock.hasTimes, let at = ref.time, let end = clock.lastTime {
            return end.seconds - at.seconds >= options.leakGraceSeconds
        }
        return clock.lastEventLine > max(lastLine, ref.line)
    }

    /// The instances of the classes' live lists in the order they were made: each list is in that
    /// order, so they are merged (a heap of one cursor per list) rather than copied into one sorted
    /// array, which for a million live controllers would be 8 MB more at the peak
    /// (memory follows the live controllers: docs/performance.md#memory).
    static func forEachOldestFirst(_ lists: [[Instance]], _ body: (Instance) -> Void) {
        if lists.count == 1 {
            for inst in lists[0] { body(inst) }
            return
        }
        // One cursor (list, position) per list, by the serial of the instance there.
        var heap = MinHeap<Int, (list: Int, pos: Int)>(lists.indices.map { (lists[$0][0].serial, ($0, 0)) })
        while let top = heap.min {
            let list = lists[top.value.list]
            let pos = top.value.pos
            body(list[pos])
            if pos + 1 < list.count {
                heap.replaceMin(list[pos + 1].serial, (top.value.list, pos + 1))
            } else {
                heap.popMin()
            }
        }
    }
}

/// Live mode's leak schedule (`SessionTimeline.reportExpiredLeaks`): a min-heap of removed
/// controllers by the time of their removal's anchor, pushed again whenever the anchor moves.
/// Entries that went stale (the controller was deallocated, came back, was reported) are dropped
/// when they come up, and the heap is compacted when it has doubled since the last compaction,
/// so it holds about twice the controllers whose leak is pending at most.
struct LeakClock {
    private var heap = MinHeap<Double, Instance>()
    private var compactAt = LeakClock.minimumCompaction
    private static let minimumCompaction = 1024

    var count: Int { heap.count }

    mutating func push(at: Double, _ inst: Instance) { heap.push(at, inst) }

    /// The earliest entry whose grace period has passed at `now` (`now − at ≥ grace`, as the rule
    /// computes it), removed from the schedule.
    mutating func popDue(now: Double, grace: Double) -> Instance? {
        guard let top = heap.min, now - top.key >= grace else { return nil }
        return heap.popMin()?.value
    }

    /// Drops the entries `keep` rejects, once the heap has doubled since the last time.
    mutating func compact(keep: (Instance) -> Bool) {
        guard heap.count >= compactAt else { return }
        heap.removeAll { !keep($0.value) }
        compactAt = max(Self.minimumCompaction, heap.count * 2)
    }
}

/// What removal and leak reporting keep per session (`SessionTimeline.removals`).
struct SessionRemovals {
    /// Live mode: removed controllers by when their leak falls due (`reportExpiredLeaks`).
    var leakClock = LeakClock()
    /// The leaks of removed controllers that no event can reach any more, already among the
    /// observations, to be worded at the session's end (`evictUnreachable`): each observation's
    /// index and its controller's dialect family (whether its dealloc is instrumented).
    var evictedLeaks: [(observation: UInt32, dialect: Dialect)] = []
    /// Live mode: the leaks emitted when their grace passed, by controller, until a later line
    /// resolves them (`resolveEmittedLeak`) or the session ends (`completeEmittedLeaks`): each
    /// observation's index and its controller's dialect family.
    var emittedLive: [ObjectIdentifier: (observation: UInt32, dialect: Dialect)] = [:]
    /// The dialect families whose dealloc the session logged (a leak needs its class's dealloc logged).
    var deallocDialects: Set<Dialect> = []
    /// The dialect of the latest dealloc (inserted already): skips hashing it again.
    var lastDeallocDialect: Dialect?
    /// Numbers `coverPath`'s searches (`Instance.coverMark`).
    var coverSearches = 0
}

/// The session's memory warnings (`SessionTimeline.warnings`), worded once at its end (`finish`).
struct WarningTally {
    var count = 0
    /// The first warning and its controller.
    var first: (ref: EventRef, who: ControllerRef)?
    /// The classes that got one: the first `classLimit` of them (the finding names a few, and memory
    /// stays bounded), and how many there were.
    var classes: [String] = []
    var classCount = 0
    static let classLimit = 8

    mutating func note(_ ref: EventRef, _ inst: Instance) {
        count += 1
        if first == nil { first = (ref, inst.ref) }
        if !classes.contains(inst.className) {
            if classes.count < Self.classLimit { classes.append(inst.className) }
            classCount += 1
        }
    }
}
