/// What all sessions of one input share: instance numbering, instrumentation, observations.
final class TimelineContext {
    let instrumentation = Instrumentation()
    @exclusivity(unchecked) var observations = ObservationList()
    /// Live mode: the leaks emitted before a later line changed them, in order (`LiveLinter` prints
    /// a resolution for each it printed).
    @exclusivity(unchecked) var resolutions: [LeakResolution] = []
    /// Only when a timeline is requested (`TimelineOptions.recordTimeline`).
    @exclusivity(unchecked) var recorder: TimelineRecorder?
    @exclusivity(unchecked) private(set) var instanceCount = 0
    /// The last serial given: one per instance made, and one per evicted controller brought back
    /// (`SessionTimeline.bringBack`), which is not a new controller.
    @exclusivity(unchecked) private(set) var lastSerial = 0

    /// `entry`: the class's, which counts its instances (their generation).
    func makeInstance(className: String, address: UInt64?, dialect: Dialect, line: Int, of entry: Instrumentation.ClassEntry) -> Instance {
        instanceCount += 1
        entry.instancesMade += 1
        let g = entry.instancesMade
        return Instance(serial: nextSerial(), entry: entry, address: address, generation: g, dialect: dialect, line: line)
    }

    /// An object only counted (`SessionTimeline.untracks`): numbered as if it were made, so that the
    /// class's later instances keep their numbers and the input's count of instances stays whole.
    func countUntracked(of entry: Instrumentation.ClassEntry) {
        instanceCount += 1
        entry.instancesMade += 1
    }

    /// An Android Activity or Fragment instance (`SessionTimeline+Android.swift`): counted with the controllers.
    func countAndroidInstance() { instanceCount += 1 }

    func nextSerial() -> Int {
        lastSerial += 1
        return lastSerial
    }

    // MARK: Deferred leaks

    /// `lint` (no recording, not live): the leaks of folded controllers whose session ended before anything said
    /// whether their class logs dealloc stay in their dormant rows (`DormantClasses.deferLeak`), about 45 bytes
    /// each, instead of an observation and a second copy of the class's name that the input's end would mostly
    /// drop (docs/performance.md#memory). A line that names the class again, or the input's end when its dealloc
    /// is instrumented by then, writes the leak as its session's end would have.
    @exclusivity(unchecked) private(set) var defersLeaks = false
    /// The sessions that deferred leaks: when each ended, if its capture had times.
    @exclusivity(unchecked) private var sessionEnds: [Int: LogTime?] = [:]
    @exclusivity(unchecked) private var leakGraceSeconds = 0.0

    func deferLeaks(grace: Double) {
        defersLeaks = true
        leakGraceSeconds = grace
        instrumentation.deferredLeakRevived = { [unowned self] entry, f in writeDeferredLeak(entry, f) }
    }

    /// Session `session` defers leaks: it ended at `end` (nil: its capture had no times).
    func sessionDefersLeaks(_ session: Int, end: LogTime?) {
        if sessionEnds[session] == nil { sessionEnds[session] = .some(end) }
    }

    /// The input's end: the deferred leaks that count are written; the others go.
    func writeDeferredLeaks() {
        guard defersLeaks else { return }
        instrumentation.takeDeferredLeaks { entry, f in writeDeferredLeak(entry, f) }
        sessionEnds = [:]
    }

    /// The leak of folded controller `f` of `entry`'s class, worded as `SessionTimeline.reportFoldedLeaks` words it.
    private func writeDeferredLeak(_ entry: Instrumentation.ClassEntry, _ f: FoldedController) {
        let inst = Instance(folded: f, entry: entry)
        guard let r = inst.removal, !inst.emitted.contains(.leak), let end = sessionEnds[f.session] else { return }
        let (wentOn, confirmed) = SessionTimeline.leakTiming(r, sessionEnd: end, grace: leakGraceSeconds)
        observations.append(SessionTimeline.leakObservation(inst, r, wentOn: wentOn, confirmed: confirmed,
                                                            requirement: Requirement(className: inst.className, anyOf: [.dealloc])))
    }
}

