/// The objects of a screen (docs/lifecycle.md#objects): classes that log only their init and
/// deinit, each owned by at most one controller or SwiftUI view (docs/lifecycle.md#owners). An
/// owned object must go when its owner controller is deallocated: it is then marked as removed
/// (`RemovalKind.ownerDeallocated`), so that its leak and its late dealloc are decided as a removed
/// controller's are (the leak clock, the session's end, eviction), and worded by `leaked_object`
/// and `late_dealloc`.

/// Why an object has its owner (`vclint inspect` and the leak report say it).
public enum OwnerReason: UInt8, Sendable {
    /// The owner shares the object's name stem.
    case stem
    /// The owner's setup was running when the object was made (or the object was made in a burst
    /// right before the owner's first event).
    case setup

    /// How `vclint inspect` says it.
    public var word: String { self == .stem ? "stem" : "setup" }
}

/// A controller's or view's objects (`Instance.objects`).
final class ObjectLink {
    /// The controller's objects (dead ones are dropped lazily).
    @exclusivity(unchecked) var owned: [Instance] = []
    /// `owned`'s length at which dead entries are dropped.
    @exclusivity(unchecked) var pruneAt = 16
}

/// Names (docs/lifecycle.md#owners): which may be an object's, and their stems.
enum ObjectNames {
    /// The suffixes a stem is without, longest first.
    static let suffixes = [
        "HostingController", "ViewController", "Coordinator", "Controller", "Interactor", "Presenter",
        "ViewModel", "Feature", "Router", "Screen", "Model", "Store", "View", "VM", "VC",
    ]

    /// A name that does not end in `Controller` or `VC` (a controller's, whatever it logs).
    static func mayBeObject(_ name: String) -> Bool {
        if name == MessageParser.unnamed || name == MessageParser.unknown { return false }
        return !TypeNames.isController(String(lastComponent(name)))
    }

    /// An Activity's or Fragment's name (docs/lifecycle.md#android-identity).
    static func isAndroidController(_ name: String) -> Bool {
        // By bytes, as `stem` (the suffixes hold no dot: the name's ending is its last component's).
        var name = name
        return name.withUTF8 { LogcatStatement.endsWith($0, "Activity") || LogcatStatement.endsWith($0, "Fragment") }
    }

    /// The stem of an Activity's or Fragment's name: `Main` for `MainActivity` and `com.example.MainFragment`.
    static func androidStem(_ name: String) -> String {
        // By bytes (both suffixes are ASCII): its last component, without the suffix when something is left.
        var name = name
        return name.withUTF8 { b -> String in
            var start = b.count
            while start > 0, b[start - 1] != .dot { start -= 1 }
            var last = UnsafeBufferPointer(rebasing: b[start...])
            if last.count > 8, LogcatStatement.endsWith(last, "Activity") || LogcatStatement.endsWith(last, "Fragment") {
                last = UnsafeBufferPointer(rebasing: last[..<(last.endIndex - 8)])
            }
            return stem(String(decoding: last, as: UTF8.self))
        }
    }

    static func lastComponent(_ name: String) -> Substring {
        // By bytes: a `.` is one byte, and its index is a character's.
        let bytes = name.utf8
        if let dot = bytes.lastIndex(of: .dot) { return name[bytes.index(after: dot)...] }
        return name[...]
    }

    /// The name without its module and its suffixes; for a nested type whose last part is only a
    /// suffix (`MainView.ViewModel`), the enclosing type's stem. "" when nothing is left. Read by
    /// bytes (every suffix is ASCII): a capture of 400k classes asks it 400k times.
    static func stem(_ name: String) -> String {
        var bytes = Array(name.utf8)
        // A title (`Modal Screen`) is the name of its words.
        if bytes.contains(.space) { bytes.removeAll { $0 == .space } }
        return bytes.withUnsafeBufferPointer { b -> String in
            // The dotted parts from the last: the first whose stripped stem is not empty.
            var end = b.count
            while end > 0 {
                var start = end
                while start > 0, b[start - 1] != .dot { start -= 1 }
                if start < end {
                    let kept = strip(b, start, end)
                    if kept > start { return String(decoding: UnsafeBufferPointer(rebasing: b[start..<kept]), as: UTF8.self) }
                }
                end = start - 1
            }
            return ""
        }
    }

