/// lines → events → timeline: parses the lines the scanner let through and keeps the context a
/// line's envelope gives to the unenveloped lines after it, then hands each event to the timeline
/// builder. It is the scanner's sink, on the scanner's thread, or sits behind `EventPipe` on a
/// thread of its own and gets lines possibly parsed already (`apply`); all give the same events.
final class EventStage: LineSink {
    let lines: LineParser
    let builder: TimelineBuilder
    /// Lines that carried a lifecycle event or a UIKit warning, and those of them that were only an initializer.
    @exclusivity(unchecked) private(set) var events = 0
    @exclusivity(unchecked) private(set) var initializers = 0
    /// Sees each lifecycle line (its message bytes, event and envelope context) before the timeline.
    @exclusivity(unchecked) var tap: ((UnsafeBufferPointer<UInt8>, Event, String?, Int?) -> Void)?

    /// The process of the latest enveloped event line (or, before any, of the first enveloped
    /// line): `print` lines without an envelope belong to it.
    @exclusivity(unchecked) private(set) var contextProcess: String?
    @exclusivity(unchecked) private var contextPID: Int?

    init(builder: TimelineBuilder, customDialects: [CustomDialect]) {
        lines = LineParser(customDialects: customDialects)
        self.builder = builder
    }

    var parser: MessageParser { lines.parser }

    var contextKnown: Bool { contextProcess != nil }

    var patternLimitHits: Int { parser.limitHits }

    func envelope(_ line: ScannedLine) {
        guard let format = line.format else { return }
        observer?.envelope(format, line: line.number, line.bytes)
    }

    /// Whether a line with this envelope would give `learn` a process (the scanner's own record of
    /// whether the context is known, when this stage runs on another thread).
    static func givesProcess(_ info: EnvelopeInfo) -> Bool {
        !info.isMetadata && (info.process != nil || info.decodedProcess != nil || LineParser.isNameless(info))
    }

    /// An enveloped line, event or not, while no context is known: `print` lines get the process of
    /// the enveloped lines around them.
    func learn(_ line: ScannedLine) {
        guard contextProcess == nil, let format = line.format, let info = EnvelopeParser.parse(line.start, line.count, format: format),
              !info.isMetadata else { return }
        contextProcess = lines.processName(info, line.start)
        contextPID = info.pid
    }

    /// Which test was running where (the test runner's lines).
    @exclusivity(unchecked) private(set) var tests = TestBoundaries()

    /// Lines that mention a callback name but were not read as an event, and the first of them
    /// (docs/lifecycle.md#mentions-and-unread-lines).
    @exclusivity(unchecked) private(set) var unread = 0
    @exclusivity(unchecked) private(set) var firstUnread: Int?
    /// Events whose label the unified log redacted (`<private> viewDidLoad`), and the first of them.
    @exclusivity(unchecked) private(set) var redacted = 0
    @exclusivity(unchecked) private(set) var firstRedacted: Int?
    /// Sees every candidate line's outcome (`vclint inspect`); set only for a one-thread scan.
    @exclusivity(unchecked) var observer: LineObserver?
    /// Printed values after the callback wait here until the capture shows whether they name the
    /// controllers (`LabelLearner`); every later line waits with them, to keep the order.
    private let learner = LabelLearner()
    /// Free-form statements announced as started (`viewDidLoad begin`, `>>> viewDidLoad`) whose
    /// end was not logged yet: the end is the same callback again, not a second one.
    @exclusivity(unchecked) private var started: Set<String> = []

