/// The timeline as data: `vclint timeline --format json` (versioned, for scripts) and
/// `--format chrome-trace` (the Trace Event Format that Perfetto UI and chrome://tracing open).

public enum TimelineJSON {
    public static func render(_ inputs: [TimelineInput]) -> String {
        let doc = JSONValue.object([
            ("version", .int(1)),
            ("tool", .object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))])),
            ("inputs", .array(inputs.map(input))),
        ])
        return doc.serialized() + "\n"
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

    private static func input(_ input: TimelineInput) -> JSONValue {
        var findingsBySession: [Int: [JSONValue]] = [:]
        var unplaced: [JSONValue] = []
        for f in input.findings {
            let p = input.place(f)
            let v = JSONValue.object([
                ("rule", .string(f.rule)), ("severity", .string(f.severity.rawValue)), ("line", .int(f.line)),
                ("instance", p?.instance.map { .int($0) } ?? .null), ("controller", .string(f.controller.instance)),
                ("message", .string(f.message)),
            ])
            if let p { findingsBySession[p.session, default: []].append(v) } else { unplaced.append(v) }
        }
        var pairs: [(String, JSONValue)] = [("path", .string(input.path))]
        pairs.append(("sessions", .array(input.timeline.sessions.map { session($0, findings: findingsBySession[$0.id] ?? []) })))
        if !unplaced.isEmpty { pairs.append(("findings", .array(unplaced))) }
        return .object(pairs)
    }

    private static func session(_ s: RecordedSession, findings: [JSONValue]) -> JSONValue {
        .object([
            ("id", .int(s.id)),
            ("process", .string(s.process)),
            ("pid", s.pid.map { .int($0) } ?? .null),
            ("events", .int(s.eventCount)),
            ("first", stamp(s.firstEvent)),
            ("last", stamp(s.lastEvent)),
            ("end_time", s.endTime.map { .string($0.iso) } ?? .null),
            ("instances", .array(s.instances.map(instance))),
            ("transitions", .array(s.transitions.map(transition))),
            ("warnings", .array(s.warnings.map { w in
                .object([("event", .string(w.kind.rawValue)), ("line", .int(w.stamp.line)), ("time", w.stamp.time.map { .string($0.iso) } ?? .null),
                         ("class", .string(w.className)), ("text", .string(w.text))])
            })),
            ("findings", .array(findings)),
        ])
    }

    private static func instance(_ i: RecordedInstance) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("id", .int(i.id))]
        pairs += controller(i.controller)
        pairs += [
            ("dialect", .string(i.dialect.rawValue)),
            ("intervals", .array(i.intervals.map { iv in
                .object([("state", .string(iv.state.rawValue)), ("from", stamp(iv.start)), ("to", stamp(iv.end)), ("open_at_end", .bool(iv.openAtEnd))])
            })),
            ("callbacks", .array(i.callbacks.map { c in
                var p: [(String, JSONValue)] = [("event", .string(c.kind.rawValue)), ("line", .int(c.stamp.line)), ("time", c.stamp.time.map { .string($0.iso) } ?? .null)]
                if let tp = c.toParent { p.append(("to_parent", .bool(tp))) }
                return .object(p)
            })),
            ("removal", i.removal.map { r in
                var p: [(String, JSONValue)] = [("kind", .string(r.kind.rawValue)), ("evidence", ref(r.evidence)), ("anchor", ref(r.anchor))]
                if let along = r.takenAlongBy { p.append(("taken_along_by", .string(along))) }
                return .object(p)
            } ?? .null),
            ("dealloc", i.dealloc.map(stamp) ?? .null),
            ("dealloc_logged", .bool(i.deallocInstrumented)),
        ]
        return .object(pairs)
    }

    private static func transition(_ t: RecordedTransition) -> JSONValue {
        .object([
            ("id", .int(t.id)),
            ("kind", .string(t.kind.rawValue)),
            ("from", stamp(t.start)),
            ("to", stamp(t.end)),
            ("members", .array(t.members.map { m in
                .object([("instance", .int(m.instance)), ("label", .string(m.label)), ("direction", .string(m.direction.rawValue)),
                         ("final_direction", .string(m.finalDirection.rawValue)), ("completed", .bool(m.completed))])
            })),
        ])
    }
}

/// Trace Event Format: a process per session, a thread (track) per controller instance plus the
/// session's own track for transitions and UIKit warnings; complete events (`X`) for each
/// controller's life and its appearing/visible/disappearing intervals, instant events (`i`) for
/// callbacks and findings. Times are microseconds from the input's first timestamp; a log without
/// time gets one millisecond per event.
///
/// Perfetto keys threads by tid alone, takes tid 0 for the idle task and tid = pid for the
/// process's main thread, and drops a complete event that overlaps an open one on its track. So
/// pids are 1…N (one per session) and tids count on from N + 1 over the whole trace: never 0, never
/// a pid, never shared; and on every track complete events come in time order, an enclosing one
/// before those it encloses.
public enum ChromeTrace {
    public static func render(_ inputs: [TimelineInput]) -> String {
        var events: [JSONValue] = []
        var pid = 0
        var nextTID = inputs.reduce(0) { $0 + $1.timeline.sessions.count } + 1
        for input in inputs {
            let base = input.timeBase
            var marksBySession: [Int: [(Finding, Int?)]] = [:]
            for f in input.findings {
                if let p = input.place(f) { marksBySession[p.session, default: []].append((f, p.instance)) }
            }
            for s in input.timeline.sessions {
                pid += 1
                session(s, input: input, pid: pid, tids: &nextTID, base: base, findings: marksBySession[s.id] ?? [], into: &events)
            }
        }
        var out = "{\"displayTimeUnit\":\"ms\",\"otherData\":"
        out += JSONValue.object([("tool", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))]).serialized(pretty: false)
        out += ",\"traceEvents\":[\n"
        out += events.map { $0.serialized(pretty: false) }.joined(separator: ",\n")
        out += "\n]}\n"
        return out
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