    /// The suffixes' bytes, in `suffixes`' order.
    private static let suffixBytes: [[UInt8]] = suffixes.map { Array($0.utf8) }

    /// Where `b[start..<end]` ends once its suffixes are stripped while something is left; `start`
    /// (nothing) when the whole part is one suffix.
    private static func strip(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var rest = end
        var strippedAny = false
        while true {
            guard let suffix = suffixBytes.first(where: { s in
                guard rest - start >= s.count else { return false }
                for k in 0..<s.count where b[rest - s.count + k] != s[k] { return false }
                return true
            }) else { break }
            let shorter = rest - suffix.count
            if shorter == start { return strippedAny ? rest : start }
            rest = shorter
            strippedAny = true
        }
        return rest
    }
}

/// A class's stem (`ObjectNames.stem`) as the owner indexes key it: its text, and the hash `StringArena` gives it, made once
/// with the class's entry. A session looks stems up at every object's init and every owner's first event; hashing the
/// text anew each time (several dictionaries and the dormant stems' index) cost more than the rest of the lookup.
struct Stem: Hashable, Sendable {
    let text: String
    /// `StringArena.hash(text)`: the key of the dormant stems' index too (`SessionIdentity.dormantStems`).
    let key: UInt64

    init(_ text: String) {
        self.text = text
        key = StringArena.hash(text)
    }

    @inline(__always) var isEmpty: Bool { text.isEmpty }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
    static func == (a: Stem, b: Stem) -> Bool { a.key == b.key && a.text == b.text }
}

/// What a session knows of owners: the live controllers and views by stem, the setups running,
/// the objects made in the current burst, and the objects whose stem's owner is still to come.
struct SessionObjects {
    var ownersByStem: [Stem: [Instance]] = [:]
    /// Controllers whose setup is running, the one active most recently last (at most
    /// `setupLimit`), each with the thread of its latest event (0: unknown).
    var setups: [(inst: Instance, thread: UInt64)] = []
    static let setupLimit = 32
    /// The objects made since the latest other lifecycle statement of their thread, each with its thread.
    var burst: [(inst: Instance, thread: UInt64)] = []
    static let burstLimit = 256
    /// The latest burst that ended with a class's first instance, after its first member, while the class had
    /// logged nothing but that init (`SessionTimeline.keepEndedBurst`); empty otherwise.
    var endedBurst: [Instance] = []
    /// The objects of a burst that a controller's dealloc ended, given by stem to an owner on its way out
    /// (`SessionTimeline.givenToLeavingOwner`), each with its thread: a controller of their stem whose first event
    /// follows on that thread, with only deallocs between, takes them (`registerOwner`). Emptied at any other event.
    var leftBehind: [(inst: Instance, thread: UInt64)] = []
    /// Objects with a stem that no live controller or view had at their init.
    var awaitingStem: [Stem: [Instance]] = [:]
    var awaitingCount = 0
    /// How many objects of one stem wait at least (and at most twice as many).
    static let awaitingPerStem = 64
    /// How many owners of one stem are kept at least (and at most twice as many), the latest made.
    static let ownersPerStem = 64
    /// `awaitingCount` at which dead and settled entries are dropped: twice what stayed, so that
    /// pruning costs constant time per object however many stay.
    var awaitingPruneAt = 4096

    /// Appends `inst` to a stem's awaiting objects and, once they reach twice `keeping`, keeps the latest
    /// `keeping`: how many the list grew by (1, or less when some were dropped).
    @inline(__always)
    static func appendAwaiting(_ inst: Instance, to list: inout [Instance], keeping: Int) -> Int {
        list.append(inst)
        guard list.count >= 2 * keeping else { return 1 }
        let dropped = list.count - keeping
        list.removeFirst(dropped)
        return 1 - dropped
    }

    /// Appends `inst` to a stem's owners and, once they reach twice `ownersPerStem`, drops the dead and forgotten
    /// ones and keeps at most the latest `ownersPerStem`.
    @inline(__always)
    static func appendOwner(_ inst: Instance, to list: inout [Instance]) {
        list.append(inst)
        guard list.count >= 2 * ownersPerStem else { return }
        list.removeAll { !$0.isAlive || $0.forgotten }
        if list.count > ownersPerStem { list.removeFirst(list.count - ownersPerStem) }
    }
}