    /// A line the candidate search let through, read into the stage's one parsed line (`LineParser.read`).
    func candidate(_ scanned: ScannedLine, afterEnvelope: Bool) {
        let p = scanned.start, n = scanned.count, line = scanned.number
        guard lines.read(p, n, format: scanned.format, afterEnvelope: afterEnvelope, into: &parsed) else {
            observer?.line(line, lines.skippedLine, UnsafeBufferPointer(start: p, count: n))
            return skip(unread: lines.skippedUnread, line: line)
        }
        useContext(parsed, line: line)
        if let tap, parsed.kind == .enveloped || parsed.kind == .bare {
            var e = parsed.event
            e.line = line
            if parsed.kind == .bare {
                tap(UnsafeBufferPointer(start: p, count: n), e, contextProcess, contextPID)
            } else if let decoded = parsed.decoded {
                decoded.withUnsafeBufferPointer { tap($0, e, parsed.process, parsed.pid) }
            } else {
                tap(UnsafeBufferPointer(start: p + parsed.message.lowerBound, count: parsed.message.count), e, parsed.process, parsed.pid)
            }
        }
        if let observer {
            // A title's line is shown as what the capture decides it is (`drain`).
            if parsed.title != 0 { parsed.observed = Array(UnsafeBufferPointer(start: p, count: n)) } else { observer.line(line, parsed, UnsafeBufferPointer(start: p, count: n)) }
        }
        apply(&parsed, line: line, bytes: p)
    }

    /// The candidate line read last (`LineParser.read`: one line kept and read into, not one made and dropped per line).
    @exclusivity(unchecked) private var parsed = ParsedLine.none

    /// A candidate line that is not an event and carries nothing else (`LineParser.read` passed it over): what `apply` does
    /// with a `ParsedLine.none` without a frame or a `ParsedLine.unread` (the wait for a context line's use ends; an
    /// unread line is counted).
    @inline(__always)
    func skip(unread isUnread: Bool, line: Int) {
        contextWaiting = false
        guard isUnread else { return }
        unread += 1
        if firstUnread == nil { firstUnread = line }
    }

    /// A parsed candidate line in its context: an enveloped event gives the context its process.
    func apply(_ parsed: inout ParsedLine, line: Int, bytes: UnsafePointer<UInt8>) {
        useContext(parsed, line: line)
        // (Only an app's frame or the next logcat statement releases it: a test runner's or a `print` line, or the
        // framework's frames, may come between.)
        if heldMisuse != nil {
            if parsed.kind == .enveloped {
                releaseMisuse(nil)
            } else if let r = parsed.frame,
                      let cls = LogcatStatement.appFrameClass(UnsafeBufferPointer(start: bytes + Int(r.lowerBound), count: r.count)) {
                releaseMisuse(cls)
            }
        }
        switch parsed.kind {
        case .none:
            return
        case .unread:
            unread += 1
            if firstUnread == nil { firstUnread = line }
            return
        case .runner:
            if let r = parsed.runner { tests.read(r, at: line) }
            return
        case .evidence:
            if let e = parsed.evidence { evidence(e, parsed, line: line) }
            return
        case .enveloped, .bare:
            parsed.event.line = line
            lastRead = max(lastRead, line)
            if parsed.event.kind == .fragmentViewMisuse, parsed.event.className.isEmpty {
                heldMisuse = parsed
                return
            }
            if parsed.value != nil || parsed.title != 0 || learner.waiting {
                learner.hold(.line(parsed))
                drain()
                return
            }
            deliver(&parsed)
        }
    }

    private func deliver(_ parsed: inout ParsedLine) {
        if parsed.phase != .none, !pairs(parsed) { return }
        // A process died: a LeakCanary block still open is over (in `long` format its closing lines carry no literal the
        // candidate search finds), and belongs to the session that ends now.
        if parsed.event.kind == .processDied, leakCanary.isInsideBlock { flushLeakCanary() }
        if parsed.event.kind != .processDied { events += 1 }
        if parsed.event.kind == .initialize { initializers += 1 }
        if parsed.redacted {
            redacted += 1
            if firstRedacted == nil { firstRedacted = parsed.event.line }
        }
        if parsed.kind == .enveloped {
            // `[100:200] msg` among `Shop[100:200] msg` lines: the same run, its name left out.
            if parsed.process == "", parsed.pid != nil, parsed.pid == contextPID, let named = contextProcess { parsed.process = named }
            contextProcess = parsed.process
            contextPID = parsed.pid
            Self.stripModule(&parsed.event, process: parsed.process)
            builder.handle(parsed.event, process: parsed.process, pid: parsed.pid)
        } else {
            Self.stripModule(&parsed.event, process: contextProcess)
            builder.handle(parsed.event, process: contextProcess, pid: contextPID)
        }
    }

