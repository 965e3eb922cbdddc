/// Android's evidence in one session (docs/lifecycle.md#android-evidence): LeakCanary's watches bound to the
/// instances whose end of use they follow, its counts and analyses, StrictMode's instance counts and the system's
/// `Displayed` lines. Without such evidence no Android leak is claimed: an Activity destroyed and never finalized
/// is no finding.

/// What the stage hands the timeline: a line that is evidence by itself, or what LeakCanary's reader completed.
enum EvidenceItem {
    case line(AndroidEvidence, line: Int)
    /// With the test the analysis names (`EventStage.deliver`).
    case leakCanary(LeakCanaryReader.Evidence, test: String?)
}

/// The session's open LeakCanary watches and its unresolved retained count.
struct SessionEvidence {
    /// Who a watch (or a trace without one) is about, as the session knew it at the time.
    struct Bound {
        var ref: ControllerRef
        /// The end of use (`onDestroy`, `onDestroyView`), when the capture has it.
        var endOfUse: EventRef?
        /// The subject and what ended its use, for the message (`ServiceActivity#1 was destroyed`); the subject
        /// alone when no end of use is known. Worded only for a finding (`Ended.text`): most watches are released.
        var ended: Ended
        var owner: ControllerRef?
        var endKnown = true
    }
    /// What ended an instance's use, as a finding words it.
    enum Ended {
        case destroyed(ControllerRef)
        /// A fragment's view; `view` names the view's class when LeakCanary watched the view itself.
        case viewDestroyed(ControllerRef, view: String)
        case cleared(String, owner: ControllerRef?)
        case detached(String)
        case released(String, reason: String)
        /// No end of use is known: the subject alone.
        case subject(String)

        var text: String {
            switch self {
            case .destroyed(let ref): "\(ref.display) was destroyed"
            case .viewDestroyed(let ref, let view): "\(ref.display)'s view\(view.isEmpty ? "" : " (\(view))") was destroyed"
            case .cleared(let name, let owner): "\(name)\(owner.map { " (of \($0.display))" } ?? "") was cleared"
            case .detached(let name): "\(name) was detached from its window"
            case .released(let name, let reason): "\(name) was released by the app (\(reason))"
            case .subject(let name): name
            }
        }
    }
    struct OpenWatch {
        var watch: LeakCanaryReader.Watch
        var time: LogTime?
        var bound: Bound
    }
    /// Open watches, oldest first (at most `maxWatches`: the oldest go first, released as far as vclint knows).
    var watches: [OpenWatch] = []
    static let maxWatches = 4096
    /// The latest retained count above 0 that no analysis and no all-collected line followed: count and line.
    var retained: (count: Int, line: Int, time: LogTime?)?
    /// The Android instance destroyed last, of any class (a ViewModel's owner).
    var lastDestroyed: AndroidInstance?
}

extension SessionTimeline {
    func evidence(_ item: EvidenceItem, time: LogTime?) {
        if case .leakCanary = item { recorder?.heapEvidence = true }
        switch item {
        case .line(.strictMode(let className, let instances, let limit), let line):
            strictMode(className, instances: instances, limit: limit, line: line, time: time)
        case .line(.displayed(let className, _, let ms), let line):
            displayed(className, milliseconds: ms, line: line, time: time)
        case .line(.startRequested, _):
            break  // the launch a later `Displayed` line times; no rule judges the request itself
        case .line(.leakCanary, _):
            break  // read by the stage's `LeakCanaryReader`, which hands on what it completes
        case .leakCanary(.watch(let w), _):
            if evidenceState.watches.count >= SessionEvidence.maxWatches { evidenceState.watches.removeFirst() }
            evidenceState.watches.append(SessionEvidence.OpenWatch(watch: w, time: time, bound: bind(
                receiver: Self.receiver(w.reason) ?? w.className, leaking: w.className, endOfUse: w.endOfUse, reason: w.reason)))
        case .leakCanary(.retainedCount(let n, let line), _):
            evidenceState.retained = n > 0 ? (n, line, time) : nil
        case .leakCanary(.dumpingHeap, _):
            break
        case .leakCanary(.allCollected, _):
            evidenceState.watches.removeAll()
            evidenceState.retained = nil
        case .leakCanary(.analysis(let a), let test):
            analysis(a, test: test, time: time)
        }
    }