/// Routes events to sessions: one session per run of a process; a new pid for the same process
/// name is a relaunch, which ends the previous session (docs/lifecycle.md#sessions).
public final class TimelineBuilder {
    let options: TimelineOptions
    let context = TimelineContext()
    @exclusivity(unchecked) private var current: [String: SessionTimeline] = [:]
    /// `current` by process name (oldest first) and the Android sessions' keys by pid: what a system line or a death
    /// line looks up, without a walk over every open session (a logcat capture opens one per launch).
    @exclusivity(unchecked) private var openByName: [String: [SessionTimeline]] = [:]
    @exclusivity(unchecked) private var androidKeysByPID: [Int: [String]] = [:]
    /// Finished sessions are released; only how many had events is kept.
    @exclusivity(unchecked) private var finishedWithEvents = 0
    @exclusivity(unchecked) private var sessionSerial = 0

    private let ignore: ClassMatcher
    private let persistent: ClassMatcher

    public init(options: TimelineOptions = TimelineOptions()) {
        self.options = options
        self.ignore = ClassMatcher(options.ignoreClasses)
        self.persistent = ClassMatcher(options.persistentClasses)
        if options.recordTimeline { context.recorder = TimelineRecorder(lanes: options.recordLanes, dates: context.instrumentation.times,
                                                                        retiresDeadLanes: options.retiresDeadLanes,
                                                                        foldsLogs: options.foldsLaneLogs,
                                                                        summarizesClasses: options.summarizesClasses,
                                                                        keepsClasses: options.keepsClasses) }
        if !options.recordTimeline, !options.live { context.deferLeaks(grace: options.leakGraceSeconds) }
    }

    private func session(process: String, pid: Int?) -> SessionTimeline {
        // Consecutive events mostly come from one process: skip the dictionary.
        if let s = lastSession, s.processName == process, pid == nil || s.pid == nil || s.pid == pid {
            return s
        }
        let s = lookUpSession(process: process, pid: pid)
        lastSession = s
        return s
    }
    /// The session of the latest event; cleared whenever `current` changes.
    @exclusivity(unchecked) private var lastSession: SessionTimeline?

    private func lookUpSession(process: String, pid: Int?, key: String? = nil) -> SessionTimeline {
        let key = key ?? process
        if let s = current[key] {
            if pid == nil || s.pid == nil || s.pid == pid { return s }
            end(s)
        }
        sessionSerial += 1
        let s = SessionTimeline(serial: sessionSerial, processName: process, pid: pid, options: options, context: context)
        setCurrent(key, s)
        return s
    }

    /// `current[key] = s`, and the indexes with it.
    private func setCurrent(_ key: String, _ s: SessionTimeline?) {
        if let old = current[key] {
            // In place, through the dictionaries' subscripts: a copy of the list taken out would be shared with the
            // dictionary, and removing from it would copy it whole (a logcat capture without process names keeps
            // every open session in one list).
            if let i = openByName[old.processName]?.firstIndex(where: { $0 === old }) {
                openByName[old.processName]!.remove(at: i)
                if openByName[old.processName]!.isEmpty { openByName[old.processName] = nil }
            }
            if let pid = old.pid, key.utf8.contains(0), let i = androidKeysByPID[pid]?.firstIndex(of: key) {
                androidKeysByPID[pid]!.remove(at: i)
                if androidKeysByPID[pid]!.isEmpty { androidKeysByPID[pid] = nil }
            }
        }
        current[key] = s
        if let s {
            openByName[s.processName, default: []].append(s)
            if let pid = s.pid, key.utf8.contains(0) { androidKeysByPID[pid, default: []].append(key) }
        }
    }

    /// An event with the envelope context of its line (nil process: a bare message).
    public func handle(_ event: Event, process: String?, pid: Int?) {
        if event.kind == .processDied { return endProcess(pid: Int(truncatingIfNeeded: event.address ?? 0)) }
        if !event.kind.isUIKitWarning, ignore.matches(event.className) { return }
        // Logcat's statements (an Activity's callbacks, a ViewModel's, a composable's) live in per-pid sessions that overlap.
        let android = event.kind.isAndroid || event.dialect.isAndroid
        let s = android ? androidSession(process: process ?? "", pid: pid) : session(process: process ?? "", pid: pid)
        s.handle(event)
    }

    /// Android's evidence (docs/lifecycle.md#android-evidence), in the session of its line; LeakCanary's analysis
    /// process (`com.example:leakcanary`) reports on its app's, and the system's `START` and `Displayed` lines on the app
    /// they name.
    func evidence(_ item: EvidenceItem, process: String?, pid: Int?, time: LogTime?) {
        var app: String?
        if let process, process.hasSuffix(":leakcanary") { app = String(process.dropLast(":leakcanary".count)) }
        if case .line(let line, _) = item, let package = line.namedPackage { app = package }
        let s = app.flatMap(latestSession(named:)) ?? androidSession(process: process ?? "", pid: pid)
        if let time { s.observe(time: time) }
        s.evidence(item, time: time)
    }

