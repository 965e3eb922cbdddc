/// The formats of `vclint leaks` (`ViewFormats.leaks`): each writes a `LeakReport` a leak at a time.

/// For a terminal: every text from a log made inert (`TerminalText`).
public struct LeakText: ViewFormat {
    public static let identifier = "text"
    public static let summary = "for a terminal"

    public init() {}

    public func write(_ r: LeakReport, to out: ReportWriter) throws(ReportWriteError) {
        let safe = TerminalText.field
        let plural = LeakReport.plural
        // Every piece ends a line, so each is made inert on its own (`TerminalText.text` works by line).
        func put(_ s: String) throws(ReportWriteError) { try out.write(TerminalText.text(s)) }
        try put("vclint leaks: \(plural(r.confirmedCount, "confirmed leak")) of \(plural(r.groups.count, "class")), "
                + "\(r.unconfirmed.count) unconfirmed, \(r.baselinedNote)in \(plural(r.files, "file")) (grace \(Wording.seconds(r.graceSeconds)))\n")
        for g in r.groups {
            try put("\n\(safe(g.className)): \(plural(g.leaks.count, "leaked instance")) in \(plural(g.sessions, "session")) of \(plural(g.files, "file")); "
                    + "removed by " + g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", ") + "\n")
            for e in g.leaks { try put(Self.entry(e)) }
        }
        let tests = r.byTest
        if !tests.isEmpty {
            try put("\nBy test (the test running at each removal):\n")
            for (test, leaks) in tests {
                try put("  \(safe(test)): \(plural(leaks.count, "leak")): " + leaks.map { safe($0.subject) }.joined(separator: ", ") + "\n")
            }
        }
        try put("\nUnconfirmed (the log ended within the grace period): \(r.unconfirmed.isEmpty ? "none" : String(r.unconfirmed.count))\n")
        for e in r.unconfirmed { try put(Self.entry(e)) }
        if !r.baselined.isEmpty {
            try put("\nBaselined (recorded in the baseline: known, failing nothing): \(r.baselined.count)\n")
            for e in r.baselined { try put(Self.entry(e)) }
        }
        if !r.appLifetime.isEmpty {
            try put("\nApp-lifetime objects (made while no screen was being set up: never judged): \(r.appLifetime.map(safe).joined(separator: ", "))\n")
        }
        try put("\n\(LeakReport.unjudgedHeading(r.unjudgedRows).heading): \(r.unjudgedRows.isEmpty ? "none" : String(r.unjudgedRows.count))\n")
        for u in r.unjudgedRows {
            try put("  \(safe(u.className)): \(plural(u.instances, "instance")), \(LeakReport.unjudgedCount(u)); in \(u.paths.map(safe).joined(separator: ", "))\n")
        }
    }

    /// A leak's lines: what leaked where, how it was removed, its evidence.
    static func entry(_ e: LeakReport.Entry) -> String {
        let safe = TerminalText.field
        let test = e.test.map { ", in test \(safe($0))" } ?? ""
        var out = "  \(safe(e.subject)) in \(safe(e.path)), \(safe(LeakReport.sessionText(e)))\(test)\n"
        out += "    \(safe(LeakReport.how(e)))\n"
        for ev in e.evidence { out += "    \(safe(e.path)):\(ev.line): \(ev.event) (\(safe(ev.note)))\n" }
        return out
    }
}

/// For scripts, and to merge the leak reports of a CI matrix's shards (`LeakReport.read`).
public struct LeakJSON: ViewFormat {
    public static let identifier = "json"
    public static let summary = "for scripts; the reports of shards merge"

    /// Recorded (the command line gives it) with the classes whose dealloc is judged, so that
    /// `vclint leaks` can merge the JSON leak reports of a matrix's shards; nil leaves both out.
    public var configuration: RunConfiguration?

    public init(configuration: RunConfiguration? = nil) {
        self.configuration = configuration
    }

