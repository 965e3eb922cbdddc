#if canImport(Glibc)
import Glibc
#endif

/// The instrumentation of one input: which callbacks each class logs (docs/lifecycle.md#instrumentation).
/// Apps log through a base class, so a class that logs part of a will/did family is taken to log
/// the rest of it when another class of the same dialect does (seed 000 logs each controller's
/// viewDidDisappear once; deleting one must still be a finding).
final class Instrumentation {
    /// One class: what it logs, shared by every session's `SessionTimeline.ClassState` of the class
    /// (recording an event, or asking what its class logs, costs no lookup by name).
    final class ClassEntry {
        @exclusivity(unchecked) fileprivate(set) var kinds: EventKinds = []
        /// The dialect of the class's first event (whose family `instruments` consults).
        let dialect: Dialect
        /// How many instances of the class the input has had: `TimelineContext.makeInstance`
        /// numbers them here (`Type#3`), which saves it a lookup by name. The objects only counted
        /// (`SessionTimeline.untracks`) are among them.
        @exclusivity(unchecked) var instancesMade = 0
        /// The `lifetimes` limits that count its instances, found at its first instance (`lifetimeLimits(of:)`).
        @exclusivity(unchecked) var lifetimeLimits: [Int]?
        /// The class's name (its instances read theirs here: one String per class, not per instance).
        let name: String
        /// The input's dates, by which its instances keep their times in 8 bytes.
        let times: PackedTime.Table
        /// Whether the name may be an object's (docs/lifecycle.md#objects): it does not end in
        /// `Controller` or `VC`.
        let objectName: Bool
        /// The name's stem (docs/lifecycle.md#owners): "" matches nothing.
        let stem: Stem
        /// Its place among the input's classes, from 0 (an evicted controller's class, in 4 bytes:
        /// `EvictedController`).
        let number: UInt32
        /// Its one removed controller while a session has folded the class away
        /// (`SessionTimeline.foldIdleClasses`): the session's state of the class is then this alone.
        @exclusivity(unchecked) var folded: FoldedController?
        init(name: String, dialect: Dialect, times: PackedTime.Table = PackedTime.Table(), number: UInt32 = 0) {
            self.name = name
            self.number = number
            self.dialect = dialect
            self.times = times
            // On Android an Activity or a Fragment is a controller by its name, whatever it logs (its constructor alone).
            self.objectName = Self.isObjectName(name, dialect)
            self.stem = Stem(ObjectNames.stem(name))
        }

        /// Whether `name` may be an object's (`objectName`).
        static func isObjectName(_ name: String, _ dialect: Dialect) -> Bool {
            ObjectNames.mayBeObject(name) && !(dialect.isAndroid && ObjectNames.isAndroidController(name))
        }

        /// What a dormant class kept of it (`DormantClasses.makeEntry`).
        func restore(kinds: UInt64, instancesMade: Int) {
            self.kinds = EventKinds(rawBits: kinds)
            self.instancesMade = instancesMade
        }

        /// An object class so far: an object's name, and nothing logged but init and dealloc
        /// (docs/lifecycle.md#objects).
        @inline(__always) var isObjectClass: Bool { objectName && kinds.onlyLifetime }
    }
    /// The input's dates (`PackedTime`), shared by its classes.
    let times = PackedTime.Table()
    @exclusivity(unchecked) private var entries: [String: ClassEntry] = [:]
    @exclusivity(unchecked) private var kindsByDialect: [Dialect: EventKinds] = [:]
    /// The classes nothing holds, kept compactly (`retire`), and how many classes the input has had.
    @exclusivity(unchecked) private(set) var dormant = DormantClasses()
    @exclusivity(unchecked) private var classCount: UInt32 = 0

    /// The input's end, once the recording has read what each class logged (`TimelineRecorder.result`): the dormant
    /// classes' rows go (400k classes: 18 MB, beside the recording's summary of them). Nothing asks after a class
    /// again.
    func letGoOfDormantClasses() {
        dormant = DormantClasses()
        assert({ closed = true; return true }())
    }

    /// Set by `letGoOfDormantClasses` in a debug build, where a class asked after then stops the run.
    private var closed = false