    /// `X` of `… because X received Activity#onDestroy() callback …` (a watch's reason or a leaking node's note).
    /// Read by bytes: Foundation's `range(of:)` on every watch's reason was a sixth of a logcat lint's instructions.
    static func receiver(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { b -> String? in
            guard let r = find(b, " received ", from: 0) else { return nil }
            // After the last `because ` before it, else from the start.
            var start = 0, k = 0
            while let f = find(b, "because ", from: k), f + 8 <= r {
                start = f + 8
                k = f + 1
            }
            // The last space-separated word of the head.
            var end = r
            while end > start, b[end - 1] == .space { end -= 1 }
            var wordStart = end
            while wordStart > start, b[wordStart - 1] != .space { wordStart -= 1 }
            return wordStart < end ? String(decoding: UnsafeBufferPointer(rebasing: b[wordStart..<end]), as: UTF8.self) : nil
        }
    }

    /// Where `needle` first occurs in `b` at or after `from`.
    private static func find(_ b: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        guard from <= b.count else { return nil }
        return LogcatStatement.find(UnsafeBufferPointer(rebasing: b[from...]), needle).map { $0 + from }
    }

    /// The instance an end of use names (docs/lifecycle.md#leakcanary): the receiver's instance whose end of use came
    /// last, else the class itself (`X#?`).
    private func bind(receiver: String, leaking: String, endOfUse: LeakCanaryReader.EndOfUse, reason: String) -> SessionEvidence.Bound {
        let cls = String(LeakCanaryReader.simpleName(receiver)), leakingName = String(LeakCanaryReader.simpleName(leaking))
        func unbound() -> ControllerRef { ControllerRef(className: cls, address: nil, instance: cls + "#?") }
        switch endOfUse {
        case .activityDestroyed, .fragmentDestroyed, .serviceDestroyed:
            if let inst = androidLastDestroyed(cls) {
                let ref = inst.ref
                return .init(ref: ref, endOfUse: inst.destroyed, ended: .destroyed(ref))
            }
            let ref = unbound()
            return .init(ref: ref, ended: .destroyed(ref))
        case .fragmentViewDestroyed:
            var candidates = androidLive(cls)
            if let last = androidLastDestroyed(cls) { candidates.append(last) }
            let view = leakingName == cls ? "" : leakingName
            if let inst = candidates.filter({ $0.lastDestroyView != nil }).max(by: { $0.lastDestroyView!.line < $1.lastDestroyView!.line }) {
                let ref = inst.ref
                return .init(ref: ref, endOfUse: inst.lastDestroyView, ended: .viewDestroyed(ref, view: view))
            }
            let ref = unbound()
            return .init(ref: ref, ended: .viewDestroyed(ref, view: view))
        case .viewModelCleared:
            let ref = ControllerRef(className: leakingName, address: nil, instance: leakingName)
            let owner = evidenceState.lastDestroyed?.ref
            return .init(ref: ref, ended: .cleared(leakingName, owner: owner), owner: owner)
        case .rootViewDetached:
            let ref = ControllerRef(className: leakingName, address: nil, instance: leakingName)
            return .init(ref: ref, ended: .detached(leakingName))
        case .other:
            // An Activity or Fragment the capture shows by its callbacks, else an object the app watches.
            switch androidKind(leakingName) {
            case .activityDestroyed?, .fragmentDestroyed?:
                return bind(receiver: leaking, leaking: leaking, endOfUse: androidKind(leakingName)!, reason: reason)
            default:
                let ref = ControllerRef(className: leakingName, address: nil, instance: leakingName)
                if reason.isEmpty { return .init(ref: ref, ended: .subject(leakingName), endKnown: false) }
                return .init(ref: ref, ended: .released(leakingName, reason: reason))
            }
        }
    }

    /// Whether the capture shows the class as an Activity (its callbacks) or a Fragment (a Fragment's own ones).
    private func androidKind(_ cls: String) -> LeakCanaryReader.EndOfUse? {
        let i = context.instrumentation
        if [EventKind.onAttach, .onCreateView, .onViewCreated, .onDestroyView, .onDetach, .onActivityCreated].contains(where: { i.logs(cls, $0) }) {
            return .fragmentDestroyed
        }
        if [EventKind.onCreate, .onStart, .onResume, .onPause, .onStop, .onDestroy, .onRestart].contains(where: { i.logs(cls, $0) }) {
            return .activityDestroyed
        }
        return nil
    }

