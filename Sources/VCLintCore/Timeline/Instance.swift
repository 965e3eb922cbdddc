/// Where a child controller stands with its parent (willMove/didMove(toParent:)).
enum ParentState {
    case unknown
    case adding(EventRef)
    case attached
    case removing(EventRef)
    case detached
}

/// One controller instance in one session.
final class Instance {
    let serial: Int
    /// Its class's entry, which holds the class's name.
    let entry: Instrumentation.ClassEntry
    @inline(__always) var className: String { entry.name }
    /// Its address, if the log gave one (0 stands for none: no object lives at 0).
    var address: UInt64? {
        get { addressRaw == 0 ? nil : addressRaw }
        set { addressRaw = newValue ?? 0 }
    }
    @exclusivity(unchecked) private var addressRaw: UInt64
    /// The address, 0 for none (`AddressTable`'s key).
    @inline(__always) var addressKey: UInt64 { addressRaw }
    /// (Stored last, with the flags: see there.)
    var generation: Int { Int(generationRaw) }

    /// Where the view loaded (a line and its kind: reports need no time for it).
    var loadLine: EventRef? {
        get { LineRef.unpack(loadLineRef) }
        set { loadLineRef = LineRef.pack(newValue) }
    }
    @exclusivity(unchecked) private var loadLineRef: UInt64 = 0
    /// The will-callback whose did-callback is due (with its time, which findings report).
    var pendingWill: EventRef? {
        get { timedRef(pendingWillRef, pendingWillTime, whole: \.pendingWill) }
        set { (pendingWillRef, pendingWillTime) = packTimed(newValue, whole: \.pendingWill) }
    }
    @exclusivity(unchecked) private var pendingWillRef: UInt64 = 0
    @exclusivity(unchecked) private var pendingWillTime: UInt64 = 0
    @exclusivity(unchecked) var transition: Transition?
    var lastAppear: EventRef? {
        get { LineRef.unpack(lastAppearRef) }
        set { lastAppearRef = LineRef.pack(newValue) }
    }
    @exclusivity(unchecked) private var lastAppearRef: UInt64 = 0
    var lastDidDisappear: EventRef? {
        get { timedRef(lastDidDisappearRef, lastDidDisappearTime, whole: \.lastDidDisappear) }
        set { (lastDidDisappearRef, lastDidDisappearTime) = packTimed(newValue, whole: \.lastDidDisappear) }
    }
    @exclusivity(unchecked) private var lastDidDisappearRef: UInt64 = 0
    @exclusivity(unchecked) private var lastDidDisappearTime: UInt64 = 0
    /// The viewWillDisappear that the last viewDidDisappear completed.
    var lastWillDisappear: EventRef? {
        get { LineRef.unpack(lastWillDisappearRef) }
        set { lastWillDisappearRef = LineRef.pack(newValue) }
    }
    @exclusivity(unchecked) private var lastWillDisappearRef: UInt64 = 0
    var dealloc: EventRef? {
        get { LineRef.unpack(deallocRef) }
        set { deallocRef = LineRef.pack(newValue) }
    }
    @exclusivity(unchecked) private var deallocRef: UInt64 = 0
    /// How it left for good, boxed: most controllers are never removed, and a live one costs its
    /// fields (memory is bounded by the live controllers, a few hundred bytes each:
    /// docs/performance.md#memory).
    var removal: Removal? {
        get { removalBox?.value }
        set {
            if let v = newValue {
                if let b = removalBox { b.value = v } else { removalBox = RemovalBox(v) }
            } else if removalBox != nil {
                removalBox = nil
            }
        }
    }
    @exclusivity(unchecked) private var removalBox: RemovalBox?
    @inline(__always) var isRemoved: Bool { removalBox != nil }
    /// The kind of the transition that removed it (`Removal.transition`), read and set in its box
    /// (the whole `Removal` is not copied out and back).
    var removalTransition: TransitionKind? {
        get { removalBox?.value.transition }
        set { removalBox?.value.transition = newValue }
    }
    /// The controllers its inferred removal took along (the middle of a pop to root): if it turns
    /// out not to have been removed (a tab switch that looked like a pop), neither were they.
    var tookAlong: [Instance] {
        get { extras?.tookAlong ?? [] }
        set { if !newValue.isEmpty || extras != nil { more.tookAlong = newValue } }
    }
    @exclusivity(unchecked) var coveredBy = Coverers()
    /// The line of its latest event.
    var lastActivity: Int {
        get { lastActivityLine }
        set {
            if newValue != lastActivityLine { activeAfterCreation = true }
            lastActivityLine = newValue
        }
    }
    @exclusivity(unchecked) private var lastActivityLine: Int
    /// The latest `SessionTimeline.coverPath` search that reached it (its "seen" set).
    var coverMark: Int {
        get { Int(coverMarkRaw) }
        set { coverMarkRaw = UInt32(truncatingIfNeeded: newValue) }
    }
    var dismissPending: (ref: EventRef, transitionSerial: Int)? {
        get { extras?.dismissPending }
        set { if newValue != nil || extras != nil { more.dismissPending = newValue } }
    }
    var presentPending: EventRef? {
        get { extras?.presentPending }
        set { if newValue != nil || extras != nil { more.presentPending = newValue } }
    }
    /// A completion marker seen while this instance's did-callback was still due.
    var completionPending: (marker: EventRef, appearing: Bool)? {
        get { extras?.completionPending }
        set { if newValue != nil || extras != nil { more.completionPending = newValue } }
    }
    var parentState: ParentState {
        get { extras?.parentState ?? .unknown }
        set {
            if case .unknown = newValue, extras == nil { return }
            more.parentState = newValue
        }
    }
    /// The lines of its latest markers and parent moves, which name transitions (nil: none logged).
    var transitionMarks: TransitionNaming.Marks? {
        get {
            guard let m = extras?.transitionMarks, m.present | m.dismiss | m.toParent | m.fromParent != 0 else { return nil }
            return m
        }
        set { if let m = newValue { more.transitionMarks = m } }
    }
    /// The transition in which it first appeared (0: before any transition we saw).
    var firstAppearSerial: Int? {
        get { firstAppearRaw < 0 ? nil : Int(firstAppearRaw) }
        set { firstAppearRaw = newValue.map { Int32(clamping: max(0, $0)) } ?? -1 }
    }
    /// A pop showed that the log had told it and an address-less twin apart wrongly
    /// (`SessionTimeline.takeTwinsPlace`): which of the two made which objects is not known.
    var mistakenForTwin: Bool {
        get { extras?.mistakenForTwin ?? false }
        set { if newValue || extras != nil { more.mistakenForTwin = newValue } }
    }
    /// The address-less controller whose pop showed it last, while an address-less twin of that one lived
    /// (`SessionTimeline.takeTwinsStack` follows these down a stack that a tab switch may have shown for another).
    /// Cleared when it deallocates or is forgotten, so that the dead hold no chain of the dead.
    var poppedOff: Instance? {
        get { extras?.poppedOff }
        set { if newValue != nil || extras != nil { more.poppedOff = newValue } }
    }
    /// How many transitions had begun when its `init` was logged (nil: creation not logged).
    var initEpoch: Int? {
        get { extras?.initEpoch }
        set { if newValue != nil || extras != nil { more.initEpoch = newValue } }
    }
    /// Ownership (docs/lifecycle.md#owners), in one field as an instance is one or the other: an
    /// object's owner (an `Instance`: an object costs no more than a controller), or a controller's
    /// or view's objects (an `ObjectLink`, made at its first object).
    @exclusivity(unchecked) private var link: AnyObject?
    /// An object's owner.
    var owner: Instance? {
        get { link as? Instance }
        set { link = newValue }
    }
    /// An Android object's owner (a ViewModel's Activity or Fragment, docs/lifecycle.md#android-objects-and-composables).
    var androidOwner: AndroidInstance? {
        get { link as? AndroidInstance }
        set { link = newValue }
    }
    /// Its owner, either kind, as the recording names it.
    var ownerRef: ControllerRef? { owner?.ref ?? androidOwner?.ref }
    /// Why it has its owner: its owner shares its name stem, else the owner's setup made it.
    var ownerReason: OwnerReason? {
        if androidOwner != nil { return .stem }
        guard let owner else { return nil }
        return !entry.stem.isEmpty && owner.entry.stem == entry.stem ? .stem : .setup
    }
    /// A controller's or view's objects, if it has had any.
    var objects: ObjectLink? { link as? ObjectLink }
    /// A controller's or view's objects, made at its first.
    var objectsMade: ObjectLink {
        if let l = link as? ObjectLink { return l }
        let l = ObjectLink()
        link = l
        return l
    }
    /// Drops its owner or its objects (a session dropped without `finish`: they point at each other).
    func unlink() { link = nil }
    /// What few controllers need (presentation and completion markers, child moves, removals
    /// that took others along, a logged init), allocated at the first need.
    @exclusivity(unchecked) private var extras: Extras?
    private var more: Extras {
        if let e = extras { return e }
        let e = Extras()
        extras = e
        return e
    }