    /// The class's entry, made at its first event (or made again as it was if the class is dormant).
    func entry(_ className: String, dialect: Dialect) -> ClassEntry {
        assert(!closed, "Instrumentation: a class asked after once the dormant classes were let go")
        if let known = entries[className] { return known }
        if let id = dormant.find(className) { return revive(id) }
        let made = ClassEntry(name: className, dialect: dialect, times: times, number: classCount)
        classCount &+= 1
        entries[className] = made
        return made
    }

    /// The class's entry, if the input has seen the class and something holds it.
    func existing(_ className: String) -> ClassEntry? { entries[className] }

    /// The class's entry, or for a dormant class one made from its row (which stays dormant): what the input says
    /// the class logs.
    func readingEntry(_ className: String) -> ClassEntry? {
        assert(!closed, "Instrumentation: a class asked after once the dormant classes were let go")
        if let e = entries[className] { return e }
        guard let id = dormant.find(className) else { return nil }
        return dormant.makeEntry(id, times: times)
    }

    /// The class's entry if it is in use, or if it is dormant with the folded controller of `session`
    /// (made again as it was, its controller still folded).
    func existing(_ className: String, foldedBy session: Int) -> ClassEntry? {
        assert(!closed, "Instrumentation: a class asked after once the dormant classes were let go")
        if let known = entries[className] { return known }
        guard let id = dormant.find(className), dormant.holdsFolded(id, session: session) else { return nil }
        return revive(id)
    }

    /// The entry of dormant row `id`'s class, made again if it is still dormant.
    func entry(row id: Int) -> ClassEntry {
        let name = dormant.names[id]
        if let known = entries[name] { return known }
        return revive(id)
    }

    private func revive(_ id: Int) -> ClassEntry {
        let (e, leak) = dormant.revive(id, times: times)
        entries[e.name] = e
        if let leak { deferredLeakRevived?(e, leak) }
        return e
    }

    /// The leak of dormant row `id`'s folded controller stays in the row (`DormantClasses.deferLeak`).
    func deferLeak(row id: Int) { dormant.deferLeak(id) }

    /// Where a class's deferred leak goes when a line names the class again (`TimelineContext` writes it as its
    /// session's end would have).
    @exclusivity(unchecked) var deferredLeakRevived: ((ClassEntry, FoldedController) -> Void)?

    /// The input's end: every deferred leak that what the input logged makes one that counts (its class, or its
    /// dialect, logs dealloc), with its class's entry (made for the call); each taken out of its row, the others let go.
    func takeDeferredLeaks(_ body: (ClassEntry, FoldedController) -> Void) {
        guard dormant.deferredLeaks > 0 else { return }
        for id in 0..<dormant.rowCount where dormant.row(id).leakDeferred {
            // As `instruments(_:.dealloc)` reads it, from the row: most of 400k classes that never logged a dealloc
            // are let go without an entry made for them.
            let row = dormant.row(id)
            guard EventKinds(rawBits: row.kinds).contains(.dealloc) || kindsByDialect[Dialect(code: row.dialect)]?.contains(.dealloc) == true else {
                dormant.discardRecord(id)
                continue
            }
            let entry = dormant.makeEntry(id, times: times)
            if let f = dormant.takeRecord(id) { body(entry, f) }
        }
    }

    /// Gives up the entry of a class that a session folded away (`ClassEntry.folded`, or no controller at
    /// all) when nothing but `entry` and this table holds it: the class becomes dormant. Returns its row,
    /// nil if it stays (something else holds it, or it cannot be kept compactly).
    func retire(_ entry: inout ClassEntry) -> Int? {
        let name = entry.name
        guard entries[name] === entry else { return nil }
        entries[name] = nil
        guard isKnownUniquelyReferenced(&entry), let id = dormant.add(entry, dialect: entry.dialect.code) else {
            entries[name] = entry
            return nil
        }
        return id
    }

    /// The dormant class of row `id`, its folded controller taken out (the session's end reads it through
    /// an entry that is let go afterwards); nil if the row holds no controller of `session`.
    func takeFolded(row id: Int, session: Int) -> (ClassEntry, FoldedController)? {
        guard dormant.holdsFolded(id, session: session) else { return nil }
        let entry = dormant.makeEntry(id, times: times)
        guard let f = dormant.takeRecord(id) else { return nil }
        return (entry, f)
    }