    /// The open session of a process name that began last.
    private func latestSession(named name: String) -> SessionTimeline? {
        openByName[name]?.last  // sessions are appended as they begin: the last began last
    }

    /// Logcat interleaves processes: a session is one pid of one process, and a line of one pid never ends another
    /// pid's session (docs/lifecycle.md#logcat).
    private func androidSession(process: String, pid: Int?) -> SessionTimeline {
        if let s = lastSession, s.processName == process, s.pid == pid { return s }
        let s = lookUpSession(process: process, pid: pid, key: pid.map { "\(process)\u{0}\($0)" } ?? process)
        lastSession = s
        return s
    }

    /// A process died (docs/lifecycle.md#logcat): its pid's Android session ends, without a finding for the instances
    /// still alive, and a line of that pid after it begins a new session.
    private func endProcess(pid: Int) {
        for key in androidKeysByPID[pid] ?? [] {
            guard let s = current[key] else { continue }
            end(s)
            setCurrent(key, nil)
        }
        lastSession = nil
    }

    /// A line without event whose envelope was read (a sample): it extends its session in time and
    /// reveals relaunches.
    public func observe(process: String, pid: Int?, time: LogTime?) {
        guard let s = current[process] else { return }
        if let pid, let old = s.pid, old != pid {
            end(s)
            setCurrent(process, nil)
            lastSession = nil
            return
        }
        if let time { s.observe(time: time) }
    }

    private func end(_ s: SessionTimeline) {
        s.finish()
        if s.clock.eventCount > 0 { finishedWithEvents += 1 }
    }

    /// The sessions still open, oldest first (tests look inside them).
    var openSessions: [SessionTimeline] { current.values.sorted { $0.serial < $1.serial } }

    /// Tests: whether the indexes say what a walk over `current` says (each name's open sessions oldest first, each
    /// pid's Android keys).
    var indexesAgree: Bool {
        var byName: [String: [SessionTimeline]] = [:], byPID: [Int: Set<String>] = [:]
        for (key, s) in current {
            byName[s.processName, default: []].append(s)
            if let pid = s.pid, key.utf8.contains(0) { byPID[pid, default: []].insert(key) }
        }
        for name in byName.keys { byName[name]!.sort { $0.serial < $1.serial } }
        return byName.count == openByName.count
            && byName.allSatisfy { name, list in openByName[name].map { $0.map(ObjectIdentifier.init) == list.map(ObjectIdentifier.init) } ?? false }
            && byPID == androidKeysByPID.mapValues(Set.init)
    }

    /// Class names on which an `ignore_classes` or `persistent_classes` pattern hit PCRE2's limits.
    var classPatternLimitHits: Int { ignore.limitHits + persistent.limitHits }

    /// The recorded timeline, after `finish()`; nil when recording was not started.
    func recording(_ summary: TimelineSummary) -> TimelineRecording? {
        context.recorder?.result(observations: summary.observations, instrumentation: context.instrumentation)
    }

    /// Ends every session and returns the observations that the instrumentation allows.
    public func finish() -> TimelineSummary {
        let open = current.values.sorted { $0.serial < $1.serial }
        for s in open { end(s) }
        current = [:]
        openByName = [:]
        androidKeysByPID = [:]
        lastSession = nil
        context.writeDeferredLeaks()
        let kept: ObservationList
        if options.live {
            kept = context.observations.filter { tag, o in decision(on: o, tag: tag) == .report }
        } else {
            // Nothing reads them after this: kept in place, not copied.
            context.observations.retain { tag, o in decision(on: o, tag: tag) == .report }
            kept = context.observations
            context.observations = ObservationList()
        }
        return TimelineSummary(observations: kept, sessions: finishedWithEvents, controllers: context.instanceCount)
    }

    /// Whether an observation becomes a finding: never for persistent classes' leaks; for one whose
    /// rule needs a callback the class has not logged yet, not yet (dropped if the input ends first).
    func decision(on o: Observation, tag: Int) -> ReportDecision {
        if tag == RuleRegistry.leakTag || tag == RuleRegistry.objectLeakTag, persistent.matches(o.controller.className) { return .drop }
        guard let r = o.requires else { return .report }
        return context.instrumentation.satisfies(r) ? .report : .wait
    }

