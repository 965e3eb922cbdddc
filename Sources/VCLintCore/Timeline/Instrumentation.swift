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
        let stem: String
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
            self.objectName = ObjectNames.mayBeObject(name) && !(dialect.isAndroid && ObjectNames.isAndroidController(name))
            self.stem = ObjectNames.stem(name)
        }

        /// An object class so far: an object's name, and nothing logged but init and dealloc
        /// (docs/lifecycle.md#objects).
        @inline(__always) var isObjectClass: Bool { objectName && kinds.onlyLifetime }
    }
    /// The input's dates (`PackedTime`), shared by its classes.
    let times = PackedTime.Table()
    @exclusivity(unchecked) private var entries: [String: ClassEntry] = [:]
    @exclusivity(unchecked) private var kindsByDialect: [Dialect: EventKinds] = [:]

    /// The class's entry, made at its first event.
    func entry(_ className: String, dialect: Dialect) -> ClassEntry {
        if let known = entries[className] { return known }
        let made = ClassEntry(name: className, dialect: dialect, times: times, number: UInt32(truncatingIfNeeded: entries.count))
        entries[className] = made
        return made
    }

    /// The class's entry, if the input has seen the class.
    func existing(_ className: String) -> ClassEntry? { entries[className] }

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
        entries[className]?.kinds.contains(kind) == true
    }

    /// Whether `kind` is logged for the class, directly or through its dialect's family.
    func instruments(_ className: String, _ kind: EventKind) -> Bool {
        guard let entry = entries[className] else { return false }
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
            guard let entry = entries[r.className] else { return false }
            return entry.isObjectClass && r.anyOf.contains { entry.kinds.contains($0) }
        }
        return r.anyOf.contains { instruments(r.className, $0) }
    }
}