    // The small fields last, together: no padding between them. With the 8-byte refs and times
    // above, an instance is 168 bytes, which malloc serves in 176 (about 200 bytes per live
    // controller, its share of the address table included: docs/performance.md#memory); 8 bytes
    // more would cost 16 (EvictionTests checks it).
    /// 32 bits each: four billion controllers of one class, or transitions in one session, are
    /// more than a capture holds (a transition past that is taken for the latest one).
    private let generationRaw: UInt32
    @exclusivity(unchecked) private var firstAppearRaw: Int32 = -1
    /// The low 32 bits of `coverMark` (a search numbered 2³² later could take it for seen: harmless).
    @exclusivity(unchecked) private var coverMarkRaw: UInt32 = 0
    let dialect: Dialect
    /// Set through `SessionTimeline.setAppearance`, which counts the visible instances.
    @exclusivity(unchecked) fileprivate(set) var appearance: Appearance = .unknown
    @exclusivity(unchecked) private var flags: UInt16 = 0

    var initSeen: Bool { get { flag(0) } set { setFlag(0, newValue) } }
    var loaded: Bool { get { flag(1) } set { setFlag(1, newValue) } }
    var loadViewPending: Bool { get { flag(2) } set { setFlag(2, newValue) } }
    /// The view may have been unloaded (viewWillUnload/viewDidUnload, or a memory warning while hidden).
    var viewMayBeUnloaded: Bool { get { flag(3) } set { setFlag(3, newValue) } }
    /// viewWillUnload/viewDidUnload was logged: a later viewDidLoad belongs to this instance.
    var viewUnloadLogged: Bool { get { flag(4) } set { setFlag(4, newValue) } }
    var appearedEver: Bool { get { flag(5) } set { setFlag(5, newValue) } }
    /// An event on a later line than the one that made it has reached it.
    private(set) var activeAfterCreation: Bool { get { flag(6) } set { setFlag(6, newValue) } }
    /// The session dropped it (another object took its address): no event reaches it any more.
    var forgotten: Bool { get { flag(7) } set { setFlag(7, newValue) } }
    /// A controller or SwiftUI view that may own objects, registered in its session's
    /// `SessionObjects` (docs/lifecycle.md#owners).
    var ownerCandidate: Bool { get { flag(8) } set { setFlag(8, newValue) } }
    /// An object whose owner was looked for at its init.
    var ownerSought: Bool { get { flag(9) } set { setFlag(9, newValue) } }
    /// A controller whose setup (first event to first viewDidAppear) is running.
    var setupRunning: Bool { get { flag(10) } set { setFlag(10, newValue) } }
    /// A SwiftUI view (it logged onAppear or onDisappear): a value, never deallocated.
    var isView: Bool { get { flag(11) } set { setFlag(11, newValue) } }

