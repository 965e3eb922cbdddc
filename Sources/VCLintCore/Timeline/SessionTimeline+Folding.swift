/// Folding idle classes (docs/performance.md#memory): a capture of many distinct classes, each with one
/// controller that was removed and is waiting for a dealloc that may never come, would cost the session a
/// class state, an instance, a removal and their entries per class, although only a later line of the class
/// (or its dealloc's dialect, at the end) can still say anything about it. Such a class is folded away into
/// its entry's `FoldedController` (about 150 bytes), and unfolded, exactly as it was, by the next line that
/// names the class or its owner stem; the session's end words the leaks of those still folded.
extension SessionTimeline {
    /// Folds the classes whose one controller nothing but a line of its class can reach. Run when the
    /// session's classes reach `identity.foldAt` (twice what stayed after the previous run, at least
    /// `TimelineOptions.classFoldFloor`): amortised constant time per class.
    func foldIdleClasses() {
        // A recorded timeline draws every controller: its lane keeps what it needs of a folded one
        // (`TimelineRecorder.folded`), and `leaks` and `inspect` tally them (the session's end tells the recorder
        // about those still folded). Live mode schedules and prints leaks by instance; `lifetimes` limits count
        // instances.
        guard !options.live, options.lifetimes.isEmpty else {
            identity.foldAt = .max
            return
        }
        // What other instances and pending work still hold: those stay as they are.
        var held = Set<ObjectIdentifier>()
        func hold(_ t: Transition) { for m in t.members { held.insert(ObjectIdentifier(m.instance)) } }
        if let t = transitions.current { hold(t) }
        for m in naming.lastMembers { held.insert(ObjectIdentifier(m.instance)) }
        for i in naming.lastTakenAlong { held.insert(ObjectIdentifier(i)) }
        for j in naming.joining { held.insert(ObjectIdentifier(j.instance)) }
        for s in objects.setups { held.insert(ObjectIdentifier(s.inst)) }
        if let i = identity.lastInitInstance { held.insert(ObjectIdentifier(i)) }
        for state in identity.classes.values {
            for i in state.live {
                for c in i.coveredBy { held.insert(ObjectIdentifier(c)) }
                for c in i.tookAlong { held.insert(ObjectIdentifier(c)) }
                if let t = i.transition { hold(t) }
                if let owner = i.owner { held.insert(ObjectIdentifier(owner)) }
            }
        }
        // Classes folded, unfolded and folded again are listed once more each time: listed once again.
        if identity.foldedEntries.count > 2 * identity.foldedCount + 64 {
            var seen = Set<ObjectIdentifier>()
            identity.foldedEntries.removeAll { $0.folded?.session != serial || !seen.insert(ObjectIdentifier($0)).inserted }
        }
        if identity.foldedRows.count > 2 * identity.foldedCount + 64 {
            var seen = Set<UInt32>()
            identity.foldedRows.removeAll { row in !holdsFolded(row: row) || !seen.insert(row).inserted }
        }
        var folded: [String] = []
        let firstFolded = identity.foldedEntries.count
        for (name, state) in identity.classes {
            let entry = state.entry
            guard state.live.count <= 1, entry.folded == nil, !entry.isObjectClass else { continue }
            guard let i = state.live.first else {
                // Every controller of the class gone: only what routes a line after a dealloc stays.
                entry.folded = FoldedController(session: serial, lastDead: state.lastDead, hasUnbound: state.hasUnbound, evictAt: state.evictAt)
                identity.foldedEntries.append(entry)
                identity.foldedCount += 1
                folded.append(name)
                continue
            }
            guard !i.dialect.isAndroid, i.foldable, !held.contains(ObjectIdentifier(i)) else { continue }
            // An owner: folded only as its stem's one live owner, so that unfolding it puts it back
            // where it was in its stem's list.
            let stem = entry.stem
            let owns = i.ownerCandidate && !stem.isEmpty
            if owns {
                if identity.foldedStems[stem] != nil || dormantOwner(stem) != nil { continue }
                if let list = objects.ownersByStem[stem], list.contains(where: { $0 !== i && $0.isAlive && !$0.forgotten }) { continue }
            }
            entry.folded = i.folded(session: serial, lastDead: state.lastDead, hasUnbound: state.hasUnbound, evictAt: state.evictAt)
            identity.foldedEntries.append(entry)
            identity.foldedCount += 1
            if owns {
                objects.ownersByStem[stem] = nil
                identity.foldedStems[stem] = entry
            }
            i.forgotten = true
            recorder?.folded(i)
            folded.append(name)
        }
        for name in folded { identity.classes[name] = nil }
        if !folded.isEmpty {
            identity.recentClasses.forget { $0.entry.folded != nil }
        }
        if identity.foldedEntries.count > firstFolded { retireFolded(from: firstFolded) }
        identity.foldAt = max(options.classFoldFloor, identity.classes.count * 2)
        if debug, !folded.isEmpty { TimelineDebug.print("  folded \(folded.count) idle classes; \(identity.classes.count) stay") }
    }