    /// The document streamed (`JSONStream`): a class, a leak at a time.
    public func write(_ r: LeakReport, to out: ReportWriter) throws(ReportWriteError) {
        let json = JSONStream(out)
        try json.openObject()
        try json.value(.int(1), key: "version")
        try json.value(.object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))]), key: "tool")
        if let configuration { try json.value(configuration.json, key: "configuration") }
        try json.value(.double(r.graceSeconds), key: "grace_seconds")
        var counts: [(String, JSONValue)] = [("confirmed", .int(r.confirmedCount)), ("unconfirmed", .int(r.unconfirmed.count)),
                                             ("classes", .int(r.groups.count)), ("files", .int(r.files))]
        if !r.baselined.isEmpty { counts.append(("baselined", .int(r.baselined.count))) }
        try json.value(.object(counts), key: "summary")
        try json.openArray("classes")
        for g in r.groups {
            try json.openObject()
            try json.value(.string(g.className), key: "class")
            try json.value(.int(g.leaks.count), key: "instances")
            try json.value(.int(g.sessions), key: "sessions")
            try json.value(.int(g.files), key: "files")
            try json.value(.object(g.removals.map { ($0.kind, .int($0.count)) }), key: "removals")
            try json.openArray("leaks")
            for e in g.leaks { try json.value(Self.entry(e)) }
            try json.close()
            try json.close()
        }
        try json.close()
        try json.openArray("unconfirmed")
        for e in r.unconfirmed { try json.value(Self.entry(e)) }
        try json.close()
        if !r.baselined.isEmpty {
            // Present only with a baseline that recorded a leak of the run (version-1 readers keep working).
            try json.openArray("baselined")
            for e in r.baselined { try json.value(Self.entry(e, confirmed: e.confirmed)) }
            try json.close()
        }
        try json.openArray("tests")
        for t in r.byTest {
            try json.value(.object([("test", .string(t.test)), ("leaks", .int(t.leaks.count)),
                                    ("controllers", .array(t.leaks.map { .string($0.controller.instance) }))]))
        }
        try json.close()
        try json.value(.array(r.appLifetime.map { .string($0) }), key: "app_lifetime_objects")
        try json.openArray("dealloc_not_logged")
        for u in r.unjudgedRows {
            var fields: [(String, JSONValue)] = [("class", .string(u.className)), ("instances", .int(u.instances)),
                                                 ("removed_without_dealloc", .int(u.removedWithoutDealloc)), ("paths", .array(u.paths.map { .string($0) }))]
            if u.android { fields.append(("android", .bool(true))) }
            try json.value(.object(fields))
        }
        try json.close()
        if configuration != nil { try json.value(.array(r.judgedClasses.sorted().map { .string($0) }), key: "dealloc_logged") }
        try json.close()
        try out.write("\n")
    }

    /// `confirmed`: said for a baselined leak, whose list does not say it.
    static func entry(_ e: LeakReport.Entry, confirmed: Bool? = nil) -> JSONValue {
        var removal: [(String, JSONValue)] = [("kind", .string(e.removal.kind.rawValue)), ("how", .string(e.removal.kind.reportName)),
                                              ("line", .int(e.removal.line))]
        if let along = e.removal.takenAlongBy { removal.append(("taken_along_by", .string(along))) }
        var pairs: [(String, JSONValue)] = [
            ("controller", .object(TimelineJSON.controller(e.controller))),
            ("path", .string(e.path)),
            ("session", .object([("id", .int(e.session)), ("process", .string(e.process)), ("pid", e.pid.map { .int($0) } ?? .null)])),
            ("line", .int(e.line)),
            ("removal", .object(removal)),
            ("seconds_after_removal", e.wentOn.map { .double(($0 * 1000).rounded() / 1000) } ?? .null),
            ("evidence", .array(e.evidence.map { .object([("line", .int($0.line)), ("event", .string($0.event)), ("note", .string($0.note))]) })),
        ]
        if let t = e.test { pairs.append(("test", .string(t))) }
        if let o = e.owner { pairs.append(("owner", .object(TimelineJSON.controller(o)))) }
        if let confirmed {
            pairs.append(("confirmed", .bool(confirmed)))
            if let fp = e.fingerprint { pairs.append(("fingerprint", .string(fp))) }
        }
        return .object(pairs)
    }
}

/// For `$GITHUB_STEP_SUMMARY` and pull-request comments: tables, every cell escaped (`MarkdownText`).
public struct LeakMarkdown: ViewFormat {
    public static let identifier = "markdown"
    public static let summary = "for $GITHUB_STEP_SUMMARY"