    /// Live mode: the instrumentation records which classes (or whether a dialect) logged a
    /// callback for the first time, so that findings waiting for one are looked at again.
    var tracksInstrumentationChanges: Bool {
        get { context.instrumentation.tracksChanges }
        set { context.instrumentation.tracksChanges = newValue }
    }

    /// The classes that logged a new kind of callback since the last call, and whether a
    /// dialect did (live mode).
    func takeInstrumentationChanges() -> (classes: [String], dialect: Bool) {
        context.instrumentation.takeChanges()
    }

    /// The indices of the observations made since the last call, in the order they were made (live mode).
    func takeNewObservations() -> Range<Int> {
        defer { drained = context.observations.count }
        return drained..<context.observations.count
    }
    @exclusivity(unchecked) private var drained = 0

    /// Whether observation `i` is about a transition that is not named yet (it settles later).
    func awaitsTransition(_ i: Int) -> Bool { context.observations.transitionIsPending(at: i) }

    /// An observation by index (`takeNewObservations`), and whether it becomes a finding (`decision`).
    func observation(_ i: Int) -> (Observation, decision: ReportDecision) {
        let o = context.observations[i]
        return (o, decision(on: o, tag: context.observations.tag(at: i)))
    }

    /// Whether observation `i` is a controller's or an object's leak.
    func isLeak(_ i: Int) -> Bool {
        let tag = context.observations.tag(at: i)
        return tag == RuleRegistry.leakTag || tag == RuleRegistry.objectLeakTag
    }

    /// Whether observation `i` was withdrawn since it was made (a resolved leak): nothing reads it.
    func isWithdrawn(_ i: Int) -> Bool { context.observations.tag(at: i) == Int(ObservationList.withdrawnTag) }

    /// Live mode: the leaks that later lines changed since the last call, in order.
    func takeResolutions() -> [LeakResolution] {
        defer { context.resolutions = [] }
        return context.resolutions
    }
}

/// Live mode: a leak the timeline emitted when its grace period passed, which a later line changed
/// (docs/lifecycle.md#live-mode). Its observation is withdrawn; what it said is kept here.
struct LeakResolution {
    enum Cause {
        /// Its dealloc came, later than the grace period: a late_dealloc follows.
        case deallocatedLate
        /// Its dealloc came at the grace period exactly: neither a leak nor late.
        case deallocated
        /// It appeared (or was added as a child) again: it was never removed.
        case appearedAgain
        /// An object that another owner took: its first owner's dealloc no longer decides it.
        case ownerChanged
        /// Another class's object at its address: it is gone without a logged dealloc.
        case addressReused
        /// Its removal changed (another kind or line): the leak is decided again from the new one.
        case removedAgain
    }
    /// The leak's index among the observations (withdrawn now).
    let observation: Int
    /// The leak as it was emitted.
    let leak: Observation
    let cause: Cause
    /// The line that changed it.
    let line: Int
}

/// What becomes of an observation: a finding, nothing (a persistent class's leak), or a wait until
/// its class logs the callback its rule needs (docs/lifecycle.md#instrumentation).
enum ReportDecision {
    case report, drop, wait
}

/// Class-name patterns with a per-class cache (a capture names few classes, many times).
final class ClassMatcher {
    private let matchers: [PCRE2Matcher]
    @exclusivity(unchecked) private var cache: [String: Bool] = [:]
    /// Class names on which a pattern hit PCRE2's limits (each counted once, the verdict is cached).
    @exclusivity(unchecked) private(set) var limitHits = 0

    init(_ patterns: [PCRE2Pattern]) { matchers = patterns.map { $0.makeMatcher() } }

    func matches(_ className: String) -> Bool {
        if matchers.isEmpty { return false }
        if let known = cache[className] { return known }
        var bytes = Array(className.utf8)
        if bytes.isEmpty { bytes = [0] }
        let n = className.utf8.count
        // A pattern that hits PCRE2's limits does not match (it never hangs the run), and is counted.
        var limited = false
        let hit = bytes.withUnsafeBufferPointer { buf in
            matchers.contains {
                switch $0.search(buf.baseAddress!, length: n) {
                case .match: return true
                case .noMatch: return false
                case .limitExceeded: limited = true; return false
                }
            }
        }
        if limited { limitHits += 1 }
        cache[className] = hit
        return hit
    }
}

public struct TimelineSummary: Sendable {
    public var observations: ObservationList
    public var sessions: Int
    public var controllers: Int
}