extension SessionTimeline {
    /// How many objects of a class are tracked one by one before a class that has never logged its
    /// deinit is taken not to log it (`untracks`).
    static let trackedObjectsPerClass = 4096

    /// Whether `e`, an init, makes an object that is only counted (`ClassEntry.instancesMade`), not
    /// tracked: its class is an object class that has made `trackedObjectsPerClass` objects in the
    /// input without ever logging a deinit, so none of its objects can be a leak or a late dealloc
    /// (docs/lifecycle.md#instrumentation) and memory follows what can still be reported
    /// (docs/performance.md#memory). Not when a `lifetimes` limit counts the class, nor while a
    /// timeline is recorded (it draws every object), nor for an address an instance of the class
    /// still holds. A deinit logged later makes the class's next objects tracked again.
    @inline(__always)
    func untracks(_ e: Event, _ state: ClassState) -> Bool {
        let entry = state.entry
        guard entry.instancesMade >= Self.trackedObjectsPerClass, entry.isObjectClass, !entry.kinds.contains(.dealloc),
              recorder == nil, lifetimeLimits(of: entry).isEmpty else { return false }
        if let a = e.address, let known = identity.byAddress[a], known.entry === entry { return false }
        return true
    }

    /// After an event has been applied to `inst`: objects find their owners, controllers and
    /// views become owners.
    @inline(__always)
    func trackOwnership(_ e: Event, _ inst: Instance, _ entry: Instrumentation.ClassEntry) {
        if entry.isObjectClass {
            if e.kind == .initialize, !inst.ownerSought, inst.isAlive {
                objectMade(inst, e)
            } else if !objects.burst.isEmpty {
                endBurst(thread: e.thread)
            }
            if e.kind != .dealloc, !objects.leftBehind.isEmpty { objects.leftBehind = [] }
            return
        }
        if !inst.ownerCandidate, inst.isAlive {
            registerOwner(inst, e)
        } else if !objects.burst.isEmpty {
            if e.kind == .dealloc { keepLeftBehind(thread: e.thread) }
            endBurst(thread: e.thread)
        }
        if e.kind != .dealloc, !objects.leftBehind.isEmpty { objects.leftBehind = [] }
        if inst.setupRunning {
            if e.kind == .viewDidAppear {
                endSetup(inst)
            } else if let k = objects.setups.lastIndex(where: { $0.inst === inst }) {
                // The setup that shows activity last is the one running now: a tab root made at
                // launch whose view loads later owns what its viewDidLoad makes.
                if k != objects.setups.count - 1 {
                    objects.setups.remove(at: k)
                    objects.setups.append((inst, e.thread))
                } else {
                    objects.setups[k].thread = e.thread
                }
            }
        }
    }

    /// Whether two lines may come from one thread (0: the envelope did not say).
    @inline(__always)
    static func sameThread(_ a: UInt64, _ b: UInt64) -> Bool { a == 0 || b == 0 || a == b }

    /// A lifecycle statement other than an object's init on `thread`: that thread's burst is over.
    func endBurst(thread: UInt64) {
        keepEndedBurst(thread: thread)
        if thread == 0 {
            objects.burst.removeAll(keepingCapacity: true)
        } else {
            objects.burst.removeAll { Self.sameThread($0.thread, thread) }
        }
    }

    /// Whether `o` was given by stem to an owner on its way out: removed (popped, dismissed) or deallocated. It may be
    /// the next controller's of that stem, whose builder makes its objects first (`registerOwner`).
    @inline(__always)
    static func givenToLeavingOwner(_ o: Instance) -> Bool {
        guard o.ownerReason == .stem, let owner = o.owner else { return false }
        return !owner.isAlive || owner.isRemoved
    }

    /// Keeps, as `leftBehind`, the objects of the burst that a controller's dealloc ends on `thread` that were given
    /// by stem to an owner on its way out.
    func keepLeftBehind(thread: UInt64) {
        for (o, t) in objects.burst where Self.sameThread(t, thread) && o.isAlive && o.entry.isObjectClass
            && Self.givenToLeavingOwner(o) {
            objects.leftBehind.append((o, t))
        }
    }