    /// The once-per-instance facts already emitted for it (`EmittedFacts`), in the flags' top bits.
    var emitted: EmittedFacts {
        @inline(__always) get { EmittedFacts(rawValue: flags & EmittedFacts.bits) }
        @inline(__always) set { flags = flags & ~EmittedFacts.bits | newValue.rawValue }
    }

    @inline(__always) private func flag(_ bit: UInt16) -> Bool { flags & (1 << bit) != 0 }
    @inline(__always) private func setFlag(_ bit: UInt16, _ on: Bool) {
        if on { flags |= 1 << bit } else { flags &= ~(1 << bit) }
    }

    init(serial: Int, entry: Instrumentation.ClassEntry, address: UInt64?, generation: Int, dialect: Dialect, line: Int) {
        self.serial = serial
        self.entry = entry
        self.addressRaw = address ?? 0
        self.generationRaw = UInt32(truncatingIfNeeded: generation)
        self.dialect = dialect
        self.lastActivityLine = line
    }

    /// A ref kept as its line and kind (`LineRef`) and its time (`PackedTime`); a time that cannot
    /// be packed is kept whole in `extras`, at `whole`.
    @inline(__always)
    private func timedRef(_ line: UInt64, _ time: UInt64, whole: KeyPath<Extras, EventRef?>) -> EventRef? {
        if time == PackedTime.elsewhere { return extras?[keyPath: whole] }
        guard var r = LineRef.unpack(line) else { return nil }
        if time != 0 { r.time = entry.times.unpack(time) }
        return r
    }

