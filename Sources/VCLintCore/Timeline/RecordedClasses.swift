/// What `inspect` and `leaks` read of a recording's instances, per class (docs/performance.md#memory): how many
/// instances it had, of which dialects, which callbacks they logged, whether a missing dealloc of them is judged,
/// their owners. A recording with lanes (`timeline`, `report`) sums its lanes into it; one without (`leaks`,
/// `inspect`) sums each instance into a tally of its class and dialect (`ClassTallies`) as soon as nothing can
/// change what it adds, and keeps no lane: its memory follows the classes, not the instances.
public struct RecordedClass: Sendable {
    public var name: String
    /// In the order of their first instance.
    public var dialects: [Dialect] {
        if let more = moreDialects { return more }
        return (0..<Int(dialectCount)).map { Dialect(code: UInt8(truncatingIfNeeded: dialectCodes >> (8 * UInt64($0)))) }
    }
    public var instances: Int {
        get { Int(instanceCount) }
        set { instanceCount = Int32(clamping: newValue) }
    }
    /// The kinds its instances logged, in `EventKind.allCases`' order.
    public var callbacks: [EventKind] { CompactTimeline.kinds.indices.filter { kindBits & 1 << UInt64($0) != 0 }.map { CompactTimeline.kinds[$0] } }
    /// Its dialects' codes, a byte each in order (`moreDialects` past eight), and its kinds a bit each
    /// (`CompactTimeline.kindIndex`): a class costs no array of its own (and its counts 32 bits: about 72 bytes
    /// a class in all).
    var dialectCodes: UInt64 = 0
    var kindBits: UInt64 = 0
    var moreDialects: [Dialect]? = nil
    /// An object class's instances by owner class and why (`stem`, `setup`; an empty owner and `none` for
    /// app-lifetime instances).
    public var owners: [String: Int] = [:]
    var instanceCount: Int32 = 0
    /// What the table of unjudged classes counts (`UnjudgedClass`): instances other than SwiftUI views, those
    /// removed and never deallocated (an Android one: whose use ended), whether one of them is judged, and
    /// whether one is Android's.
    var counted: Int32 = 0
    var removedWithoutDealloc: Int32 = 0
    var dialectCount: UInt8 = 0
    /// Whether a missing dealloc of some instance is judged (`RecordedInstance.deallocInstrumented`).
    public var deallocJudged = false
    public var isObject = false
    public var isView = false
    /// Some instance is an object without an owner (made while no screen was being set up).
    public var hasUnownedObject = false
    var countedJudged = false
    var android = false

    init(name: String) { self.name = name }
}

/// A recording's instances per session: controllers, objects and SwiftUI views.
public struct InstanceCounts: Sendable, Equatable {
    public var controllers = 0
    public var objects = 0
    public var views = 0
}

/// Sums groups of instances (a lane, or a tally of one class and dialect) into classes. Groups are added in the
/// order of their first instance (session, then instance), so that classes and their dialects come in the order
/// a walk over every lane meets them.
struct ClassSummaryBuilder {
    private var classes: [RecordedClass] = []
    /// Each class's place by its name's hash (`StringArena.hash`), about 14 bytes a class where a dictionary by name
    /// took about 90 while it grew (the peak of `report` on 400k classes); a name whose hash another class has
    /// already goes in `collided`.
    private var index = RowsByHash()
    private var collided: [String: Int] = [:]

    /// The place of the class `name`, if it was added with its index.
    private func place(of name: String) -> Int? {
        if let row = index[StringArena.hash(name)], classes[Int(row)].name == name { return Int(row) }
        return collided[name]
    }

    /// Room for `n` classes (a recording's tallies say how many at most).
    mutating func reserve(_ n: Int) { classes.reserveCapacity(n) }

