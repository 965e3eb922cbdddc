/// `vclint inspect`'s formats (`ViewFormats.inspect`): a text for a terminal and a JSON document
/// for scripts, each written an input at a time.

/// Every text from the capture (paths, process and class names, example lines, shapes) goes
/// through `TerminalText.field`, and every line through `TerminalText.text`: CI runs `inspect` on
/// a capture that failed, and its output must run nothing in the runner or terminal.
public struct InspectionText: ViewFormat {
    public static let identifier = "text"
    public static let summary = "for a terminal"

    public init() {}

    /// The inputs one after the other, a blank line between two.
    public func write(_ inputs: [Inspection], to out: ReportWriter) throws(ReportWriteError) {
        for (k, i) in inputs.enumerated() {
            if k > 0 { try out.write("\n") }
            try Self.write(i, to: out)
        }
    }

    static func write(_ i: Inspection, to out: ReportWriter) throws(ReportWriteError) {
        let count = InspectionWording.count, field = InspectionWording.field, clip = InspectionWording.clip
        let pad = InspectionWording.pad, lpad = InspectionWording.lpad
        // Every piece ends a line, so each is made inert on its own (`TerminalText.text` works by line).
        func put(_ s: String) throws(ReportWriteError) { try out.write(TerminalText.text(s)) }
        var head = "\(field(i.path)): \(count(i.lines, "line")), \(count(i.events, "event")), \(count(i.sessions.count, "session"))"
        if i.unread > 0 { head += "; \(count(i.unread, "line")) \(i.unread == 1 ? "mentions a callback" : "mention callbacks") but \(i.unread == 1 ? "was" : "were") not read" }
        try put(head + "\n")
        if i.events == 0 {
            let suggested = i.unreadGroups.contains { $0.dialect != nil }
            try put(suggested
                ? "  No lifecycle event was read. The lines below mention callbacks: add the dialect shown with their shape to .vclint.yml.\n"
                : i.unread > 0
                ? "  No lifecycle event was read. The lines below mention callbacks, but in no shape that repeats as a lifecycle statement: is this the app's capture, and does the app log its callbacks? (a `log stream` predicate that misses the app, or `print` output, which `log stream` never sees)\n"
                : "  No lifecycle event was read, and no line mentions a callback name: is this the app's capture? (a `log stream` predicate that misses the app, or `print` output, which `log stream` never sees)\n")
        }
        if i.redacted > 0, let first = i.firstRedacted {
            try put("  \(count(i.redacted, "statement")) had a redacted label (`<private>`, the first at line \(first)): read as the unnamed controller's; "
                    + "\(RedactedLabelsRule.fix) (redacted_labels)\n")
        }
        try put("\n  envelopes\n")
        for e in i.envelopes {
            let name = e.format?.rawValue ?? "(none)"
            let example = e.example.map { "  e.g. line \($0.line): \(clip($0.text))" } ?? (e.format == nil ? "  continuation or bare lines" : "")
            try put("    \(pad(name, 10)) \(lpad(RunSummary.grouped(e.lines), 9)) lines\(example)\n")
        }
        try put("\n  dialects\n")
        if i.shapes.isEmpty { try put("    (none read)\n") }
        for s in i.shapes {
            let shape = s.template.map { "  \(field($0))" } ?? ""
            let kinds = s.callbacks.count == 1 ? "1 callback" : "\(s.callbacks.count) callbacks"
            let labels = s.dialect == .uikit ? "" : ", \(s.labels)\(s.labels >= Inspection.labelLimit ? "+" : "") \(s.labels == 1 ? "class" : "classes")"
            try put("    \(pad(s.dialect.rawValue, 16)) \(lpad(RunSummary.grouped(s.lines), 9)) lines\(shape)  (\(kinds)\(labels))\n"
                    + "      e.g. line \(s.example.line): \(clip(s.example.text))\n")
        }
        if i.otherShapeLines > 0 { try put("    … and \(count(i.otherShapeLines, "line")) of other shapes\n") }
        try put("\n  sessions\n")
        if i.sessions.isEmpty { try put("    (none)\n") }
        for s in i.sessions {
            let pid = s.pid.map { " (pid \($0))" } ?? ""
            let process = s.process.isEmpty ? "(no process)" : field(s.process)
            var times = ""
            if let a = s.start, let b = s.end { times = "  \(a.iso) → \(b.iso)" }
            var instances = count(s.controllers, "controller")
            if s.objects > 0 { instances += ", " + count(s.objects, "object") }
            if s.views > 0 { instances += ", " + count(s.views, "view") }
            try put("    #\(s.id) \(process)\(pid)  lines \(s.firstLine)–\(s.lastLine)  \(count(s.events, "event")), \(instances)\(times)\n")
        }
        try put("\n  classes (what each logs decides which rules apply to it)\n")
        // Walked twice in place (a filtered copy of 400k classes each time is not needed).
        let controllers = i.classes.filter { !$0.isObject }, objects = i.classes.filter(\.isObject)
        if controllers.isEmpty { try put("    (none)\n") }
        for c in controllers {
            var lines = "    \(field(c.name))  \(count(c.instances, "instance")), \(InspectionWording.dialects(c)): \(InspectionWording.callbacks(c))\n"
            let gaps = InspectionWording.instrumentationNotes(c)
            if !gaps.isEmpty { lines += "      \(gaps.joined(separator: "; "))\n" }
            try put(lines)
        }
        if !objects.isEmpty {
            try put("\n  objects (classes that log only init and deinit: each goes with its owner)\n")
            for c in objects {
                var lines = "    \(field(c.name))  \(count(c.instances, "instance")), \(InspectionWording.dialects(c)): \(InspectionWording.callbacks(c))\n"
                lines += "      owners: \(c.owners.map { InspectionWording.ownerText($0) }.joined(separator: "; "))\n"
                if !c.deallocJudged { lines += "      \(InspectionWording.unjudged(c, ios: "no deinit logged"))\n" }
                try put(lines)
            }
        }
        if !i.unreadGroups.isEmpty {
            try put("\n  unread lines that mention callbacks, by shape (a shape that repeats as a lifecycle statement has a dialect: add it to .vclint.yml)\n")
            for g in i.unreadGroups {
                let kinds = g.callbacks.count == 1 ? "1 callback" : "\(g.callbacks.count) callbacks"
                let labels = "\(g.labels)\(g.labels >= Inspection.labelLimit ? "+" : "") \(g.labels == 1 ? "class" : "classes")"
                var lines = "    \(count(g.lines, "line"))  \(field(g.template))  (\(kinds), \(labels))\n"
                lines += "      first at line \(g.example.line): \(clip(g.example.text))\n"
                if let d = g.dialect {
                    lines += "      dialects:\n"
                    for l in d.yaml.split(separator: "\n") { lines += "        \(field(String(l)))\n" }
                } else if let reason = g.reason {
                    lines += "      \(field(reason))\n"
                }
                try put(lines)
            }
            if i.otherUnreadLines > 0 { try put("    … and \(count(i.otherUnreadLines, "line")) of other shapes\n") }
        }
    }
}

