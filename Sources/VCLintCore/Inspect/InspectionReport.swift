/// `vclint inspect`'s output: a text for a terminal and a JSON document for scripts.
public enum InspectionReport {
    /// Every text from the capture (paths, process and class names, example lines, shapes) goes
    /// through `TerminalText.field`, and the whole text through `TerminalText.text`: CI runs
    /// `inspect` on a capture that failed, and its output must run nothing in the runner or terminal.
    public static func text(_ inputs: [Inspection]) -> String {
        TerminalText.text(inputs.map(text).joined(separator: "\n"))
    }

    static func text(_ i: Inspection) -> String {
        var out = "\(field(i.path)): \(count(i.lines, "line")), \(count(i.events, "event")), \(count(i.sessions.count, "session"))"
        if i.unread > 0 { out += "; \(count(i.unread, "line")) \(i.unread == 1 ? "mentions a callback" : "mention callbacks") but \(i.unread == 1 ? "was" : "were") not read" }
        out += "\n"
        if i.events == 0 {
            let suggested = i.unreadGroups.contains { $0.dialect != nil }
            out += suggested
                ? "  No lifecycle event was read. The lines below mention callbacks: add the dialect shown with their shape to .vclint.yml.\n"
                : i.unread > 0
                ? "  No lifecycle event was read. The lines below mention callbacks, but in no shape that repeats as a lifecycle statement: is this the app's capture, and does the app log its callbacks? (a `log stream` predicate that misses the app, or `print` output, which `log stream` never sees)\n"
                : "  No lifecycle event was read, and no line mentions a callback name: is this the app's capture? (a `log stream` predicate that misses the app, or `print` output, which `log stream` never sees)\n"
        }
        if i.redacted > 0, let first = i.firstRedacted {
            out += "  \(count(i.redacted, "statement")) had a redacted label (`<private>`, the first at line \(first)): read as the unnamed controller's; "
            out += "\(RedactedLabelsRule.fix) (redacted_labels)\n"
        }
        out += "\n  envelopes\n"
        for e in i.envelopes {
            let name = e.format?.rawValue ?? "(none)"
            let example = e.example.map { "  e.g. line \($0.line): \(clip($0.text))" } ?? (e.format == nil ? "  continuation or bare lines" : "")
            out += "    \(pad(name, 10)) \(lpad(RunSummary.grouped(e.lines), 9)) lines\(example)\n"
        }
        out += "\n  dialects\n"
        if i.shapes.isEmpty { out += "    (none read)\n" }
        for s in i.shapes {
            let shape = s.template.map { "  \(field($0))" } ?? ""
            let kinds = s.callbacks.count == 1 ? "1 callback" : "\(s.callbacks.count) callbacks"
            let labels = s.dialect == .uikit ? "" : ", \(s.labels)\(s.labels >= Inspection.labelLimit ? "+" : "") \(s.labels == 1 ? "class" : "classes")"
            out += "    \(pad(s.dialect.rawValue, 16)) \(lpad(RunSummary.grouped(s.lines), 9)) lines\(shape)  (\(kinds)\(labels))\n"
            out += "      e.g. line \(s.example.line): \(clip(s.example.text))\n"
        }
        if i.otherShapeLines > 0 { out += "    … and \(count(i.otherShapeLines, "line")) of other shapes\n" }
        out += "\n  sessions\n"
        if i.sessions.isEmpty { out += "    (none)\n" }
        for s in i.sessions {
            let pid = s.pid.map { " (pid \($0))" } ?? ""
            let process = s.process.isEmpty ? "(no process)" : field(s.process)
            var times = ""
            if let a = s.start, let b = s.end { times = "  \(a.iso) → \(b.iso)" }
            var instances = count(s.controllers, "controller")
            if s.objects > 0 { instances += ", " + count(s.objects, "object") }
            if s.views > 0 { instances += ", " + count(s.views, "view") }
            out += "    #\(s.id) \(process)\(pid)  lines \(s.firstLine)–\(s.lastLine)  \(count(s.events, "event")), \(instances)\(times)\n"
        }
        out += "\n  classes (what each logs decides which rules apply to it)\n"
        let controllers = i.classes.filter { !$0.isObject }, objects = i.classes.filter(\.isObject)
        if controllers.isEmpty { out += "    (none)\n" }
        for c in controllers {
            let dialects = c.dialects.map(\.rawValue).joined(separator: ", ")
            out += "    \(field(c.name))  \(count(c.instances, "instance")), \(dialects): \(c.callbacks.map(\.rawValue).joined(separator: ", "))\n"
            let gaps = instrumentationNotes(c)
            if !gaps.isEmpty { out += "      \(gaps.joined(separator: "; "))\n" }
        }
        if !objects.isEmpty {
            out += "\n  objects (classes that log only init and deinit: each goes with its owner)\n"
            for c in objects {
                let dialects = c.dialects.map(\.rawValue).joined(separator: ", ")
                out += "    \(field(c.name))  \(count(c.instances, "instance")), \(dialects): \(c.callbacks.map(\.rawValue).joined(separator: ", "))\n"
                out += "      owners: \(c.owners.map { ownerText($0) }.joined(separator: "; "))\n"
                if !c.deallocJudged { out += "      no deinit logged: its leaks are not judged\n" }
            }
        }
        if !i.unreadGroups.isEmpty {
            out += "\n  unread lines that mention callbacks, by shape (a shape that repeats as a lifecycle statement has a dialect: add it to .vclint.yml)\n"
            for g in i.unreadGroups {
                let kinds = g.callbacks.count == 1 ? "1 callback" : "\(g.callbacks.count) callbacks"
                let labels = "\(g.labels)\(g.labels >= Inspection.labelLimit ? "+" : "") \(g.labels == 1 ? "class" : "classes")"
                out += "    \(count(g.lines, "line"))  \(field(g.template))  (\(kinds), \(labels))\n"
                out += "      first at line \(g.example.line): \(clip(g.example.text))\n"
                if let d = g.dialect {
                    out += "      dialects:\n"
                    for l in d.yaml.split(separator: "\n") { out += "        \(field(String(l)))\n" }
                } else if let reason = g.reason {
                    out += "      \(field(reason))\n"
                }
            }
            if i.otherUnreadLines > 0 { out += "    … and \(count(i.otherUnreadLines, "line")) of other shapes\n" }
        }
        return out
    }