    /// `kinds`: a bit per `CompactTimeline.kindIndex`; `owners`: the owner keys of the group's instances
    /// (`ownerKey`), for an object class; `removed`: how many count as removed without dealloc.
    /// Returns the class's place in the result. `at`: that place, when the caller knows it (a later group of a
    /// class it added before): no index by name is kept then.
    @discardableResult
    mutating func add(className: String, dialect: Dialect, instances: Int, kinds: UInt64, judged: Bool, kind: LaneKind,
                      owners: [String: Int], unowned: Int, removed: Int, at place: Int? = nil, indexed: Bool = true) -> Int {
        let k: Int
        if let known = place ?? (indexed ? self.place(of: className) : nil) {
            k = known
        } else {
            k = classes.count
            if indexed, !(UInt32(exactly: k).map { $0 < UInt32.max && index.insert($0, for: StringArena.hash(className)) } ?? false) {
                collided[className] = k
            }
            classes.append(RecordedClass(name: className))
        }
        classes[k].instances += instances
        classes[k].add(dialect)
        classes[k].kindBits |= kinds
        classes[k].deallocJudged = classes[k].deallocJudged || judged
        if kind == .view { classes[k].isView = true }
        if kind == .object {
            classes[k].isObject = true
            for (key, n) in owners { classes[k].owners[key, default: 0] += n }
            if unowned > 0 {
                classes[k].owners[Self.unownedKey, default: 0] += unowned
                classes[k].hasUnownedObject = true
            }
        }
        // A view is a value: it has no dealloc to judge.
        guard kind != .view else { return k }
        defer { classes[k].android = classes[k].android || dialect.isAndroid }
        classes[k].counted += Int32(clamping: instances)
        classes[k].removedWithoutDealloc += Int32(clamping: removed)
        classes[k].countedJudged = classes[k].countedJudged || judged
        return k
    }

    /// An owner as `inspect` counts it: its class and why.
    static func ownerKey(_ owner: ControllerRef, _ reason: OwnerReason?) -> String { "\(owner.className)\u{1F}\((reason ?? .setup).word)" }
    static let unownedKey = "\u{1F}none"

    /// The classes, in the order their first instances came (the builder is left empty).
    mutating func result() -> [RecordedClass] {
        (index, collided) = (RowsByHash(), [:])
        defer { classes = [] }
        return classes
    }

    /// What the leak report reads of `classes` (`TimelineRecording.judgedClasses`, `.appLifetimeClasses`).
    /// `unjudged` sorted by name (`sortUnjudged`) is searched by halves: no set of 400k names.
    static func leakFacts(_ classes: [RecordedClass], unjudged: [UnjudgedClass]) -> (judged: [String], appLifetime: [String]) {
        let sorted = zip(unjudged, unjudged.dropFirst()).allSatisfy { $0.className < $1.className }
        let unjudgedSet = sorted ? [] : Set(unjudged.map(\.className))
        func isUnjudged(_ name: String) -> Bool {
            guard sorted else { return unjudgedSet.contains(name) }
            var low = 0, high = unjudged.count
            while low < high {
                let mid = (low + high) / 2
                if unjudged[mid].className < name { low = mid + 1 } else { high = mid }
            }
            return low < unjudged.count && unjudged[low].className == name
        }
        var judged: [String] = [], appLifetime: [String] = []
        for c in classes {
            if c.hasUnownedObject { appLifetime.append(c.name) }
            if !isUnjudged(c.name) { judged.append(c.name) }
        }
        return (judged, appLifetime)
    }

    /// The classes whose missing dealloc no instance has judged (`UnjudgedClass`), in the classes' order (`sortUnjudged`
    /// puts them in order of name); and by their flags, what `leakFacts` reads of each class. The recorder sorts the
    /// rows once it has let go of the classes: 400k classes, their rows and the sort's scratch were the peak of `report`.
    static func leakSummary(_ classes: [RecordedClass]) -> (unjudged: [UnjudgedClass], judged: [String], appLifetime: [String]) {
        var judged: [String] = [], appLifetime: [String] = []
        for c in classes {
            if c.hasUnownedObject { appLifetime.append(c.name) }
            if !c.isUnjudged { judged.append(c.name) }
        }
        return (unsortedUnjudged(classes), judged, appLifetime)
    }

    private static func unsortedUnjudged(_ classes: [RecordedClass]) -> [UnjudgedClass] {
        // Built row by row: a filtered copy of 400k classes was the peak of `inspect`.
        var rows: [UnjudgedClass] = []
        rows.reserveCapacity(classes.reduce(0) { $0 + ($1.isUnjudged ? 1 : 0) })
        for c in classes where c.isUnjudged {
            rows.append(UnjudgedClass(className: c.name, instances: Int(c.counted), removedWithoutDealloc: Int(c.removedWithoutDealloc), android: c.android))
        }
        return rows
    }