/// For scripts: `{"version": 1, "inputs": [...]}`, an input's object at a time (`JSONStream`).
public struct InspectionJSON: ViewFormat {
    public static let identifier = "json"
    public static let summary = "for scripts"

    public init() {}

    public func write(_ inputs: [Inspection], to out: ReportWriter) throws(ReportWriteError) {
        let json = JSONStream(out)
        try json.openObject()
        try json.value(.int(1), key: "version")
        try json.openArray("inputs")
        for i in inputs { try json.value(Self.input(i)) }
        try json.close()
        try json.close()
        try out.write("\n")
    }

    static func input(_ i: Inspection) -> JSONValue {
        func example(_ e: Inspection.Example?) -> JSONValue {
            guard let e else { return .null }
            return .object([("line", .int(e.line)), ("text", .string(e.text))])
        }
        return .object([
            ("path", .string(i.path)), ("lines", .int(i.lines)), ("events", .int(i.events)), ("unrecognized", .int(i.unread)),
            ("redacted", .object([("lines", .int(i.redacted)), ("first", i.firstRedacted.map { .int($0) } ?? .null)])),
            ("envelopes", .array(i.envelopes.map { e in
                .object([("format", e.format.map { .string($0.rawValue) } ?? .null), ("lines", .int(e.lines)), ("example", example(e.example))])
            })),
            ("dialects", .array(i.shapes.map { s in
                .object([("dialect", .string(s.dialect.rawValue)), ("shape", s.template.map { .string($0) } ?? .null), ("lines", .int(s.lines)),
                         ("callbacks", .array(s.callbacks.map { .string($0.rawValue) })), ("classes", .int(s.labels)),
                         ("example", example(s.example))])
            })),
            ("otherDialectLines", .int(i.otherShapeLines)),
            ("sessions", .array(i.sessions.map { s in
                .object([("id", .int(s.id)), ("process", .string(s.process)), ("pid", s.pid.map { .int($0) } ?? .null),
                         ("firstLine", .int(s.firstLine)), ("lastLine", .int(s.lastLine)), ("events", .int(s.events)),
                         ("controllers", .int(s.controllers)), ("objects", .int(s.objects)), ("views", .int(s.views)),
                         ("start", s.start.map { .string($0.iso) } ?? .null),
                         ("end", s.end.map { .string($0.iso) } ?? .null)])
            })),
            ("classes", .array(i.classes.map { c in
                .object([("class", .string(c.name)), ("dialects", .array(c.dialects.map { .string($0.rawValue) })), ("instances", .int(c.instances)),
                         ("callbacks", .array(c.callbacks.map { .string($0.rawValue) })), ("deallocJudged", .bool(c.deallocJudged)),
                         ("notes", .array(InspectionWording.instrumentationNotes(c).map { .string($0) }))]
                        + (c.isObject ? [("object", .bool(true)), ("owners", .array(c.owners.map { o in
                            .object([("owner", o.reason == "none" ? .null : .string(o.owner)), ("why", .string(o.reason)), ("instances", .int(o.count))])
                        }))] : []))
            })),
            ("unread", .array(i.unreadGroups.map { g in
                .object([("shape", .string(g.template)), ("lines", .int(g.lines)),
                         ("callbacks", .array(g.callbacks.map { .string($0.rawValue) })), ("classes", .int(g.labels)),
                         ("example", example(g.example)),
                         ("dialect", g.dialect.map { d in
                             .object([("pattern", .string(d.pattern)), ("events", .object(d.events.map { ($0.text, JSONValue.string($0.kind.rawValue)) }))])
                         } ?? .null),
                         ("yaml", g.dialect.map { .string($0.yaml) } ?? .null),
                         ("reason", g.reason.map { .string($0) } ?? .null)])
            })),
            ("otherUnreadLines", .int(i.otherUnreadLines)),
        ])
    }
}