    @inline(__always)
    private func packTimed(_ r: EventRef?, whole: ReferenceWritableKeyPath<Extras, EventRef?>) -> (UInt64, UInt64) {
        if let e = extras, e[keyPath: whole] != nil { e[keyPath: whole] = nil }
        guard let r else { return (0, 0) }
        guard let t = r.time else { return (LineRef.pack(r), 0) }
        if let packed = entry.times.pack(t) { return (LineRef.pack(r), packed) }
        more[keyPath: whole] = r
        return (0, PackedTime.elsewhere)
    }

    var label: String { "\(className)#\(generation)" }
    @inline(__always) var isAlive: Bool { deallocRef == 0 }

    var ref: ControllerRef { ControllerRef(className: className, address: address, instance: label) }
    /// `ref.display`, without the label built when the address is what it shows (an owner named for its objects at
    /// its dealloc, a controller for those its pop took along).
    var display: String {
        guard let a = address else { return label }
        return ControllerRef.display(className, address: a)
    }
}

/// The facts the timeline emits at most once per instance (or once per pending will), recorded when
/// emitted: what was already said decides what is still to say, not a flag per finding.
struct EmittedFacts: OptionSet {
    let rawValue: UInt16
    /// appearance_before_load: its first will-appear before its view loaded.
    static let appearanceBeforeLoad = EmittedFacts(rawValue: 1 << 12)
    /// event_after_dealloc: its first callback after its dealloc.
    static let eventAfterDealloc = EmittedFacts(rawValue: 1 << 13)
    /// leaked_controller / leaked_object: live mode reports a leak before the session ends.
    static let leak = EmittedFacts(rawValue: 1 << 14)
    /// unbalanced_appearance for the pending will itself (a will for the state it was in): its
    /// missing did-callback would be the same root cause again (`incomplete`).
    static let pendingWill = EmittedFacts(rawValue: 1 << 15)
    /// The bits of `Instance.flags` they use.
    static let bits: UInt16 = 0xF000
}

/// The controllers pushed or presented over an instance (`Instance.coveredBy`): usually none or
/// one, held inline (an array of one costs an allocation per controller of a deep stack).
struct Coverers: Sequence {
    fileprivate enum Storage {
        case none
        case one(Instance)
        case many([Instance])
    }
    private var storage = Storage.none

    var isEmpty: Bool {
        switch storage {
        case .none: return true
        case .one: return false
        case .many(let a): return a.isEmpty
        }
    }

    mutating func append(_ i: Instance) {
        switch storage {
        case .none: storage = .one(i)
        case .one(let first): storage = .many([first, i])
        case .many(var a):
            storage = .none
            a.append(i)
            storage = .many(a)
        }
    }

    mutating func removeAll() { storage = .none }

    mutating func removeAll(where remove: (Instance) -> Bool) {
        switch storage {
        case .none: break
        case .one(let i): if remove(i) { storage = .none }
        case .many(var a):
            storage = .none
            a.removeAll(where: remove)
            storage = a.count == 1 ? .one(a[0]) : a.isEmpty ? .none : .many(a)
        }
    }

    /// Puts `new` where `old` is, if it is there.
    mutating func replace(_ old: Instance, with new: Instance) {
        switch storage {
        case .none: break
        case .one(let i): if i === old { storage = .one(new) }
        case .many(var a):
            guard let k = a.firstIndex(where: { $0 === old }) else { return }
            storage = .none
            a[k] = new
            storage = .many(a)
        }
    }

    struct Iterator: IteratorProtocol {
        fileprivate let storage: Storage
        var k = 0
        mutating func next() -> Instance? {
            defer { k += 1 }
            switch storage {
            case .none: return nil
            case .one(let i): return k == 0 ? i : nil
            case .many(let a): return k < a.count ? a[k] : nil
            }
        }
    }

    func makeIterator() -> Iterator { Iterator(storage: storage) }
}

/// A removal, held by reference (`Instance.removal`).
final class RemovalBox {
    @exclusivity(unchecked) var value: Removal
    init(_ value: Removal) { self.value = value }
}