    /// By name (each class is listed once). The rows' places are sorted, 4 bytes each, and the rows moved to theirs
    /// in place, a cycle at a time: sorting the rows themselves took scratch of half their size.
    static func sortUnjudged(_ rows: inout [UnjudgedClass]) {
        guard rows.count > 1, let n = UInt32(exactly: rows.count) else { return }
        var order = Array(0..<n)
        rows.withUnsafeBufferPointer { r in order.sort { r[Int($0)].className < r[Int($1)].className } }
        // Place i takes the row at order[i].
        var placed = [Bool](repeating: false, count: rows.count)
        for start in rows.indices where !placed[start] {
            let saved = rows[start]
            var i = start
            while true {
                placed[i] = true
                let from = Int(order[i])
                if from == start {
                    rows[i] = saved
                    break
                }
                rows[i] = rows[from]
                i = from
            }
        }
    }

    /// Every lane of `sessions`, in their order, and each session's counts.
    static func summarize(_ sessions: RecordedSessions) -> (classes: [RecordedClass], counts: [InstanceCounts]) {
        var builder = ClassSummaryBuilder()
        var counts: [InstanceCounts] = []
        func add(className: String, dialect: Dialect, kinds: UInt64, judged: Bool, kind: LaneKind, owner: String?, removed: Bool) {
            builder.add(className: className, dialect: dialect, instances: 1, kinds: kinds, judged: judged, kind: kind,
                        owners: owner.map { [$0: 1] } ?? [:], unowned: owner == nil ? 1 : 0, removed: removed ? 1 : 0)
        }
        if let c = sessions.compact {
            for s in c.sessions {
                for j in s.instances {
                    let l = c.lanes[j]
                    var kinds: UInt64 = 0
                    for v in c.callbacks[l.callbackStart..<(l.callbackStart + Int(l.callbackCount))] { kinds |= 1 << (v & 0x3F) }
                    let extra = l.hasExtra ? c.laneExtras[j] : nil
                    add(className: l.className, dialect: l.dialect, kinds: kinds, judged: l.deallocInstrumented, kind: l.kind,
                        owner: extra?.owner.map { ownerKey($0, extra?.ownerReason) }, removed: removedWithoutDealloc(l, extra))
                }
            }
            counts = instanceCounts(c)
        } else {
            for s in sessions {
                var n = InstanceCounts()
                for i in s.instances {
                    var kinds: UInt64 = 0
                    for cb in i.callbacks { kinds |= 1 << CompactTimeline.kindIndex[cb.kind]! }
                    let removed = i.dialect.isAndroid ? i.dealloc != nil : i.removal != nil && i.dealloc == nil
                    add(className: i.controller.className, dialect: i.dialect, kinds: kinds, judged: i.deallocInstrumented, kind: i.kind,
                        owner: i.owner.map { ownerKey($0, i.ownerReason) }, removed: removed)
                    n.count(i.kind)
                }
                counts.append(n)
            }
        }
        return (builder.result(), counts)
    }
}

