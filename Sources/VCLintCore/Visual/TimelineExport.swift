/// The timeline as data: `vclint timeline --format json` (versioned, for scripts) and
/// `--format chrome-trace` (the Trace Event Format that Perfetto UI and chrome://tracing open).

public struct TimelineJSON: ViewFormat {
    public static let identifier = "json"
    public static let summary = "the timeline as data"

    public init() {}

    /// The document written as it is produced (`JSONStream`), with the bytes a whole tree would
    /// serialize to: a session, an instance, a transition at a time, never the whole timeline.
    public func write(_ inputs: [TimelineInput], to out: ReportWriter) throws(ReportWriteError) {
        let json = JSONStream(out)
        try json.openObject()
        try json.value(.int(1), key: "version")
        try json.value(.object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))]), key: "tool")
        try json.openArray("inputs")
        for i in inputs { try Self.input(i, json) }
        try json.close()
        try json.close()
        try out.write("\n")
    }

    static func stamp(_ st: TimelineStamp) -> JSONValue {
        .object([("line", .int(st.line)), ("order", .int(st.order)), ("time", st.time.map { .string($0.iso) } ?? .null)])
    }

    static func ref(_ r: EventRef) -> JSONValue {
        .object([("line", .int(r.line)), ("event", .string(r.kind.rawValue)), ("time", r.time.map { .string($0.iso) } ?? .null)])
    }

    static func controller(_ c: ControllerRef) -> [(String, JSONValue)] {
        [("label", .string(c.instance)), ("class", .string(c.className)), ("address", c.addressText.map { .string($0) } ?? .null)]
    }

    /// `baselined`: recorded in a `--baseline` (the key is there only then).
    private static func finding(_ f: Finding, _ p: TimelineInput.Placement?, baselined: Bool) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("rule", .string(f.rule)), ("severity", .string(f.severity.rawValue)), ("line", .int(f.line)),
            ("instance", p?.instance.map { .int($0) } ?? .null), ("controller", .string(f.controller.instance)),
            ("message", .string(f.message)),
        ]
        if baselined { pairs.append(("baselined", .bool(true))) }
        return .object(pairs)
    }

    private static func input(_ input: TimelineInput, _ json: JSONStream) throws(ReportWriteError) {
        try json.openObject()
        try json.value(.string(input.path), key: "path")
        try json.openArray("sessions")
        let sessions = input.timeline.sessions
        for k in sessions.indices { try session(sessions.pieces(at: k), input: input, json) }
        try json.close()
        // Findings drawn in no session (the input has none).
        var unplaced = false
        for k in input.findings.indices where input.placement(of: k) == nil {
            if !unplaced { try json.openArray("findings") }
            unplaced = true
            let f = input.findings[k]
            try json.value(finding(f, nil, baselined: input.isBaselined(f)))
        }
        if unplaced { try json.close() }
        try json.close()
    }

    /// A session written an instance and a transition at a time.
    private static func session(_ s: SessionPieces, input: TimelineInput, _ json: JSONStream) throws(ReportWriteError) {
        try json.openObject()
        try json.value(.int(s.id), key: "id")
        try json.value(.string(s.process), key: "process")
        try json.value(s.pid.map { .int($0) } ?? .null, key: "pid")
        try json.value(.int(s.eventCount), key: "events")
        try json.value(stamp(s.firstEvent), key: "first")
        try json.value(stamp(s.lastEvent), key: "last")
        try json.value(s.endTime.map { .string($0.iso) } ?? .null, key: "end_time")
        try json.openArray("instances")
        for k in 0..<s.instanceCount { try instance(s, k, json) }
        try json.close()
        try json.openArray("transitions")
        for n in 0..<s.transitionCount { try json.value(transition(s.transition(n))) }
        try json.close()
        try json.openArray("warnings")
        for w in s.warnings {
            try json.value(.object([("event", .string(w.kind.rawValue)), ("line", .int(w.stamp.line)), ("time", w.stamp.time.map { .string($0.iso) } ?? .null),
                                    ("class", .string(w.className)), ("text", .string(w.text))]))
        }
        try json.close()
        try json.openArray("findings")
        for k in input.findings(inSession: s.id) {
            let f = input.findings[k]
            try json.value(finding(f, input.placement(of: k), baselined: input.isBaselined(f)))
        }
        try json.close()
        try json.close()
    }

    /// An instance written an interval and a callback at a time (a root controller of a long run has
    /// hundreds of thousands of each).
    private static func instance(_ s: SessionPieces, _ k: Int, _ json: JSONStream) throws(ReportWriteError) {
        let i = s.header(k)
        try json.openObject()
        try json.value(.int(i.id), key: "id")
        for (key, value) in controller(i.controller) { try json.value(value, key: key) }
        try json.value(.string(i.kind.rawValue), key: "kind")
        try json.value(.string(i.dialect.rawValue), key: "dialect")
        try json.openArray("intervals")
        try s.forEachInterval(k) { (iv: StateInterval) throws(ReportWriteError) in
            try json.value(.object([("state", .string(iv.state.rawValue)), ("from", stamp(iv.start)), ("to", stamp(iv.end)), ("open_at_end", .bool(iv.openAtEnd))]))
        }
        try json.close()
        try json.openArray("callbacks")
        try s.forEachCallback(k) { (c: RecordedCallback) throws(ReportWriteError) in
            var p: [(String, JSONValue)] = [("event", .string(c.kind.rawValue)), ("line", .int(c.stamp.line)), ("time", c.stamp.time.map { .string($0.iso) } ?? .null)]
            if let tp = c.toParent { p.append(("to_parent", .bool(tp))) }
            try json.value(.object(p))
        }
        try json.close()
        try json.value(i.removal.map { r in
            var p: [(String, JSONValue)] = [("kind", .string(r.kind.rawValue)), ("evidence", ref(r.evidence)), ("anchor", ref(r.anchor))]
            if let along = r.takenAlongBy { p.append(("taken_along_by", .string(along))) }
            return .object(p)
        } ?? .null, key: "removal")
        try json.value(i.dealloc.map(stamp) ?? .null, key: "dealloc")
        try json.value(.bool(i.deallocInstrumented), key: "dealloc_logged")
        try json.close()
    }

    private static func transition(_ t: RecordedTransition) -> JSONValue {
        .object([
            ("id", .int(t.id)),
            ("kind", .string(t.kind.viewName)),
            ("from", stamp(t.start)),
            ("to", stamp(t.end)),
            ("members", .array(t.members.map { m in
                .object([("instance", .int(m.instance)), ("label", .string(m.label)), ("direction", .string(m.direction.rawValue)),
                         ("final_direction", .string(m.finalDirection.rawValue)), ("completed", .bool(m.completed))])
            })),
        ])
    }
}