    /// The classes just folded (`foldedEntries` from `start`) that nothing else holds give up their entries
    /// (`Instrumentation.retire`): each is then a dormant row, about 100 bytes with its name, where the
    /// entry, its name, its record and their slots took about 450.
    private func retireFolded(from start: Int) {
        var fresh = Array(identity.foldedEntries[start...])
        identity.foldedEntries.removeSubrange(start...)
        for k in fresh.indices {
            let stem = fresh[k].stem
            let owner = !stem.isEmpty && identity.foldedStems[stem] === fresh[k]
            let key = owner ? stem.key : 0
            // Two stems of one hash: the second stays an entry.
            if owner && identity.dormantStems.contains(key) {
                identity.foldedEntries.append(fresh[k])
                continue
            }
            if owner { identity.foldedStems[stem] = nil }
            if let id = instrumentation.retire(&fresh[k]), let row = UInt32(exactly: id) {
                identity.foldedRows.append(row)
                if owner { identity.dormantStems.insert(row, for: key) }
            } else {
                identity.foldedEntries.append(fresh[k])
                if owner { identity.foldedStems[stem] = fresh[k] }
            }
        }
    }

    /// The dormant row of the folded owner of `stem`, if its class is dormant (`dormantStems` is keyed by `Stem.key`).
    private func dormantOwner(_ stem: Stem) -> Int? {
        guard let row = identity.dormantStems[stem.key] else { return nil }
        let id = Int(row)
        return ObjectNames.stem(instrumentation.dormant.names[id]) == stem.text ? id : nil
    }

    /// Whether `entry` is the folded owner of its stem; if so, no longer listed as one.
    private func takeFoldedOwner(_ entry: Instrumentation.ClassEntry) -> Bool {
        let stem = entry.stem
        if identity.foldedStems[stem] === entry {
            identity.foldedStems[stem] = nil
            return true
        }
        if let id = dormantOwner(stem), instrumentation.dormant.names[id] == entry.name {
            identity.dormantStems.remove(stem.key)
            return true
        }
        return false
    }

    /// The folded class of `entry` back in the session, its controller as it was folded.
    func unfold(_ entry: Instrumentation.ClassEntry) -> ClassState {
        let f = entry.folded!
        entry.folded = nil
        identity.foldedCount -= 1
        let state = ClassState(entry: entry, evictAt: f.evictAt)
        state.lastDead = f.lastDead
        state.hasUnbound = f.hasUnbound
        identity.classes[entry.name] = state
        identity.recentClasses.remember(entry.name, state)
        guard f.hasController else { return state }
        let inst = Instance(folded: f, entry: entry)
        recorder?.unfolded(inst)
        state.live = [inst]
        if inst.ownerCandidate, !entry.stem.isEmpty, takeFoldedOwner(entry) {
            objects.ownersByStem[entry.stem, default: []].append(inst)
        }
        if debug { TimelineDebug.print("  \(inst.label) unfolded with its class") }
        return state
    }

    /// Unfolds the class of the folded owner of `stem`, if there is one (before its stem's owners are read).
    @inline(__always)
    func unfoldOwner(_ stem: Stem) {
        guard identity.foldedCount > 0 else { return }
        let entry: Instrumentation.ClassEntry
        if let e = identity.foldedStems[stem] {
            entry = e
        } else if let id = dormantOwner(stem) {
            entry = instrumentation.entry(row: id)
        } else {
            return
        }
        guard entry.folded?.session == serial else { return }
        _ = unfold(entry)
    }

    /// The session's end: the leaks of the folded controllers, worded as `finish` words a live one's, each
    /// record released as its leak is written (the records and the leaks are not held at once).
    func reportFoldedLeaks() {
        // Nothing unfolds from here on: the owners' index goes before the leaks are written.
        identity.foldedStems = [:]
        identity.dormantStems.removeAll()
        for entry in identity.foldedEntries {
            guard let f = entry.folded, f.session == serial else { continue }
            entry.folded = nil
            reportFoldedLeak(f, entry)
        }
        for row in identity.foldedRows {
            if deferLeak(row: row) { continue }
            if let (entry, f) = takeFolded(row: row) { reportFoldedLeak(f, entry) }
        }
        releaseFolded()
    }