    /// `MyApp.ViewModel` in the process `MyApp` → `ViewModel`: the app's module is not part of a
    /// class's identity (`TypeNames.withoutProcessModule`). The user's dialects name classes as
    /// their patterns capture them.
    @inline(__always)
    private static func stripModule(_ e: inout Event, process: String?) {
        // (The first bytes first: a scan of every class name for a dot cost 4% of a lint.)
        guard let process, let first = process.utf8.first, e.className.utf8.first == first, e.dialect != .custom,
              let stripped = TypeNames.withoutProcessModule(e.className, process: process) else { return }
        e.className = stripped
    }

    /// Whether a statement with an outcome word is an event: the end of a callback whose start was
    /// logged is the same callback again.
    private func pairs(_ parsed: ParsedLine) -> Bool {
        let key = parsed.event.kind.rawValue + "\u{1F}" + parsed.event.className
        if parsed.phase == .enter {
            if started.count >= 4096 { started.removeAll() }
            started.insert(key)
            return true
        }
        return started.remove(key) == nil
    }

    /// Delivers what the learner no longer holds back.
    private func drain() {
        while let next = learner.release() {
            switch next {
            case .line(var parsed):
                if let bytes = parsed.observed {
                    parsed.observed = nil
                    bytes.withUnsafeBufferPointer { observer?.line(parsed.event.line, parsed, $0) }
                }
                if parsed.kind == .unread {
                    // A title the capture never confirmed: a sentence that mentions a callback.
                    unread += 1
                    firstUnread = min(firstUnread ?? parsed.event.line, parsed.event.line)
                } else {
                    deliver(&parsed)
                }
            case .sample(let process, let pid, let time): observe(process, pid, time)
            }
        }
    }

    /// androidx's view-misuse exception that names no fragment: the first app frame under it does
    /// (docs/lifecycle.md#android-statements); with none, the finding names `Fragment`.
    @exclusivity(unchecked) private var heldMisuse: ParsedLine?

    private func releaseMisuse(_ frameClass: String?) {
        guard var held = heldMisuse else { return }
        heldMisuse = nil
        held.event.className = frameClass ?? "Fragment"
        if learner.waiting {
            learner.hold(.line(held))
            drain()
        } else {
            deliver(&held)
        }
    }

    // MARK: - Android's evidence

    /// LeakCanary's lines, read in order (a block spans many lines).
    @exclusivity(unchecked) private var leakCanary = LeakCanaryReader()
    /// The session of the LeakCanary block being read (where it began): what it completes belongs there.
    @exclusivity(unchecked) private var leakCanaryContext: (process: String?, pid: Int?, time: LogTime?) = (nil, nil, nil)

    /// An evidence line (docs/lifecycle.md#android-evidence): it reaches the timeline in its line's session (a line
    /// without a pid: the context's), and counts as read.
    private func evidence(_ e: AndroidEvidence, _ parsed: ParsedLine, line: Int) {
        lastRead = max(lastRead, line)
        let process = parsed.pid == nil ? contextProcess : parsed.process
        let pid = parsed.pid ?? (parsed.process == nil ? contextPID : nil)
        if parsed.pid != nil {
            contextProcess = parsed.process
            contextPID = parsed.pid
        }
        let time = parsed.event.time
        switch e {
        case .leakCanary(let text):
            // An analysis belongs to the session its block began in, whichever line closed it (the next watch may
            // be another process's).
            let block = leakCanaryContext
            for found in leakCanary.read(Substring(text), line: line) {
                if case .analysis = found {
                    deliver(found, process: block.process, pid: block.pid, time: block.time)
                } else {
                    deliver(found, process: process, pid: pid, time: time)
                }
            }
            // (A block that began on a line without a session, a trace copied as text, takes the first one it sees.)
            if leakCanary.blockLine == line || (leakCanary.isInsideBlock && leakCanaryContext.process == nil && leakCanaryContext.pid == nil) {
                leakCanaryContext = (process, pid, time)
            }
        case .strictMode, .displayed, .startRequested:
            events += 1
            builder.evidence(.line(e, line: line), process: process, pid: pid, time: time)
        }
    }