    public init() {}

    public func write(_ r: LeakReport, to out: ReportWriter) throws(ReportWriteError) {
        let cell = MarkdownText.cell
        let plural = LeakReport.plural
        let entryHead = "| controller | where | removal | evidence |\n| --- | --- | --- | --- |\n"
        try out.write("## vclint leaks\n\n")
        try out.write("**\(plural(r.confirmedCount, "confirmed leak"))** of \(plural(r.groups.count, "class")), \(r.unconfirmed.count) unconfirmed, \(r.baselinedNote)"
                      + "in \(plural(r.files, "file")) (grace \(Wording.seconds(r.graceSeconds))).\n")
        if !r.groups.isEmpty {
            try out.write("\n| class | instances | sessions | files | removed by |\n| --- | --- | --- | --- | --- |\n")
            for g in r.groups {
                try out.write("| \(cell(g.className)) | \(g.leaks.count) | \(g.sessions) | \(g.files) | \(cell(g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", "))) |\n")
            }
            try out.write("\n" + entryHead)
            for g in r.groups { for e in g.leaks { try out.write(Self.row(e)) } }
        }
        let tests = r.byTest
        if !tests.isEmpty {
            try out.write("\n### By test\n\n| test | leaks | controllers |\n| --- | --- | --- |\n")
            for t in tests { try out.write("| \(cell(t.test)) | \(t.leaks.count) | \(cell(t.leaks.map(\.subject).joined(separator: ", "))) |\n") }
        }
        if !r.unconfirmed.isEmpty {
            try out.write("\n### Unconfirmed (the log ended within the grace period)\n\n" + entryHead)
            for e in r.unconfirmed { try out.write(Self.row(e)) }
        }
        if !r.baselined.isEmpty {
            try out.write("\n### Baselined (recorded in the baseline: known, failing nothing)\n\n" + entryHead)
            for e in r.baselined { try out.write(Self.row(e)) }
        }
        if !r.appLifetime.isEmpty {
            try out.write("\n### App-lifetime objects (never judged)\n\n\(r.appLifetime.map(cell).joined(separator: ", "))\n")
        }
        if !r.unjudgedRows.isEmpty {
            let (heading, column) = LeakReport.unjudgedHeading(r.unjudgedRows)
            try out.write("\n### \(heading)\n\n| class | instances | \(column) | files |\n| --- | --- | --- | --- |\n")
            for u in r.unjudgedRows {
                try out.write("| \(cell(u.className))\(u.android ? " (Android: \(LeakReport.androidFix))" : "") | \(u.instances) | \(u.removedWithoutDealloc) | \(cell(u.paths.joined(separator: ", "))) |\n")
            }
        }
    }

    static func row(_ e: LeakReport.Entry) -> String {
        let cell = MarkdownText.cell
        let evidence = e.evidence.map { "\($0.line): \($0.event) (\($0.note))" }.joined(separator: "\n")
        let test = e.test.map { ", test \(cell($0))" } ?? ""
        return "| \(cell(e.subject)) | \(cell("\(e.path):\(e.line)")), \(cell(LeakReport.sessionText(e)))\(test) | \(cell(LeakReport.how(e))) | \(cell(evidence)) |\n"
    }
}

/// A self-contained page (`HTMLPage`); its tables are also `vclint report`'s Leaks section.
public struct LeakHTML: ViewFormat {
    public static let identifier = "html"
    public static let summary = "a self-contained page"

    public init() {}

    public func write(_ r: LeakReport, to out: ReportWriter) throws(ReportWriteError) {
        try out.write(HTMLPage.head(title: "vclint leaks"))
        try out.write("<h1>vclint leaks</h1>\n")
        try Self.section(r, to: out)
        try out.write(HTMLPage.tail)
    }