extension ClassSummaryBuilder {
    /// What the leak report reads of the classes of `c`'s lanes (`leakSummary`'s lists, the unjudged rows sorted),
    /// without a summary of each class (`TimelineOptions.keepsClasses` off, with lanes: `report`). The lanes' places
    /// are sorted by class name, and each class's run of lanes is read once: 8 bytes a lane where 400k summaries, the
    /// unjudged rows made from them and the rows' sort held 60 MB at once, the peak of `report`. The unjudged rows
    /// come out by name; the judged and app-lifetime classes in the order of their first lanes.
    static func leakFacts(lanesOf c: CompactTimeline) -> (unjudged: [UnjudgedClass], judged: [String], appLifetime: [String]) {
        // The lanes in the order a walk over the sessions meets them (`summarize`'s), and their places in that
        // order sorted by class name, then place.
        var walk: [UInt32] = []
        walk.reserveCapacity(c.lanes.count)
        for s in c.sessions { for j in s.instances { walk.append(UInt32(truncatingIfNeeded: j)) } }
        var byName = Array(0..<UInt32(truncatingIfNeeded: walk.count))
        byName.sort { a, b in
            let x = c.lanes[Int(walk[Int(a)])].className, y = c.lanes[Int(walk[Int(b)])].className
            return x == y ? a < b : x < y
        }
        // Room for a row per class, counted first (at most that many are unjudged; room not written to is not
        // resident): 400k rows grown by doubling held 30 MB at once.
        var classes = 0
        for k in byName.indices where k == 0 || c.lanes[Int(walk[Int(byName[k])])].className != c.lanes[Int(walk[Int(byName[k - 1])])].className {
            classes += 1
        }
        var unjudged: [UnjudgedClass] = []
        unjudged.reserveCapacity(classes)
        var judged: [(first: UInt32, name: String)] = [], appLifetime: [(first: UInt32, name: String)] = []
        var k = 0
        while k < byName.count {
            let first = byName[k], name = c.lanes[Int(walk[Int(first)])].className
            var counted = 0, removed = 0
            var countedJudged = false, android = false, unowned = false
            // As `add` sums them: a view is counted for nothing, an object without owner makes the class app-lifetime.
            while k < byName.count, case let j = Int(walk[Int(byName[k])]), c.lanes[j].className == name {
                let l = c.lanes[j]
                let extra = l.hasExtra ? c.laneExtras[j] : nil
                if l.kind == .object, extra?.owner == nil { unowned = true }
                if l.kind != .view {
                    counted += 1
                    if removedWithoutDealloc(l, extra) { removed += 1 }
                    countedJudged = countedJudged || l.deallocInstrumented
                    android = android || l.dialect.isAndroid
                }
                k += 1
            }
            if unowned { appLifetime.append((first, name)) }
            if counted > 0 && !countedJudged {
                unjudged.append(UnjudgedClass(className: name, instances: Int(Int32(clamping: counted)),
                                              removedWithoutDealloc: Int(Int32(clamping: removed)), android: android))
            } else {
                judged.append((first, name))
            }
        }
        judged.sort { $0.first < $1.first }
        appLifetime.sort { $0.first < $1.first }
        return (unjudged, judged.map(\.name), appLifetime.map(\.name))
    }

    /// Whether a lane counts as removed and never deallocated (`UnjudgedClass.removedWithoutDealloc`): an Android one
    /// whose use ended.
    static func removedWithoutDealloc(_ l: CompactTimeline.Lane, _ extra: CompactTimeline.LaneExtra?) -> Bool {
        l.dialect.isAndroid ? l.dealloc >= 0 : extra?.removal != nil && l.dealloc < 0
    }

    /// Each session's counts of controllers, objects and views (`summarize`'s).
    static func instanceCounts(_ c: CompactTimeline) -> [InstanceCounts] {
        c.sessions.map { s in
            var n = InstanceCounts()
            for j in s.instances { n.count(c.lanes[j].kind) }
            return n
        }
    }
}

extension RecordedClass {
    /// Some instance of it is counted (not a SwiftUI view) and none has its missing dealloc judged: it is listed
    /// among the classes whose dealloc is not logged (`UnjudgedClass`).
    var isUnjudged: Bool { counted > 0 && !countedJudged }
}

extension RecordedClass: CustomStringConvertible {
    /// Every field, the owners sorted (a dictionary's order is its hashing's).
    public var description: String {
        "\(name): \(dialects) ×\(instances) \(callbacks) judged \(deallocJudged) object \(isObject) view \(isView) "
            + "owners \(owners.sorted { $0.key < $1.key }) unowned object \(hasUnownedObject) counted \(counted) removed \(removedWithoutDealloc) "
            + "counted judged \(countedJudged) android \(android)"
    }

    /// `dialect` among its dialects, if it is not yet.
    mutating func add(_ dialect: Dialect) {
        if moreDialects == nil {
            for k in 0..<Int(dialectCount) where dialectCodes >> (8 * UInt64(k)) & 0xFF == UInt64(dialect.code) { return }
            if dialectCount < 8 {
                dialectCodes |= UInt64(dialect.code) << (8 * UInt64(dialectCount))
                dialectCount += 1
                return
            }
            moreDialects = dialects
        }
        if !moreDialects!.contains(dialect) { moreDialects!.append(dialect) }
    }
}

extension InstanceCounts {
    mutating func count(_ kind: LaneKind, _ n: Int = 1) {
        switch kind {
        case .controller: controllers += n
        case .object: objects += n
        case .view: views += n
        }
    }
}