    /// What LeakCanary's reader completed, with the test it names (its own, or the one running at its line, or
    /// the one that ended just before a run listener analysed: docs/lifecycle.md#android-tests).
    private func deliver(_ found: LeakCanaryReader.Evidence, process: String?, pid: Int?, time: LogTime?) {
        events += 1
        var test: String?
        if case .analysis(let a) = found {
            test = a.test ?? a.traces.first.flatMap { tests.test(at: $0.line) } ?? tests.lastEnded
        }
        builder.evidence(.leakCanary(found, test: test), process: process, pid: pid, time: time)
    }

    /// The end of the input: nothing waits any more (a second call finds nothing waiting).
    private func flushLeakCanary() {
        for found in leakCanary.finish() {
            deliver(found, process: leakCanaryContext.process, pid: leakCanaryContext.pid, time: leakCanaryContext.time)
        }
    }

    func finish() {
        flushLeakCanary()
        releaseMisuse(nil)
        learner.decideAll()
        drain()
    }

    /// The enveloped line before the next candidate, which has none (see `LineSink.context`).
    @exclusivity(unchecked) private var contextLine: [UInt8] = []
    @exclusivity(unchecked) private var contextWaiting = false
    /// The context line read last: the prints after one line do not read it again.
    @exclusivity(unchecked) private var contextRead: [UInt8] = []

    func context(_ line: ScannedLine) {
        contextLine.removeAll(keepingCapacity: true)
        contextLine.append(contentsOf: line.bytes)
        contextWaiting = true
    }

    /// A `print` event belongs to the run of the enveloped line before it: that line is read as a
    /// sample (it may show a relaunch) before the event is.
    /// (The context line is the nearest enveloped one before `line`: the lines between have none.)
    @inline(__always)
    private func useContext(_ parsed: ParsedLine, line: Int) {
        guard contextWaiting else { return }
        contextWaiting = false
        guard parsed.kind == .bare, contextLine != contextRead else { return }
        swap(&contextRead, &contextLine)
        contextRead.withUnsafeBufferPointer { sample(ScannedLine($0.baseAddress!, count: $0.count, number: line - 1)) }
    }

    /// The number of the latest line whose envelope reached the timeline (an event, a sample):
    /// the input's last lines are read at its end only when they come after it (`ending`), so no
    /// line is read twice, nor after a later one that started a new session.
    @exclusivity(unchecked) private var lastRead = 0

    func ending(_ line: ScannedLine) {
        if line.number > lastRead { sample(line) }
    }

    /// A line (event or noise) that tells how far in time its session went.
    func sample(_ line: ScannedLine) {
        let (format, skip) = EnvelopeParser.locate(line.start, line.count)
        guard let format, format != .bare, format != .logcat else { return }
        let q = line.start + skip, k = line.count - skip
        guard let info = EnvelopeParser.parse(q, k, format: format), !info.isMetadata,
              let process = lines.processName(info, q) else { return }
        let time = lines.time(q, k, info: info)
        lastRead = max(lastRead, line.number)
        if learner.waiting {
            learner.hold(.sample(process, info.pid, time))
            return
        }
        observe(process, info.pid, time)
    }

    private func observe(_ process: String, _ pid: Int?, _ time: LogTime?) {
        builder.observe(process: process, pid: pid, time: time)
        if contextProcess == process { contextPID = pid }
    }
}

/// Sees each candidate line as the stage read it, with its bytes (`vclint inspect`).
protocol LineObserver: AnyObject {
    func line(_ number: Int, _ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>)
    /// The first line of an envelope format in the input.
    func envelope(_ format: EnvelopeFormat, line: Int, _ bytes: UnsafeBufferPointer<UInt8>)
}