    /// A heap analysis: one finding per root cause (docs/lifecycle.md#leakcanary); then no watch is open any more
    /// (the ones it did not name were released, or were retained with a trace's object).
    private func analysis(_ a: LeakCanaryReader.Analysis, test: String?, time: LogTime?) {
        defer {
            evidenceState.watches.removeAll()
            evidenceState.retained = nil
        }
        let roots = a.roots()
        // Each trace's watch: by its key, else by its leaking class.
        var used = Set<Int>()
        func watchIndex(_ t: LeakCanaryReader.Trace) -> Int? {
            let ws = evidenceState.watches
            if let key = t.key, let k = ws.lastIndex(where: { $0.watch.key == key }) { return k }
            let name = LeakCanaryReader.simpleName(t.leaking.className)
            return ws.indices.last { !used.contains($0) && LeakCanaryReader.simpleName(ws[$0].watch.className) == name }
        }
        var matched: [Int?] = []
        for (t, folded) in roots {
            let k = watchIndex(t)
            if let k { used.insert(k) }
            for f in folded { if let j = watchIndex(f) { used.insert(j) } }
            matched.append(k)
        }
        for (n, (t, folded)) in roots.enumerated() {
            let watch = matched[n].map { evidenceState.watches[$0] }
            var endOfUse = t.endOfUse
            if endOfUse == .other, let w = watch { endOfUse = w.watch.endOfUse }
            let receiver = Self.receiver(t.leaking.note) ?? watch.flatMap { Self.receiver($0.watch.reason) } ?? t.leaking.className
            var bound = watch.map(\.bound) ?? bind(receiver: receiver, leaking: t.leaking.className, endOfUse: endOfUse, reason: "")
            if endOfUse == .viewModelCleared, bound.owner == nil, let owner = Self.leakingHost(t) {
                bound.owner = ControllerRef(className: owner, address: nil, instance: owner)
                bound.ended = .cleared(String(LeakCanaryReader.simpleName(t.leaking.className)), owner: bound.owner)
            }
            // Watches of the same second that no trace names were retained with this one.
            var foldedNames = folded.map { String(LeakCanaryReader.simpleName($0.leaking.className)) }
            var related: [HeapLeak.Related] = []
            if let w = watch, let wt = w.time?.seconds {
                for (j, other) in evidenceState.watches.enumerated() where !used.contains(j) {
                    guard let ot = other.time?.seconds, abs(ot - wt) < 1 else { continue }
                    used.insert(j)
                    foldedNames.append(String(LeakCanaryReader.simpleName(other.watch.className)))
                    related.append(.init(line: other.watch.line, note: "Watching instance of \(LeakCanaryReader.simpleName(other.watch.className)): retained with it"))
                }
            }
            if let e = bound.endOfUse { related.append(.init(line: e.line, note: e.kind.rawValue)) }
            if let w = watch { related.append(.init(line: w.watch.line, note: "Watching instance")) }
            if let s = t.signatureLine { related.append(.init(line: s, note: "LeakCanary signature")) }
            for node in t.nodes {
                let leaking: String
                switch node.leaking {
                case .yes: leaking = "YES"
                case .no: leaking = "NO"
                case .unknown: leaking = "UNKNOWN"
                }
                let note = node.note.isEmpty ? "" : " (\(node.note))"
                related.append(.init(line: node.line, note: "\(LeakCanaryReader.simpleName(node.className)) \(node.kind): Leaking: \(leaking)\(note)"))
            }
            for f in folded { related.append(.init(line: f.line, note: "\(LeakCanaryReader.simpleName(f.leaking.className)): retained with it")) }
            related.sort { $0.line < $1.line }
            let leak = HeapLeak(ended: bound.ended.text, endKnown: bound.endKnown, chain: t.chain, sizes: Self.sizes(t), sharedBy: t.sharedBy, folded: foldedNames,
                                pattern: t.section == .library ? (t.pattern ?? "") : nil, description: t.section == .library ? t.description : nil,
                                signature: t.signature, related: related, owner: bound.owner, test: test)
            let who = bound.ref
            if t.section == .library {
                emit(LibraryLeak(leak), who, line: t.line, time: time)
                continue
            }
            switch endOfUse == .other ? (androidKind(String(LeakCanaryReader.simpleName(t.leaking.className))) ?? .other) : endOfUse {
            case .activityDestroyed: emit(ActivityLeak(leak), who, line: t.line, time: time)
            case .fragmentDestroyed: emit(FragmentLeak(leak), who, line: t.line, time: time)
            case .fragmentViewDestroyed: emit(FragmentViewLeak(leak), who, line: t.line, time: time)
            default: emit(ObjectLeakFact.heap(leak), who, line: t.line, time: time)
            }
        }
    }