/// A recording without lanes keeps, instead of each instance's lane, a tally per class and dialect: an instance is
/// counted at its first callback, its callbacks' kinds as they come, and its owner and whether it was removed and
/// never deallocated when nothing can change them any more (its dealloc, or its session's end: `TimelineRecorder`).
/// Kept by class name (the class's entry may give way to a dormant row and come back as another object while its
/// session folds it), with per session how many instances of each tally it had.
struct ClassTallies {
    /// (The fields of 4 bytes and less first: 56 bytes a tally.)
    struct Tally {
        /// The class's name, by its number in `names`.
        let name: UInt32
        var instances: Int32 = 0
        var removed: Int32 = 0
        var unowned: Int32 = 0
        /// The class's tally in its next dialect (-1: none): a class is indexed once, by name.
        var nextDialect: Int32 = -1
        let dialect: Dialect
        /// Whether a session that had one of its UIKit instances judged their dealloc (its dialect logs dealloc there).
        var judgedInSession = false
        var kinds: UInt64 = 0
        var owners: [String: Int] = [:]
        /// Its first instance: its session's serial and its place among that session's instances.
        var first: (session: Int, ordinal: Int)
    }

    private(set) var tallies = ChunkedArray<Tally>()
    /// The classes' names, each once as bytes (400k classes: a `String` and a dictionary's slot each took about
    /// 130 bytes where the arena takes about 42), numbered in the order first tallied.
    private var names = StringArena(endings: StringArena.classNameEndings)
    /// Each name's first tally, by the name's number (its index until `dropIndex`).
    private var firstTally = ChunkedArray<Int32>()
    /// Per session serial, its tallies and how many of each it had (`Int(tally) << 32 | count`).
    private(set) var sessionCounts: [Int: [UInt64]] = [:]

    /// The tally of `className` in `dialect`; `first`: where its first instance is, if this is one.
    mutating func tally(_ className: String, _ dialect: Dialect, first: (session: Int, ordinal: Int)?) -> Int {
        guard let id = names.intern(className) else { preconditionFailure("ClassTallies: more than 4 GiB of class names") }
        if id == firstTally.count { firstTally.append(-1) }
        var last = -1
        var k = Int(firstTally[id])
        while k >= 0 {
            if tallies[k].dialect == dialect {
                if let first, (first.session, first.ordinal) < (tallies[k].first.session, tallies[k].first.ordinal) { tallies[k].first = first }
                return k
            }
            last = k
            k = Int(tallies[k].nextDialect)
        }
        let new = tallies.count
        tallies.append(Tally(name: UInt32(id), dialect: dialect, first: first ?? (Int.max, Int.max)))
        if last < 0 { firstTally[id] = Int32(new) } else { tallies[last].nextDialect = Int32(new) }
        return new
    }

    /// The class name of tally `k`.
    func className(_ k: Int) -> String { names[Int(tallies[k].name)] }

    /// The first tally of each class whose tally `k` is (`tallies`' order), for every tally.
    func heads() -> [Int32] {
        var head = [Int32](repeating: -1, count: tallies.count)
        for k in tallies.indices where head[k] < 0 {
            var j = k
            while j >= 0 {
                head[j] = Int32(k)
                j = Int(tallies[j].nextDialect)
            }
        }
        return head
    }

    subscript(k: Int) -> Tally {
        get { tallies[k] }
        set { tallies[k] = newValue }
    }

    /// Once every instance is in: the index by name goes (the tallies are read in order from here on; the names stay).
    mutating func dropIndex() { firstTally = ChunkedArray() }

    /// A session's tallies and counts, once it ended (`tallied`: tally → instances << 1, the low bit a flag), in
    /// tally order; written straight into the list (a copy of the dictionary and a sorted list of its pairs were
    /// the peak of `leaks` on 400k classes in one session).
    mutating func ended(session serial: Int, tallied: [Int: Int]) {
        guard !tallied.isEmpty else { return }
        var list: [UInt64] = []
        list.reserveCapacity(tallied.count)
        for (k, v) in tallied { list.append(UInt64(k) << 32 | UInt64(v >> 1)) }
        list.sort()
        sessionCounts[serial] = list
    }
}

/// A set of instance serials (dense from 0 in an input), a bit each.
struct SerialSet {
    private var words: [UInt64] = []

    func contains(_ serial: Int) -> Bool {
        serial >> 6 < words.count && words[serial >> 6] & 1 << UInt64(serial & 63) != 0
    }

    /// Whether `serial` was not in the set yet.
    @discardableResult
    mutating func insert(_ serial: Int) -> Bool {
        if contains(serial) { return false }
        while serial >> 6 >= words.count { words.append(0) }
        words[serial >> 6] |= 1 << UInt64(serial & 63)
        return true
    }
}