    /// Keeps the burst that ends on `thread` when a member after the first is the first instance of a class that
    /// has logged nothing but its init: a label (`Init – S`) may turn out to be a controller's (`viewDidLoad – S`
    /// later), whose first event was that init, and then the objects made before it in the burst are its own
    /// (`registerOwner`).
    @inline(__always)
    func keepEndedBurst(thread: UInt64) {
        let burst = objects.burst
        var mayOwn = false
        if burst.count >= 2 {
            // Only a class's first instance: once it has logged a callback its next inits are a controller's.
            for k in 1..<burst.count where burst[k].inst.entry.kinds.rawBits == EventKind.initialize.bit
                && burst[k].inst.entry.instancesMade == 1 && Self.sameThread(burst[k].thread, thread) {
                mayOwn = true
                break
            }
        }
        if mayOwn {
            objects.endedBurst = burst.compactMap { Self.sameThread($0.thread, thread) ? $0.inst : nil }
        } else if !objects.endedBurst.isEmpty {
            objects.endedBurst = []
        }
    }

    /// An object's init: its owner by stem, else by the setup running (docs/lifecycle.md#owners).
    func objectMade(_ inst: Instance, _ e: Event) {
        inst.ownerSought = true
        // An object loads no view: its init is kept where a controller keeps its viewDidLoad.
        inst.loadLine = EventRef(e)
        let stem = inst.entry.stem
        if inst.dialect.isAndroid, !stem.isEmpty, let owner = androidStemOwner(stem.text) {
            serve(inst, owner)
        } else if !stem.isEmpty, let owner = stemOwner(stem) {
            assign(inst, to: owner, .stem)
        } else {
            if let setup = latestSetup(thread: e.thread) { assign(inst, to: setup, .setup) }
            if !stem.isEmpty {
                // The latest of a stem wait (an owner made later takes them): a million cell view
                // models with no screen of their stem cost no list. (One access to the stem's list.)
                objects.awaitingCount += SessionObjects.appendAwaiting(inst, to: &objects.awaitingStem[stem, default: []],
                                                                       keeping: SessionObjects.awaitingPerStem)
                if objects.awaitingCount > objects.awaitingPruneAt { pruneAwaiting() }
            }
        }
        if objects.burst.count < SessionObjects.burstLimit { objects.burst.append((inst, e.thread)) }
    }

    /// Drops the awaiting objects that died or found their stem's owner.
    func pruneAwaiting() {
        var count = 0
        for (stem, list) in objects.awaitingStem {
            let kept = list.filter { $0.isAlive && $0.ownerReason != .stem }
            objects.awaitingStem[stem] = kept.isEmpty ? nil : kept
            count += kept.count
        }
        objects.awaitingCount = count
        objects.awaitingPruneAt = max(4096, count * 2)
    }

    /// The live controller or view of `stem` whose setup is running (the latest begun), else the
    /// one made most recently.
    func stemOwner(_ stem: Stem) -> Instance? {
        unfoldOwner(stem)
        guard var list = objects.ownersByStem[stem] else { return nil }
        if list.contains(where: { !$0.isAlive || $0.forgotten }) {
            list.removeAll { !$0.isAlive || $0.forgotten }
            objects.ownersByStem[stem] = list.isEmpty ? nil : list
        }
        for s in objects.setups.reversed() where s.inst.isAlive && s.inst.entry.stem == stem { return s.inst }
        return list.max { $0.serial < $1.serial }
    }

    /// The setup running on `thread` with the latest event.
    func latestSetup(thread: UInt64) -> Instance? {
        while let last = objects.setups.last, !last.inst.isAlive || !last.inst.setupRunning { objects.setups.removeLast() }
        for s in objects.setups.reversed() where s.inst.isAlive && s.inst.setupRunning && Self.sameThread(s.thread, thread) { return s.inst }
        return nil
    }