    /// The leaking Activity or Fragment a ViewModel's trace runs through (`Leaking: YES (GeneralActivity↑ is leaking)`,
    /// or a leaking node of such a class): the ViewModel served it.
    static func leakingHost(_ t: LeakCanaryReader.Trace) -> String? {
        for node in t.nodes.dropLast().reversed() where node.leaking == .yes {
            let name = String(LeakCanaryReader.simpleName(node.className))
            if name.hasSuffix("Activity") || name.hasSuffix("Fragment") { return name }
            if let r = node.note.range(of: "↑ is leaking") {
                let host = node.note[..<r.lowerBound].split(separator: " ").last.map(String.init) ?? ""
                if !host.isEmpty { return host }
            }
        }
        return nil
    }

    /// `98.1 kB; watched 6.9 s, retained 1.9 s`, from what LeakCanary printed.
    static func sizes(_ t: LeakCanaryReader.Trace) -> String {
        var parts: [String] = []
        if let r = t.retaining { parts.append(r) } else if let b = t.retainedBytes { parts.append(b) }
        var durations: [String] = []
        if let w = t.watchMillis { durations.append("watched " + Wording.seconds(Double(w) / 1000)) }
        if let r = t.retainedMillis { durations.append("retained " + Wording.seconds(Double(r) / 1000)) }
        if !durations.isEmpty { parts.append(durations.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    /// The session ended: a retained count that nothing resolved is `retained_unconfirmed`.
    func finishEvidence() {
        guard let (count, line, time) = evidenceState.retained else { return }
        evidenceState.retained = nil
        let open = evidenceState.watches
        let named = open.prefix(8)
        let who = open.first?.bound.ref ?? ControllerRef(className: "LeakCanary", address: nil, instance: "LeakCanary")
        emit(RetainedUnconfirmed(count: count, watches: named.map { $0.bound.ref.display }, watchLines: named.map(\.watch.line),
                                 moreWatches: open.count - named.count), who, line: line, time: time)
    }

    /// StrictMode's `class X; instances=N; limit=M` (docs/lifecycle.md#strictmode): `lifetime_limit`, a warning when it
    /// counts one over the limit right after X was recreated (the old instance not collected yet).
    private func strictMode(_ cls: String, instances: Int, limit: Int, line: Int, time: LogTime?) {
        guard instances > limit else { return }
        var recreated: EventRef?
        if instances == limit + 1, androidKind(cls) == .activityDestroyed || cls.hasSuffix("Activity"),
           let newest = androidLive(cls).last, let made = newest.created, let old = androidLastDestroyed(cls), let gone = old.destroyed,
           gone.line < made.line || old.generation < newest.generation {
            if let t = time?.seconds, let m = made.time?.seconds {
                if t - m <= options.leakGraceSeconds { recreated = made }
            } else if line - made.line < 64 {
                recreated = made
            }
        }
        let ref = EventRef(Event(kind: .onCreate, className: cls, dialect: .logcat, line: line, time: time))
        let who = androidLive(cls).last?.ref ?? ControllerRef(className: cls, address: nil, instance: cls)
        emit(LifetimeExceeded(created: ref, scope: .class, limit: cls, classes: [cls], max: limit, alive: instances, others: [], owner: nil,
                              strictMode: .init(recreated: recreated)), who, line: line, time: time)
    }

    /// `Displayed pkg/.Cls: +N ms` above `slow_transition_ms` (an opt-in rule).
    private func displayed(_ cls: String, milliseconds: Int, line: Int, time: LogTime?) {
        guard Double(milliseconds) > options.slowTransitionMilliseconds else { return }
        // The launch that Displayed measures from: its line is the Displayed line (the launch itself is the system's).
        let ref = EventRef(Event(kind: .onCreate, className: cls, dialect: .logcat, line: line, time: time))
        let who = androidLive(cls).last?.ref ?? ControllerRef(className: cls, address: nil, instance: cls)
        emit(SlowTransition(will: ref, did: ref, milliseconds: Double(milliseconds), displayed: true), who, line: line, time: time)
    }
}