    /// What the class logs and its dialect, whether its entry is in use or dormant.
    private func known(_ className: String) -> (kinds: EventKinds, dialect: Dialect, objectName: Bool)? {
        if let e = entries[className] { return (e.kinds, e.dialect, e.objectName) }
        guard let id = dormant.find(className) else { return nil }
        let row = dormant.row(id)
        let d = Dialect(code: row.dialect)
        return (EventKinds(rawBits: row.kinds), d, ClassEntry.isObjectName(className, d))
    }

    @inline(__always)
    func record(_ c: ClassEntry, _ kind: EventKind, dialect: Dialect) {
        if c.kinds.contains(kind) { return }
        c.kinds.insert(kind)
        // An object's deinit says nothing of the controllers' (docs/lifecycle.md#objects): apps log
        // their view models' and not their screens'.
        if kind == .dealloc, c.isObjectClass {
            if tracksChanges { changedClasses.append(c.name) }
            return
        }
        if tracksChanges {
            changedClasses.append(c.name)
            if kindsByDialect[dialect]?.contains(kind) != true { dialectGained = true }
        }
        kindsByDialect[dialect, default: []].insert(kind)
    }

    /// Live mode: the classes that logged a kind for the first time since `takeChanges`, and
    /// whether a dialect did (which can satisfy a requirement of any class of it).
    @exclusivity(unchecked) var tracksChanges = false
    @exclusivity(unchecked) private var changedClasses: [String] = []
    @exclusivity(unchecked) private var dialectGained = false

    func takeChanges() -> (classes: [String], dialect: Bool) {
        defer { changedClasses = []; dialectGained = false }
        return (changedClasses, dialectGained)
    }

    /// A set of event kinds as one word (recorded for every event).
    struct EventKinds: ExpressibleByArrayLiteral {
        private var bits: UInt64 = 0
        init(arrayLiteral kinds: EventKind...) { for k in kinds { insert(k) } }
        init(rawBits: UInt64) { bits = rawBits }
        var rawBits: UInt64 { bits }
        @inline(__always) func contains(_ k: EventKind) -> Bool { bits & k.bit != 0 }
        @inline(__always) mutating func insert(_ k: EventKind) { bits |= k.bit }
        /// Nothing but presentation and completion markers.
        @inline(__always) var onlyMarkers: Bool {
            bits & ~(EventKind.presentBegin.bit | EventKind.presentEnd.bit | EventKind.dismissBegin.bit | EventKind.dismissEnd.bit) == 0
        }
        /// Only an object's statements: init and dealloc, and on Android `onCleared` and `finalize`.
        @inline(__always) var onlyLifetime: Bool {
            bits & ~(EventKind.initialize.bit | EventKind.dealloc.bit | EventKind.onCleared.bit | EventKind.finalize.bit) == 0
        }
    }

    func logs(_ className: String, _ kind: EventKind) -> Bool {
        known(className)?.kinds.contains(kind) == true
    }

    /// Whether `kind` is logged for the class, directly or through its dialect's family.
    func instruments(_ className: String, _ kind: EventKind) -> Bool {
        guard let entry = known(className) else { return false }
        let own = entry.kinds
        if own.contains(kind) { return true }
        // dealloc is instrumented when every class of the dialect logs it (through their base
        // class), as a session's leaks are judged (`SessionTimeline.reportLeak`): a leak decided
        // before the first dealloc of its dialect (live mode) waits for that dealloc too.
        if kind == .dealloc, kindsByDialect[entry.dialect]?.contains(.dealloc) == true { return true }
        guard let sibling = Self.sibling(kind), own.contains(sibling),
              kindsByDialect[entry.dialect]?.contains(kind) == true else { return false }
        return true
    }

    /// The callback of the same family (will or did) in the other direction.
    static func sibling(_ k: EventKind) -> EventKind? {
        switch k {
        case .viewWillAppear: return .viewWillDisappear
        case .viewWillDisappear: return .viewWillAppear
        case .viewDidAppear: return .viewDidDisappear
        case .viewDidDisappear: return .viewDidAppear
        case .willMoveToParent: return .didMoveToParent
        case .didMoveToParent: return .willMoveToParent
        default: return nil
        }
    }

    func satisfies(_ r: Requirement) -> Bool {
        if r.object {
            guard let entry = known(r.className) else { return false }
            return entry.objectName && entry.kinds.onlyLifetime && r.anyOf.contains { entry.kinds.contains($0) }
        }
        return r.anyOf.contains { instruments(r.className, $0) }
    }
}
