/// Callbacks that happen together: the will-callbacks of a push, pop, present… (docs/lifecycle.md#transitions).
final class Transition {
    enum Direction { case appear, disappear }

    /// An instance's part in the transition. A value, read and updated in place through its index
    /// (`memberIndex`): no allocation, and no reference counting, per member.
    struct Member {
        let instance: Instance
        let initialDirection: Direction
        var direction: Direction
        var done = false
        var failed = false
        let fromUnknown: Bool
        /// The will-callback that made it a member.
        let will: EventRef
        init(_ i: Instance, _ d: Direction, fromUnknown: Bool, will: EventRef) {
            instance = i
            initialDirection = d
            direction = d
            self.fromUnknown = fromUnknown
            self.will = will
        }
        var pending: Bool { !done && !failed }
    }

    @exclusivity(unchecked) private(set) var serial: Int
    /// At most one entry per instance (`SessionTimeline.begin` replaces an instance's old entry).
    @exclusivity(unchecked) var members: [Member] = []
    /// Navigation and modal transitions announce the disappearance first; a tab switch or a page
    /// scroll announces the new controller first (UITabBarController: new viewWillAppear, then the
    /// current viewWillDisappear). Only the former stack controllers on top of each other.
    @exclusivity(unchecked) var firstDirection: Direction?
    /// A member completed in the direction it started: the transition happened, no cancel is possible.
    @exclusivity(unchecked) var committed = false
    @exclusivity(unchecked) var cancelled = false
    @exclusivity(unchecked) var settled = false
    @exclusivity(unchecked) var lastTime: LogTime?
    /// The session's clock (which never goes back) at its last callback (`SessionTimeline.startsApart`).
    @exclusivity(unchecked) var lastClock: Double?
    /// The line of its latest callback.
    @exclusivity(unchecked) var lastLine = 0
    /// The session's event count at its latest callback (its age, in a log without time).
    @exclusivity(unchecked) var lastEvent = 0
    /// The completion marker that proves it over (`X present end`, `X dismiss end`): UIKit runs
    /// completions after the transition, so a member still pending then never completed.
    @exclusivity(unchecked) var endedBy: EventRef?
    /// The observations about it, which take its kind when it settles (`SessionTimeline.name`).
    @exclusivity(unchecked) var observations: [Int] = []

    init(serial: Int) { self.serial = serial }

    /// Makes a settled transition that nothing else holds a new one (`SessionTimeline` reuses the
    /// object and its members' buffer rather than freeing and allocating them at every transition).
    func reset(serial: Int) {
        self.serial = serial
        // Keeps the buffer; removeLast costs less than removeAll(keepingCapacity:)'s replaceSubrange.
        while !members.isEmpty { members.removeLast() }
        firstDirection = nil
        committed = false
        cancelled = false
        settled = false
        lastTime = nil
        lastClock = nil
        lastLine = 0
        lastEvent = 0
        endedBy = nil
        if !observations.isEmpty { observations.removeAll(keepingCapacity: true) }
    }

    /// The index of the instance's entry.
    func memberIndex(_ i: Instance) -> Int? {
        for k in members.indices where members[k].instance === i { return k }
        return nil
    }

    func isMember(_ i: Instance) -> Bool { memberIndex(i) != nil }

    var hasPending: Bool {
        for k in members.indices where members[k].pending { return true }
        return false
    }

    /// Marks the instance's entry failed if it is pending (its did-callback will not come); false
    /// when it has no pending entry.
    func failPending(_ i: Instance) -> Bool {
        guard let k = memberIndex(i), members[k].pending else { return false }
        members[k].failed = true
        return true
    }
}