    /// The summary and the tables, a row at a time; every text from a log through `HTMLText.escape`. With `maxRows`
    /// (`vclint report`'s page) each table stops there, with a line that says how many more rows it has.
    static func section(_ r: LeakReport, to out: ReportWriter, maxRows: Int? = nil) throws(ReportWriteError) {
        let h = HTMLText.escape
        let plural = LeakReport.plural
        try out.write("<p class=\"summary\"><strong>\(plural(r.confirmedCount, "confirmed leak"))</strong> of \(plural(r.groups.count, "class")), "
                      + "\(r.unconfirmed.count) unconfirmed, \(r.baselinedNote)in \(plural(r.files, "file")) (grace \(Wording.seconds(r.graceSeconds))).</p>\n")
        if !r.groups.isEmpty {
            try out.write("<table><thead><tr><th>class</th><th>leaked instances</th><th>sessions</th><th>files</th><th>removed by</th></tr></thead><tbody>\n")
            for g in r.groups {
                try out.write("<tr><td>\(h(g.className))</td><td>\(g.leaks.count)</td><td>\(g.sessions)</td><td>\(g.files)</td><td>\(h(g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", ")))</td></tr>\n")
            }
            try out.write("</tbody></table>\n")
            try rows(r.groups.lazy.flatMap(\.leaks), count: r.confirmedCount, to: out, maxRows: maxRows)
        }
        try out.write("<h3>Unconfirmed (the log ended within the grace period)</h3>\n")
        if r.unconfirmed.isEmpty {
            try out.write("<p>None.</p>\n")
        } else {
            try rows(r.unconfirmed, count: r.unconfirmed.count, to: out, maxRows: maxRows)
        }
        if !r.baselined.isEmpty {
            try out.write("<h3>Baselined (recorded in the baseline: known, failing nothing)</h3>\n<div class=\"baselined\">\n")
            try rows(r.baselined, count: r.baselined.count, to: out, maxRows: maxRows)
            try out.write("</div>\n")
        }
        let (heading, column) = LeakReport.unjudgedHeading(r.unjudgedRows)
        try out.write("<h3>\(h(heading))</h3>\n")
        if r.unjudgedRows.isEmpty {
            try out.write("<p>None.</p>\n")
        } else {
            try out.write("<table><thead><tr><th>class</th><th>instances</th><th>\(h(column))</th><th>files</th></tr></thead><tbody>\n")
            for u in r.unjudgedRows.prefix(maxRows ?? .max) {
                try out.write("<tr><td>\(h(u.className))\(u.android ? " (Android: \(h(LeakReport.androidFix)))" : "")</td><td>\(u.instances)</td><td>\(u.removedWithoutDealloc)</td><td>\(h(u.paths.joined(separator: ", ")))</td></tr>\n")
            }
            try out.write("</tbody></table>\n")
            try more(r.unjudgedRows.count, "class", maxRows: maxRows, to: out)
        }
    }

    /// A table of leaks, a row each, up to `maxRows` of the `count` there are.
    private static func rows<Leaks: Sequence<LeakReport.Entry>>(_ entries: Leaks, count: Int, to out: ReportWriter,
                                                                maxRows: Int?) throws(ReportWriteError) {
        let h = HTMLText.escape
        try out.write("<table><thead><tr><th>controller</th><th>where</th><th>removal</th><th>evidence</th></tr></thead><tbody>\n")
        for e in entries.prefix(maxRows ?? .max) {
            let ev = e.evidence.map { "<li><code>\(h(e.path)):\($0.line)</code> \(h($0.event)) (\(h($0.note)))</li>" }.joined()
            try out.write("<tr><td>\(h(e.subject))</td><td>\(h(e.path)):\(e.line)<br>\(h(LeakReport.sessionText(e)))</td><td>\(h(LeakReport.how(e)))</td><td><ul>\(ev)</ul></td></tr>\n")
        }
        try out.write("</tbody></table>\n")
        try more(count, "leak", maxRows: maxRows, to: out)
    }

    /// The line under a table that stopped at `maxRows` of its `count` rows.
    private static func more(_ count: Int, _ word: String, maxRows: Int?, to out: ReportWriter) throws(ReportWriteError) {
        guard let maxRows, count > maxRows else { return }
        try out.write("<p class=\"more\"><strong>\(LeakReport.plural(count - maxRows, "more \(word)")) not listed here</strong>: the page lists "
                      + "the first \(maxRows) of each table; <code>vclint leaks PATH</code> lists every one.</p>\n")
    }
}