/// An instance's rarely used state (`Instance.extras`).
final class Extras {
    @exclusivity(unchecked) var dismissPending: (ref: EventRef, transitionSerial: Int)?
    @exclusivity(unchecked) var presentPending: EventRef?
    @exclusivity(unchecked) var completionPending: (marker: EventRef, appearing: Bool)?
    @exclusivity(unchecked) var parentState: ParentState = .unknown
    @exclusivity(unchecked) var tookAlong: [Instance] = []
    @exclusivity(unchecked) var initEpoch: Int?
    @exclusivity(unchecked) var mistakenForTwin = false
    @exclusivity(unchecked) var poppedOff: Instance?
    /// `Instance.pendingWill` and `lastDidDisappear` when their time does not pack (`PackedTime`).
    @exclusivity(unchecked) var pendingWill: EventRef?
    @exclusivity(unchecked) var lastDidDisappear: EventRef?
    /// The lines of its latest markers and parent moves (TransitionNaming.swift).
    @exclusivity(unchecked) var transitionMarks = TransitionNaming.Marks()
}

/// An `EventRef` without its time in 8 bytes (0: none): its line above the low byte, its kind's
/// bit index + 1 in it. For the refs that findings cite as related lines, never by time.
enum LineRef {
    @inline(__always)
    static func pack(_ r: EventRef?) -> UInt64 {
        guard let r else { return 0 }
        return UInt64(truncatingIfNeeded: r.line) << 8 | UInt64(r.kind.bit.trailingZeroBitCount + 1)
    }

    @inline(__always)
    static func unpack(_ v: UInt64) -> EventRef? {
        guard v != 0 else { return nil }
        return EventRef(line: Int(truncatingIfNeeded: v >> 8), time: nil, kind: EventKind.byBitIndex[Int(v & 0xFF) - 1])
    }
}

extension SessionTimeline {
    /// Moves an instance to `a`, keeping `visibleCount` (the live instances on screen) exact: a
    /// disappearance with nothing appearing asks whether anything of ours stays on screen, once per
    /// transition, which must not cost a scan of every controller (100k classes, each a sheet over a
    /// visible root, is one of the measured bounds: docs/performance.md#memory).
    @inline(__always)
    func setAppearance(_ inst: Instance, _ a: Appearance) {
        let was = inst.appearance.isVisible
        inst.appearance = a
        if was != a.isVisible { transitions.visibleCount += was ? -1 : 1 }
    }

    /// An instance leaves the live ones (deallocated, or forgotten): it no longer counts as visible.
    @inline(__always)
    func leaveLive(_ inst: Instance) {
        if inst.appearance.isVisible { transitions.visibleCount -= 1 }
        if !options.lifetimes.isEmpty { countDeath(inst, entry: inst.entry) }
    }
}

/// A class folded away by a session (`SessionTimeline.foldIdleClasses`): what the session's `ClassState`
/// held (its last deallocated instance, by reference) and, when it had one, its one live controller, removed
/// and idle: every field of that `Instance` a later line could read, so that unfolding it
/// (`Instance.init(folded:entry:)`) makes the instance it was, its removal included (its refs packed as the
/// instance packs its own). The session's end words its leak as it words a live controller's.
final class FoldedController {
    let session: Int
    let lastDead: Instance?
    let hasUnbound: Bool
    let evictAt: Int
    /// Whether a live controller was folded (else only the class's state was, and the fields below are unset).
    let hasController: Bool
    fileprivate(set) var serial = 0
    fileprivate(set) var lastActivity = 0
    fileprivate(set) var loadLineRef: UInt64 = 0, lastAppearRef: UInt64 = 0, lastWillDisappearRef: UInt64 = 0
    fileprivate(set) var lastDidDisappearRef: UInt64 = 0, lastDidDisappearTime: UInt64 = 0
    fileprivate(set) var evidenceRef: UInt64 = 0, evidenceTime: UInt64 = 0, anchorRef: UInt64 = 0, anchorTime: UInt64 = 0
    fileprivate(set) var removalKind = RemovalKind.popped
    fileprivate(set) var generation: UInt32 = 0
    fileprivate(set) var firstAppearRaw: Int32 = -1
    /// `Instance.initEpoch`, `Int32.min` for none.
    fileprivate(set) var initEpoch = Int32.min
    fileprivate(set) var flags: UInt16 = 0
    fileprivate(set) var appearance = Appearance.unknown
    fileprivate(set) var dialect = Dialect.objcFunction
    /// `Instance.parentState`: 0 unknown, 1 attached, 2 detached (the others are never folded).
    fileprivate(set) var parent: UInt8 = 0
    fileprivate(set) var removalTransition: TransitionKind?