    /// `DetailViewController by stem ×2`, `none (app-lifetime) ×1`.
    static func ownerText(_ o: (owner: String, reason: String, count: Int)) -> String {
        let who = o.reason == "none" ? "none (app-lifetime: never judged)" : "\(TerminalText.field(o.owner)) by \(o.reason == "stem" ? "shared name stem" : "setup running")"
        return "\(who) ×\(o.count)"
    }

    /// Which rules cannot apply to a class because it does not log their callbacks
    /// (docs/lifecycle.md#instrumentation).
    static func instrumentationNotes(_ c: Inspection.ClassInfo) -> [String] {
        var notes: [String] = []
        let logs = Set(c.callbacks)
        if c.isView { return ["a SwiftUI view: a value, never judged; it may own objects"] }
        if !c.deallocJudged { notes.append("no dealloc/deinit logged: its leaks are not judged") }
        if logs.contains(.viewWillAppear) && !logs.contains(.viewDidAppear) { notes.append("no viewDidAppear logged: missing_did_appear does not apply") }
        if logs.contains(.viewWillDisappear) && !logs.contains(.viewDidDisappear) { notes.append("no viewDidDisappear logged: missing_did_disappear does not apply") }
        if logs.contains(.willMoveToParent) && !logs.contains(.didMoveToParent) { notes.append("no didMoveToParent logged: child_containment does not apply") }
        return notes
    }

    public static func json(_ inputs: [Inspection]) -> String {
        func example(_ e: Inspection.Example?) -> JSONValue {
            guard let e else { return .null }
            return .object([("line", .int(e.line)), ("text", .string(e.text))])
        }
        let docs: [JSONValue] = inputs.map { i in
            .object([
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
                             ("notes", .array(instrumentationNotes(c).map { .string($0) }))]
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
        return JSONValue.object([("version", .int(1)), ("inputs", .array(docs))]).serialized() + "\n"
    }

    private static func count(_ n: Int, _ word: String) -> String { RunSummary.plural(n, word) }
    private static func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }
    private static func lpad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
    private static func field(_ s: String) -> String { TerminalText.field(s) }
    private static func clip(_ s: String) -> String {
        let clean = field(s)
        return clean.count > 140 ? String(clean.prefix(139)) + "…" : clean
    }
}