    /// A controller's or view's first event as such: objects awaiting its stem, and those made in
    /// the burst right before it, are its own; a controller's setup begins.
    func registerOwner(_ inst: Instance, _ e: Event) {
        inst.ownerCandidate = true
        // Taken for an object until now (its class logged only its init): it is not one.
        if inst.owner != nil { inst.owner = nil }
        let stem = inst.entry.stem
        if !stem.isEmpty {
            unfoldOwner(stem)
            // Dead and forgotten (evicted) owners go, and past that only the latest of a stem stay:
            // a million controllers of one stem on a stack cost no list. (One access to the stem's list.)
            SessionObjects.appendOwner(inst, to: &objects.ownersByStem[stem, default: []])
            if let waiting = objects.awaitingStem.removeValue(forKey: stem) {
                objects.awaitingCount -= waiting.count
                for o in waiting where o.isAlive && o !== inst && o.entry.isObjectClass { assign(o, to: inst, .stem) }
            }
        }
        if !objects.burst.isEmpty {
            for (o, thread) in objects.burst where Self.sameThread(thread, e.thread) && o.isAlive && o !== inst && o.entry.isObjectClass {
                if o.ownerReason != .stem {
                    assign(o, to: inst, .setup)
                } else if !stem.isEmpty, o.entry.stem == stem, Self.givenToLeavingOwner(o) {
                    // Given by stem to a controller of the stem on its way out (dismissed, its dealloc late): a
                    // builder made them for this one, which comes right after them.
                    assign(o, to: inst, .stem)
                }
            }
            endBurst(thread: e.thread)
        }
        // The same, when the leaving controller's dealloc came between them and this one.
        if !objects.leftBehind.isEmpty {
            if !stem.isEmpty {
                for (o, thread) in objects.leftBehind where Self.sameThread(thread, e.thread) && o.isAlive && o.entry.stem == stem
                    && Self.givenToLeavingOwner(o) {
                    assign(o, to: inst, .stem)
                }
            }
            objects.leftBehind = []
        }
        // Taken for an object at its init, made right after others in one burst: its init was its first event.
        if inst.ownerSought, !objects.endedBurst.isEmpty, let k = objects.endedBurst.firstIndex(where: { $0 === inst }) {
            for o in objects.endedBurst[..<k] where o.isAlive && o.entry.isObjectClass && o.ownerReason != .stem {
                assign(o, to: inst, .setup)
            }
            objects.endedBurst = []
        }
        if !inst.isView, e.kind != .viewDidAppear, e.kind != .dealloc {
            inst.setupRunning = true
            objects.setups.append((inst, e.thread))
            if objects.setups.count > SessionObjects.setupLimit {
                objects.setups.first?.inst.setupRunning = false
                objects.setups.removeFirst()
            }
        }
    }

    func endSetup(_ inst: Instance) {
        inst.setupRunning = false
        if let k = objects.setups.lastIndex(where: { $0.inst === inst }) { objects.setups.remove(at: k) }
    }

    func assign(_ object: Instance, to owner: Instance, _ reason: OwnerReason) {
        if object.owner === owner { return }
        if debug { TimelineDebug.print("  owner of \(object.label): \(owner.label) (\(reason.word))") }
        object.owner = owner
        // A new owner, alive: what the previous owner's dealloc said no longer holds.
        if object.removal?.kind == .ownerDeallocated {
            object.removal = nil
            resolveEmittedLeak(object, .ownerChanged)
        }
        // A view never goes: its objects are not judged by their owner, and it keeps no list.
        guard !owner.isView else { return }
        let ownerLink = owner.objectsMade
        ownerLink.owned.append(object)
        if ownerLink.owned.count >= ownerLink.pruneAt {
            ownerLink.owned.removeAll { !$0.isAlive || $0.owner !== owner }
            ownerLink.pruneAt = max(16, ownerLink.owned.count * 2)
        }
    }