    /// A class whose state holds no live controller.
    init(session: Int, lastDead: Instance?, hasUnbound: Bool, evictAt: Int) {
        (self.session, self.lastDead, self.hasUnbound, self.evictAt, self.hasController) = (session, lastDead, hasUnbound, evictAt, false)
    }

    /// A controller's class whose fields are set by `init(decoding:)`.
    private init(session: Int, lastDead: Instance?, hasUnbound: Bool, evictAt: Int, hasController: Bool) {
        (self.session, self.lastDead, self.hasUnbound, self.evictAt, self.hasController) = (session, lastDead, hasUnbound, evictAt, hasController)
    }

    fileprivate init(session: Int, lastDead: Instance?, hasUnbound: Bool, evictAt: Int, controller i: Instance) {
        (self.session, self.lastDead, self.hasUnbound, self.evictAt, self.hasController) = (session, lastDead, hasUnbound, evictAt, true)
        i.fold(into: self)
    }
}

extension FoldedController {
    /// Its fields as varints (`DormantClasses`, where a class nothing holds keeps it), `lastDead` aside (a
    /// class whose last deallocated instance is still held is not made dormant), in about 24 bytes where the
    /// object takes 160 (docs/performance.md#memory): refs as their distance from its last activity, their
    /// kinds only where they are not the slot's own (`Self.slotKinds`), and a removal's evidence or anchor
    /// that is its last viewDidDisappear not at all; the small fields (kinds of removal, transition,
    /// appearance, dialect, parent) as one number with a bit for each of the four fields that is not its
    /// default; times split where their fraction starts (`VarintWriter.time`); the serial as its distance from
    /// `number`, its class's (a class that made one controller made it about when the class was first met), and
    /// the transition it first appeared in as its distance from the serial (both count up as the session goes).
    func encode(into out: inout [UInt8], number: UInt32) {
        var w = VarintWriter(bytes: out)
        out = []
        w.uint(UInt64(session) << 2 | (hasUnbound ? 1 : 0) | (hasController ? 2 : 0))
        w.uint(UInt64(evictAt))
        if hasController {
            w.int(serial &- Int(number))
            w.uint(UInt64(lastActivity))
            let refs = [loadLineRef, lastAppearRef, lastWillDisappearRef, lastDidDisappearRef, evidenceRef, anchorRef]
            let evidenceIsLast = evidenceRef == lastDidDisappearRef && evidenceTime == lastDidDisappearTime
            let anchorIsLast = anchorRef == lastDidDisappearRef && anchorTime == lastDidDisappearTime
            var mask: UInt8 = (evidenceIsLast ? 1 << 6 : 0) | (anchorIsLast ? 1 << 7 : 0)
            for (k, r) in refs.enumerated() where r & 0xFF != 0 { mask |= 1 << k }
            w.byte(mask)
            for (k, r) in refs.enumerated() where r & 0xFF != 0 && !(k == 4 && evidenceIsLast) && !(k == 5 && anchorIsLast) {
                let own = UInt8(truncatingIfNeeded: r) == Self.slotKinds[k]
                w.uint(VarintWriter.zigzag(Int(truncatingIfNeeded: r >> 8) &- lastActivity) << 1 | (own ? 0 : 1))
                if !own { w.byte(UInt8(truncatingIfNeeded: r)) }
            }
            w.time(lastDidDisappearTime)
            if !evidenceIsLast { w.int(Int(truncatingIfNeeded: evidenceTime &- lastDidDisappearTime)) }
            if !anchorIsLast { w.int(Int(truncatingIfNeeded: anchorTime &- lastDidDisappearTime)) }
            var small = UInt64(removalKind.code)
            small = small * UInt64(TransitionKind.allCases.count + 1) + UInt64(removalTransition.map { $0.code + 1 } ?? 0)
            small = small * UInt64(Appearance.allCases.count) + UInt64(appearance.code)
            small = small * UInt64(Dialect.allCases.count) + UInt64(dialect.code)
            small = small * 3 + UInt64(parent)
            let present = (generation != 0 ? 1 : 0) | (firstAppearRaw != -1 ? 2 : 0) | (initEpoch != Int32.min ? 4 : 0) | (flags != 0 ? 8 : 0)
            w.uint(small << 4 | UInt64(present))
            if generation != 0 { w.uint(UInt64(generation)) }
            if firstAppearRaw != -1 { w.int(Int(firstAppearRaw) &- serial) }
            if initEpoch != Int32.min { w.int(Int(initEpoch)) }
            if flags != 0 { w.uint(UInt64(flags)) }
        }
        out = w.bytes
    }