/// Trace Event Format: a process per session, a thread (track) per instance (controller, object or
/// SwiftUI view) plus the session's own track for transitions and UIKit warnings; complete events
/// (`X`) for each instance's life (its category and `kind` argument say what it is) and its
/// appearing/visible/disappearing intervals, instant events (`i`) for
/// callbacks and findings. Times are microseconds from the input's first timestamp; a log without
/// time gets one millisecond per event.
///
/// Perfetto keys threads by tid alone, takes tid 0 for the idle task and tid = pid for the
/// process's main thread, and drops a complete event that overlaps an open one on its track. So
/// pids are 1…N (one per session) and tids count on from N + 1 over the whole trace: never 0, never
/// a pid, never shared; and on every track complete events come in time order, an enclosing one
/// before those it encloses.
public struct ChromeTrace: ViewFormat {
    public static let identifier = "chrome-trace"
    public static let summary = "Perfetto, chrome://tracing"

    public init() {}

    /// The trace written as it is produced, an event at a time.
    public func write(_ inputs: [TimelineInput], to out: ReportWriter) throws(ReportWriteError) {
        try out.write("{\"displayTimeUnit\":\"ms\",\"otherData\":")
        try out.write(JSONValue.object([("tool", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))]).serialized(pretty: false))
        try out.write(",\"traceEvents\":[\n")
        var events = EventWriter(out: out)
        var pid = 0
        var nextTID = inputs.reduce(0) { $0 + $1.timeline.sessions.count } + 1
        for input in inputs {
            let sessions = input.timeline.sessions
            for k in sessions.indices {
                pid += 1
                try Self.session(sessions.pieces(at: k), input: input, pid: pid, tids: &nextTID, into: &events)
            }
        }
        try out.write("\n]}\n")
    }

    /// The trace's events, comma-separated, each serialized into storage reused from one to the next.
    struct EventWriter {
        let out: ReportWriter
        var first = true
        var scratch = ""

        mutating func append(_ v: JSONValue) throws(ReportWriteError) {
            scratch.removeAll(keepingCapacity: true)
            if !first { scratch += ",\n" }
            first = false
            v.write(&scratch, indent: 0, pretty: false)
            try out.write(scratch)
        }
    }

    private static func meta(_ name: String, pid: Int, tid: Int, _ args: [(String, JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("ph", .string("M")), ("ts", .int(0)), ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(args))])
    }

    private static func complete(_ name: String, cat: String, pid: Int, tid: Int, from: Int64, to: Int64, _ args: [(String, JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("cat", .string(cat)), ("ph", .string("X")), ("ts", .int(Int(from))),
                 ("dur", .int(Int(max(0, to - from)))), ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(args))])
    }

    private static func instant(_ name: String, cat: String, pid: Int, tid: Int, at: Int64, _ args: [(String, JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("cat", .string(cat)), ("ph", .string("i")), ("s", .string("t")), ("ts", .int(Int(at))),
                 ("pid", .int(pid)), ("tid", .int(tid)), ("args", .object(args))])
    }

    private static func timeArg(_ st: TimelineStamp) -> [(String, JSONValue)] {
        [("line", .int(st.line))] + (st.time.map { [("time", JSONValue.string($0.iso))] } ?? [])
    }

    /// A session's events, an instance at a time: instance `k`'s track is the session's track + 1 + `k`.
    private static func session(_ s: SessionPieces, input: TimelineInput, pid: Int, tids: inout Int,
                                into events: inout EventWriter) throws(ReportWriteError) {
        let clock = SessionClock(events: s.events(), hasTimes: s.hasTimes, endTime: s.endTime, base: input.timeBase)
        let pidText = s.pid.map { " [\($0)]" } ?? ""
        let sessionTrack = tids
        tids += 1 + s.instanceCount
        func track(_ k: Int) -> Int { sessionTrack + 1 + k }
        try events.append(meta("process_name", pid: pid, tid: sessionTrack, [("name", .string("\(s.process.isEmpty ? "(no process)" : s.process)\(pidText) · \(input.path) · session \(s.id)"))]))
        try events.append(meta("process_sort_index", pid: pid, tid: sessionTrack, [("sort_index", .int(pid))]))
        try events.append(meta("thread_name", pid: pid, tid: sessionTrack, [("name", .string("transitions & UIKit"))]))
        try events.append(meta("thread_sort_index", pid: pid, tid: sessionTrack, [("sort_index", .int(0))]))
        // Transitions follow each other on the session track; a later one never starts before an earlier ended.
        var floor: Int64 = .min
        for n in 0..<s.transitionCount {
            let t = s.transition(n)
            let a = max(floor, clock.micros(t.start))
            let b = max(a, clock.micros(t.end))
            floor = b
            try events.append(complete(t.kind.viewName, cat: "transition", pid: pid, tid: sessionTrack, from: a, to: b,
                                   [("members", .string(t.summary)), ("first_line", .int(t.start.line)), ("last_line", .int(t.end.line))]))
        }
        let warnings = s.warnings
        for w in warnings {
            try events.append(instant(w.kind.rawValue, cat: "uikit", pid: pid, tid: sessionTrack, at: clock.micros(w.stamp), timeArg(w.stamp) + [("text", .string(w.text))]))
        }
        for k in 0..<s.instanceCount {
            let i = s.header(k)
            let tid = track(k)
            try events.append(meta("thread_name", pid: pid, tid: tid, [("name", .string(i.controller.addressText.map { "\(i.laneLabel) \($0)" } ?? i.laneLabel))]))
            try events.append(meta("thread_sort_index", pid: pid, tid: tid, [("sort_index", .int(i.id))]))
            let life0 = clock.micros(i.first)
            let lifeEnd = i.dealloc.map { clock.micros($0) } ?? clock.end
            var lifeArgs: [(String, JSONValue)] = [("class", .string(i.controller.className)), ("kind", .string(i.kind.rawValue))]
            if let a = i.controller.addressText { lifeArgs.append(("address", .string(a))) }
            if let r = i.removal { lifeArgs.append(("removal", .string(r.kind.rawValue))); lifeArgs.append(("removal_line", .int(r.evidence.line))) }
            lifeArgs.append(("deallocated", .bool(i.dealloc != nil)))
            try events.append(complete(i.controller.instance, cat: i.kind.rawValue, pid: pid, tid: tid, from: life0, to: max(life0, lifeEnd), lifeArgs))
            try s.forEachInterval(k) { (iv: StateInterval) throws(ReportWriteError) in
                guard iv.state == .appearing || iv.state == .visible || iv.state == .disappearing else { return }
                let a = clock.micros(iv.start)
                let b = iv.openAtEnd ? clock.end : clock.micros(iv.end)
                try events.append(complete(iv.state.rawValue, cat: "state", pid: pid, tid: tid, from: a, to: min(max(a, b), max(life0, lifeEnd)),
                                       [("from_line", .int(iv.start.line)), ("to_line", .int(iv.end.line))]))
            }
            try s.forEachCallback(k) { (c: RecordedCallback) throws(ReportWriteError) in
                try events.append(instant(c.kind.rawValue, cat: "callback", pid: pid, tid: tid, at: clock.micros(c.stamp), timeArg(c.stamp)))
            }
        }
        var warningAt: [Int: TimelineStamp]?
        for k in input.findings(inSession: s.id) {
            let f = input.findings[k]
            let position = input.placement(of: k)?.instance.flatMap { s.position(ofInstance: $0) }
            var at = position.flatMap { s.lastCallback(ofInstance: $0, atOrBeforeLine: f.line) }
            if at == nil {
                if warningAt == nil {
                    var index: [Int: TimelineStamp] = [:]
                    for w in warnings where index[w.stamp.line] == nil { index[w.stamp.line] = w.stamp }
                    warningAt = index
                }
                at = warningAt?[f.line]
            }
            let ts = at.map { clock.micros($0) } ?? clock.start
            var args: [(String, JSONValue)] = [
                ("rule", .string(f.rule)), ("severity", .string(f.severity.rawValue)), ("line", .int(f.line)), ("message", .string(f.message)),
            ]
            if input.isBaselined(f) { args.append(("baselined", .bool(true))) }
            try events.append(instant(f.rule, cat: "finding", pid: pid, tid: position.map(track) ?? sessionTrack, at: ts, args))
        }
    }

}