    /// Leaves the leak of dormant row `row`'s folded controller in the row (`TimelineContext.defersLeaks`) when
    /// it would wait for its class's dealloc: nothing this session logged instruments it yet. True if it did.
    private func deferLeak(row: UInt32) -> Bool {
        let id = Int(row)
        guard context.defersLeaks, instrumentation.dormant.holdsFolded(id, session: serial),
              let f = instrumentation.dormant.peekRecord(id), f.hasController, !removals.deallocDialects.contains(f.dialect.family),
              !instrumentation.instruments(instrumentation.dormant.names[id], .dealloc) else { return false }
        let entry = instrumentation.dormant.makeEntry(id, times: instrumentation.times)
        let inst = Instance(folded: f, entry: entry)
        guard let r = inst.removal, !inst.emitted.contains(.leak), r.kind != .ownerDeallocated else { return false }
        context.sessionDefersLeaks(serial, end: sessionEndForLeaks)
        instrumentation.deferLeak(row: id)
        return true
    }

    /// Whether the class of dormant row `row` still has a controller this session folded: in its row, or in its entry
    /// when another session's line made the entry again.
    private func holdsFolded(row: UInt32) -> Bool {
        instrumentation.dormant.holdsFolded(Int(row), session: serial)
            || instrumentation.existing(instrumentation.dormant.names[Int(row)])?.folded?.session == serial
    }

    /// The folded controller of dormant row `row`'s class and its entry, taken from wherever it is (`holdsFolded`);
    /// nil when this session holds none there any more.
    private func takeFolded(row: UInt32) -> (Instrumentation.ClassEntry, FoldedController)? {
        if let taken = instrumentation.takeFolded(row: Int(row), session: serial) { return taken }
        guard let entry = instrumentation.existing(instrumentation.dormant.names[Int(row)]), let f = entry.folded, f.session == serial else {
            return nil
        }
        entry.folded = nil
        return (entry, f)
    }

    /// The controllers this session holds folded, in the order of their serials, for `reportPendingAndRelease` to
    /// merge with its live ones: a recording lists leaks in the order of its observations, which are then those of a
    /// session that never folded (`lint` sorts its findings, and does not pay for this). Each row's serial is read
    /// from its record; 8 bytes a row while the session's end runs. Nil when a serial or a row is past 32 bits (the
    /// leaks then come as `reportFoldedLeaks` finds them).
    func foldedInSerialOrder() -> FoldedOrder? {
        guard recorder != nil, identity.foldedCount > 0 else { return nil }
        var order = FoldedOrder()
        for entry in identity.foldedEntries {
            guard let f = entry.folded, f.session == serial, f.hasController else { continue }
            order.entries.append((f.serial, entry))
        }
        for row in identity.foldedRows where instrumentation.dormant.holdsFolded(Int(row), session: serial) {
            guard let f = instrumentation.dormant.peekRecord(Int(row)), f.hasController else { continue }
            guard let s = UInt32(exactly: f.serial) else { return nil }
            order.rows.append(UInt64(s) << 32 | UInt64(row))
        }
        order.rows.sort()
        order.entries.sort { $0.serial < $1.serial }
        return order
    }

    /// What `foldedInSerialOrder` found, and how far `reportFolded(before:in:)` has come.
    struct FoldedOrder {
        var rows: [UInt64] = []
        var entries: [(serial: Int, entry: Instrumentation.ClassEntry)] = []
        var nextRow = 0, nextEntry = 0
    }

    /// The leaks of the folded controllers of `order` made before instance `serial`, in the order of their serials.
    func reportFolded(before serial: Int, in order: inout FoldedOrder) {
        while true {
            let rowSerial = order.nextRow < order.rows.count ? Int(order.rows[order.nextRow] >> 32) : Int.max
            let entrySerial = order.nextEntry < order.entries.count ? order.entries[order.nextEntry].serial : Int.max
            guard min(rowSerial, entrySerial) < serial else { return }
            if rowSerial < entrySerial {
                let row = UInt32(truncatingIfNeeded: order.rows[order.nextRow])
                order.nextRow += 1
                if let (entry, f) = takeFolded(row: row) { reportFoldedLeak(f, entry) }
            } else {
                let entry = order.entries[order.nextEntry].entry
                order.nextEntry += 1
                guard let f = entry.folded, f.session == self.serial else { continue }
                entry.folded = nil
                reportFoldedLeak(f, entry)
            }
        }
    }

    private func reportFoldedLeak(_ f: FoldedController, _ entry: Instrumentation.ClassEntry) {
        guard f.hasController else { return }
        let inst = Instance(folded: f, entry: entry)
        recorder?.settled(inst, session: serial)
        guard let r = inst.removal, !inst.emitted.contains(.leak) else { return }
        let (wentOn, confirmed) = leakTiming(r)
        reportLeak(inst, r, wentOn: wentOn, confirmed: confirmed)
    }

    /// The session is over or dropped: its folded classes hold nothing of it any more.
    func releaseFolded() {
        for entry in identity.foldedEntries where entry.folded?.session == serial { entry.folded = nil }
        for row in identity.foldedRows { _ = takeFolded(row: row) }
        identity.foldedEntries = []
        identity.foldedRows = []
        identity.foldedCount = 0
        identity.foldedStems = [:]
        identity.dormantStems.removeAll()
    }
}