    /// An owner's dealloc: its live objects must follow within the grace period. When the dealloc
    /// had no address and another live instance of the owner's class without one could have taken
    /// it (the owner was not removed, both were taken along by a pop to root, or a pop showed that
    /// the two had been told apart wrongly before, `takeTwinsPlace`), the log does not say which of
    /// the twins went (docs/lifecycle.md#generations): its objects are not judged (they keep their
    /// owner for the reports, and take their class's next address-less deinits first).
    func ownerDeallocated(_ inst: Instance, _ ref: EventRef, addressed: Bool) {
        if inst.setupRunning { endSetup(inst) }
        guard let link = inst.objects, !link.owned.isEmpty else { return }
        let owned = link.owned
        link.owned = []
        // A removed instance takes an address-less dealloc before its hidden twins, the one removed
        // last first (the top of a pop to root): ambiguous when it was not removed, or was taken
        // along by another's removal while another twin was removed too.
        var ambiguous = false
        if !addressed, let twins = existingClass(inst.className)?.live {
            let takenAlong = inst.removal?.kind == .poppedWithTop
            ambiguous = twins.contains(where: { $0 !== inst && $0.isAlive && $0.address == nil
                && (!inst.isRemoved || takenAlong && $0.isRemoved || inst.mistakenForTwin && $0.mistakenForTwin) })
            if ambiguous, debug { TimelineDebug.print("  \(inst.label)'s objects are not judged: a twin could have taken its dealloc") }
        }
        let removal = inst.removal?.anchor
        var name: String?
        for o in owned where o.isAlive && !o.forgotten && o.owner === inst && o.entry.isObjectClass {
            if name == nil { name = inst.display }
            o.removal = Removal(kind: .ownerDeallocated, evidence: removal ?? ref, takenAlongBy: name, anchor: ref)
            // Not judged, but still the likelier target of its class's next address-less deinit
            // (`objectForDeinit`) than an object whose owner lives.
            if ambiguous { o.emitted.insert(.leak); continue }
            if debug { TimelineDebug.print("  \(o.label) must follow its owner \(inst.label)") }
            scheduleLeakCheck(o)
        }
    }

    /// The class of the one live controller of `name`'s stem when no live instance has that name
    /// (a marker naming the class where the callbacks name a title); nil when there is none or several.
    func markerAlias(_ name: String) -> String? {
        let stem = Stem(ObjectNames.stem(name))
        guard !stem.isEmpty else { return nil }
        unfoldOwner(stem)
        guard let list = objects.ownersByStem[stem] else { return nil }
        var found: String?
        for i in list where i.isAlive && !i.isView && i.className != name {
            if let f = found, f != i.className { return nil }
            found = i.className
        }
        return found
    }

    /// The object an address-less deinit belongs to: the live one whose owner was deallocated
    /// first, else the one whose owner was removed first and has not deallocated yet, else the
    /// oldest (docs/lifecycle.md#objects).
    func objectForDeinit(_ live: ArraySlice<Instance>) -> Instance? {
        // Judged ones first (their owner's dealloc was the owner's for sure), then those whose
        // owner's dealloc may have been a twin's, each by their owner's dealloc; then those whose
        // owner is on its way out (popped or dismissed, its dealloc still to come: an object may
        // print its deinit before its owner's), by the owner's removal. An object whose owner
        // lives is held by it.
        var chosen: Instance?, chosenRank = (Int.max, Int.max)
        for i in live where i.isAlive {
            let rank: (Int, Int)
            if let r = i.removal, r.kind == .ownerDeallocated {
                rank = (i.emitted.contains(.leak) ? 1 : 0, r.anchor.line)
            } else if let owner = i.owner, owner.isAlive, let r = owner.removal {
                rank = (2, r.anchor.line)
            } else {
                continue
            }
            if rank < chosenRank {
                chosen = i
                chosenRank = rank
            }
        }
        return chosen ?? live.first { $0.isAlive }
    }

    /// The owner of an object (nil: an app-lifetime object, or not an object).
    func owner(of inst: Instance) -> (Instance, OwnerReason)? {
        guard let owner = inst.owner, let reason = inst.ownerReason else { return nil }
        return (owner, reason)
    }

    /// The leak of an object whose owner was deallocated (`reportLeak`, eviction, the session's end).
    func objectLeakObservation(_ inst: Instance, _ r: Removal, wentOn: Double?, confirmed: Bool) -> Observation {
        let made = inst.loadLine
        let ownerRef = inst.owner?.ref ?? ControllerRef(className: r.takenAlongBy ?? "", address: nil, instance: r.takenAlongBy ?? "")
        return Observation(ObjectLeakFact.outlived(ObjectLeak(ownerGone: r, made: made, owner: ownerRef, wentOn: wentOn, confirmed: confirmed)),
                           controller: inst.ref, requires: Requirement(className: inst.className, anyOf: [.dealloc], object: true),
                           line: r.anchor.line, time: r.anchor.time)
    }
}