    /// The kind of event each ref slot holds when it is its own (`LineRef.pack`'s low byte): viewDidLoad,
    /// viewDidAppear, viewWillDisappear, viewDidDisappear, and for a removal's evidence and anchor the
    /// viewDidDisappear that most removals are read from.
    private static let slotKinds: [UInt8] = [EventKind.viewDidLoad, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .viewDidDisappear, .viewDidDisappear]
        .map { UInt8($0.bit.trailingZeroBitCount + 1) }

    /// What `encode` wrote at `r`'s position, with the same `number`; `r` is left where it ends.
    convenience init(decoding r: inout VarintReader, number: UInt32) {
        let head = r.uint()
        let session = Int(head >> 2)
        let evictAt = Int(r.uint())
        guard head & 2 != 0 else {
            self.init(session: session, lastDead: nil, hasUnbound: head & 1 != 0, evictAt: evictAt)
            return
        }
        self.init(session: session, lastDead: nil, hasUnbound: head & 1 != 0, evictAt: evictAt, hasController: true)
        serial = r.int() &+ Int(number)
        lastActivity = Int(r.uint())
        let mask = r.byte()
        var refs: [UInt64] = Array(repeating: 0, count: 6)
        for k in 0..<6 where mask & 1 << k != 0 && !(k == 4 && mask & 1 << 6 != 0) && !(k == 5 && mask & 1 << 7 != 0) {
            let v = r.uint()
            let kind = v & 1 == 0 ? Self.slotKinds[k] : r.byte()
            refs[k] = UInt64(truncatingIfNeeded: VarintReader.unzigzag(v >> 1) &+ lastActivity) << 8 | UInt64(kind)
        }
        if mask & 1 << 6 != 0 { refs[4] = refs[3] }
        if mask & 1 << 7 != 0 { refs[5] = refs[3] }
        (loadLineRef, lastAppearRef, lastWillDisappearRef, lastDidDisappearRef, evidenceRef, anchorRef) = (refs[0], refs[1], refs[2], refs[3], refs[4], refs[5])
        lastDidDisappearTime = r.time()
        evidenceTime = mask & 1 << 6 != 0 ? lastDidDisappearTime : lastDidDisappearTime &+ UInt64(bitPattern: Int64(r.int()))
        anchorTime = mask & 1 << 7 != 0 ? lastDidDisappearTime : lastDidDisappearTime &+ UInt64(bitPattern: Int64(r.int()))
        var small = r.uint()
        let present = small & 0xF
        small >>= 4
        parent = UInt8(small % 3)
        small /= 3
        dialect = Dialect(code: UInt8(small % UInt64(Dialect.allCases.count)))
        small /= UInt64(Dialect.allCases.count)
        appearance = Appearance(code: UInt8(small % UInt64(Appearance.allCases.count)))
        small /= UInt64(Appearance.allCases.count)
        let t = UInt8(small % UInt64(TransitionKind.allCases.count + 1))
        removalTransition = t == 0 ? nil : TransitionKind(code: t - 1)
        removalKind = RemovalKind(code: UInt8(small / UInt64(TransitionKind.allCases.count + 1)))
        generation = present & 1 != 0 ? UInt32(truncatingIfNeeded: r.uint()) : 0
        firstAppearRaw = present & 2 != 0 ? Int32(truncatingIfNeeded: r.int() &+ serial) : -1
        initEpoch = present & 4 != 0 ? Int32(truncatingIfNeeded: r.int()) : Int32.min
        flags = present & 8 != 0 ? UInt16(truncatingIfNeeded: r.uint()) : 0
    }
}