    private static func session(_ s: RecordedSession, input: TimelineInput, pid: Int, tids: inout Int, base: Double?, findings: [(Finding, Int?)],
                                into events: inout [JSONValue]) {
        let clock = SessionClock(s, base: base)
        let pidText = s.pid.map { " [\($0)]" } ?? ""
        let sessionTrack = tids
        tids += 1
        var trackOf: [Int: Int] = [:]
        for i in s.instances {
            trackOf[i.id] = tids
            tids += 1
        }
        events.append(meta("process_name", pid: pid, tid: sessionTrack, [("name", .string("\(s.process.isEmpty ? "(no process)" : s.process)\(pidText) · \(input.path) · session \(s.id)"))]))
        events.append(meta("process_sort_index", pid: pid, tid: sessionTrack, [("sort_index", .int(pid))]))
        events.append(meta("thread_name", pid: pid, tid: sessionTrack, [("name", .string("transitions & UIKit"))]))
        events.append(meta("thread_sort_index", pid: pid, tid: sessionTrack, [("sort_index", .int(0))]))
        // Transitions follow each other on the session track; a later one never starts before an earlier ended.
        var floor: Int64 = .min
        for t in s.transitions {
            let a = max(floor, clock.micros(t.start))
            let b = max(a, clock.micros(t.end))
            floor = b
            events.append(complete(t.kind.rawValue, cat: "transition", pid: pid, tid: sessionTrack, from: a, to: b,
                                   [("members", .string(t.summary)), ("first_line", .int(t.start.line)), ("last_line", .int(t.end.line))]))
        }
        for w in s.warnings {
            events.append(instant(w.kind.rawValue, cat: "uikit", pid: pid, tid: sessionTrack, at: clock.micros(w.stamp), timeArg(w.stamp) + [("text", .string(w.text))]))
        }
        for i in s.instances {
            let tid = trackOf[i.id]!
            events.append(meta("thread_name", pid: pid, tid: tid, [("name", .string(i.controller.addressText.map { "\(i.controller.instance) \($0)" } ?? i.controller.instance))]))
            events.append(meta("thread_sort_index", pid: pid, tid: tid, [("sort_index", .int(i.id))]))
            let life0 = clock.micros(i.first)
            let lifeEnd = i.dealloc.map { clock.micros($0) } ?? clock.end
            var lifeArgs: [(String, JSONValue)] = [("class", .string(i.controller.className))]
            if let a = i.controller.addressText { lifeArgs.append(("address", .string(a))) }
            if let r = i.removal { lifeArgs.append(("removal", .string(r.kind.rawValue))); lifeArgs.append(("removal_line", .int(r.evidence.line))) }
            lifeArgs.append(("deallocated", .bool(i.dealloc != nil)))
            events.append(complete(i.controller.instance, cat: "controller", pid: pid, tid: tid, from: life0, to: max(life0, lifeEnd), lifeArgs))
            for iv in i.intervals where iv.state == .appearing || iv.state == .visible || iv.state == .disappearing {
                let a = clock.micros(iv.start)
                let b = iv.openAtEnd ? clock.end : clock.micros(iv.end)
                events.append(complete(iv.state.rawValue, cat: "state", pid: pid, tid: tid, from: a, to: min(max(a, b), max(life0, lifeEnd)),
                                       [("from_line", .int(iv.start.line)), ("to_line", .int(iv.end.line))]))
            }
            for c in i.callbacks {
                events.append(instant(c.kind.rawValue, cat: "callback", pid: pid, tid: tid, at: clock.micros(c.stamp), timeArg(c.stamp)))
            }
        }
        for (f, instance) in findings {
            let owner = instance.flatMap { id in s.instances.first { $0.id == id } }
            let at = owner?.callbacks.last(where: { $0.stamp.line <= f.line })?.stamp
                ?? s.warnings.first(where: { $0.stamp.line == f.line })?.stamp
            let ts = at.map { clock.micros($0) } ?? clock.start
            events.append(instant(f.rule, cat: "finding", pid: pid, tid: owner.map { trackOf[$0.id]! } ?? sessionTrack, at: ts, [
                ("rule", .string(f.rule)), ("severity", .string(f.severity.rawValue)), ("line", .int(f.line)), ("message", .string(f.message)),
            ]))
        }
    }
}