/// What the two formats word alike.
enum InspectionWording {
    /// `DetailViewController by stem ×2`, `none (app-lifetime) ×1`.
    static func ownerText(_ o: (owner: String, reason: String, count: Int)) -> String {
        let who = o.reason == "none" ? "none (app-lifetime: never judged)" : "\(TerminalText.field(o.owner)) by \(o.reason == "stem" ? "shared name stem" : "setup running")"
        return "\(who) ×\(o.count)"
    }

    /// Why a class's leaks are not judged: on Android, no evidence of the heap; on iOS, no dealloc logged.
    static func unjudged(_ c: Inspection.ClassInfo, ios: String) -> String {
        guard c.dialects.contains(where: \.isAndroid) else { return "\(ios): its leaks are not judged" }
        return c.callbacks.contains(.finalize)
            ? "no LeakCanary evidence in the capture: its leaks are not judged (finalize shows its releases; LeakCanary would prove a leak)"
            : "no LeakCanary evidence in the capture: its leaks are not judged (add LeakCanary, or log finalize)"
    }

    /// Which rules cannot apply to a class because it does not log their callbacks
    /// (docs/lifecycle.md#instrumentation).
    static func instrumentationNotes(_ c: Inspection.ClassInfo) -> [String] {
        var notes: [String] = []
        let logs = Set(c.callbacks)
        if c.isView { return ["a SwiftUI view: a value, never judged; it may own objects"] }
        if !c.deallocJudged { notes.append(unjudged(c, ios: "no dealloc/deinit logged")) }
        if logs.contains(.viewWillAppear) && !logs.contains(.viewDidAppear) { notes.append("no viewDidAppear logged: missing_did_appear does not apply") }
        if logs.contains(.viewWillDisappear) && !logs.contains(.viewDidDisappear) { notes.append("no viewDidDisappear logged: missing_did_disappear does not apply") }
        if logs.contains(.willMoveToParent) && !logs.contains(.didMoveToParent) { notes.append("no didMoveToParent logged: child_containment does not apply") }
        return notes
    }

    static func dialects(_ c: Inspection.ClassInfo) -> String { c.dialects.map(\.rawValue).joined(separator: ", ") }
    static func callbacks(_ c: Inspection.ClassInfo) -> String { c.callbacks.map(\.rawValue).joined(separator: ", ") }
    static func count(_ n: Int, _ word: String) -> String { RunSummary.plural(n, word) }
    static func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }
    static func lpad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
    static func field(_ s: String) -> String { TerminalText.field(s) }
    static func clip(_ s: String) -> String {
        let clean = field(s)
        return clean.count > 140 ? String(clean.prefix(139)) + "…" : clean
    }
}