extension Instance {
    /// Whether `FoldedController` holds all of it: no address (nothing routes to it but its class),
    /// alive and not forgotten, hidden or never shown, nothing pending (a will, a transition, a marker,
    /// a child move), covering nothing, no live object of its own nor an owner, no time that did not
    /// pack, no marks that name transitions. The caller checks what others hold of it.
    var foldable: Bool {
        guard addressRaw == 0, deallocRef == 0, pendingWillRef == 0, pendingWillTime == 0, transition == nil,
              lastDidDisappearTime != PackedTime.elsewhere, coveredBy.isEmpty, !forgotten, !setupRunning, !isView,
              appearance == .hidden || appearance == .unknown, let r = removalBox?.value,
              r.kind != .poppedWithTop, r.kind != .ownerDeallocated, r.takenAlongBy == nil,
              Self.packs(r.evidence, entry.times), Self.packs(r.anchor, entry.times) else { return false }
        if let e = extras {
            guard e.dismissPending == nil, e.presentPending == nil, e.completionPending == nil, e.tookAlong.isEmpty,
                  e.pendingWill == nil, e.lastDidDisappear == nil,
                  e.transitionMarks.present | e.transitionMarks.dismiss | e.transitionMarks.toParent | e.transitionMarks.fromParent == 0
            else { return false }
            switch e.parentState {
            case .unknown, .attached, .detached: break
            case .adding, .removing: return false
            }
            if let epoch = e.initEpoch, Int32(exactly: epoch) == nil || epoch == Int(Int32.min) { return false }
        }
        if let l = link {
            guard let objects = l as? ObjectLink, !objects.owned.contains(where: { $0.isAlive }) else { return false }
        }
        return true
    }

    /// Whether a removal's ref keeps its time in 8 bytes (`PackedTime`).
    private static func packs(_ r: EventRef, _ times: PackedTime.Table) -> Bool { r.time.map { times.pack($0) != nil } ?? true }

    /// Its class folded with it (`foldable` holds).
    func folded(session: Int, lastDead: Instance?, hasUnbound: Bool, evictAt: Int) -> FoldedController {
        FoldedController(session: session, lastDead: lastDead, hasUnbound: hasUnbound, evictAt: evictAt, controller: self)
    }

    fileprivate func fold(into f: FoldedController) {
        switch extras?.parentState ?? .unknown {
        case .attached: f.parent = 1
        case .detached: f.parent = 2
        default: f.parent = 0
        }
        (f.serial, f.lastActivity, f.loadLineRef, f.lastAppearRef) = (serial, lastActivityLine, loadLineRef, lastAppearRef)
        (f.lastWillDisappearRef, f.lastDidDisappearRef, f.lastDidDisappearTime) = (lastWillDisappearRef, lastDidDisappearRef, lastDidDisappearTime)
        (f.generation, f.firstAppearRaw, f.flags, f.appearance, f.dialect) = (generationRaw, firstAppearRaw, flags, appearance, dialect)
        f.initEpoch = extras?.initEpoch.map { Int32($0) } ?? Int32.min
        if let r = removalBox?.value {
            f.removalKind = r.kind
            f.removalTransition = r.transition
            (f.evidenceRef, f.evidenceTime) = (LineRef.pack(r.evidence), r.evidence.time.flatMap { entry.times.pack($0) } ?? 0)
            (f.anchorRef, f.anchorTime) = (LineRef.pack(r.anchor), r.anchor.time.flatMap { entry.times.pack($0) } ?? 0)
        }
    }

    /// The instance `f` was, of the class of `entry`.
    convenience init(folded f: FoldedController, entry: Instrumentation.ClassEntry) {
        self.init(serial: f.serial, entry: entry, address: nil, generation: Int(f.generation), dialect: f.dialect, line: f.lastActivity)
        loadLineRef = f.loadLineRef
        lastAppearRef = f.lastAppearRef
        lastWillDisappearRef = f.lastWillDisappearRef
        lastDidDisappearRef = f.lastDidDisappearRef
        lastDidDisappearTime = f.lastDidDisappearTime
        firstAppearRaw = f.firstAppearRaw
        flags = f.flags
        appearance = f.appearance
        func ref(_ line: UInt64, _ time: UInt64) -> EventRef {
            var r = LineRef.unpack(line)!
            if time != 0 { r.time = entry.times.unpack(time) }
            return r
        }
        removalBox = RemovalBox(Removal(kind: f.removalKind, evidence: ref(f.evidenceRef, f.evidenceTime), takenAlongBy: nil,
                                        anchor: ref(f.anchorRef, f.anchorTime), transition: f.removalTransition))
        if f.initEpoch != Int32.min { more.initEpoch = Int(f.initEpoch) }
        if f.parent == 1 { more.parentState = .attached } else if f.parent == 2 { more.parentState = .detached }
    }
}
