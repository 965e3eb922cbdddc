import Foundation

/// A self-contained HTML page: inline CSS, inline SVG, no script and no request of any kind, so it
/// opens from a CI artifact or an e-mail as it is. Every text that came from a log goes through
/// `HTMLText.escape`.
enum HTMLPage {
    /// Severities and lane states each have a colour of their own (`HTMLPalette`), far apart from
    /// one another, so a warning never reads as an error nor "loaded" as "hidden".
    static let style = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d1d1f;background:#fff}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
    h3{font-size:15px;margin:18px 0 6px}code{font:12px ui-monospace,Menlo,Consolas,monospace}
    table{border-collapse:collapse;margin:6px 0 12px}th,td{border:1px solid #d0d0d7;padding:3px 8px;text-align:left;vertical-align:top}
    th{background:#f3f3f6}td ul{margin:0;padding-left:16px}.num{text-align:right}
    .sev{display:inline-block;min-width:58px;text-align:center;border-radius:3px;color:#fff;font-weight:600;font-size:12px;padding:0 4px}
    .sev-error{color:\(HTMLPalette.error)}.sev-warning{color:\(HTMLPalette.warningText)}.sev-info{color:\(HTMLPalette.info)}
    .sev.sev-error{background:\(HTMLPalette.error);color:#fff}.sev.sev-warning{background:\(HTMLPalette.warning);color:#1d1d1f}.sev.sev-info{background:\(HTMLPalette.info);color:#fff}
    .summary{font-size:15px}.muted{color:#6e6e73}tr:target{background:#fff3c4}tr:target+tr.excerpt td{background:#fffaf0}
    tr.excerpt td{border-top:none;padding:0 8px 8px}.baselined{opacity:.55}
    table.findings{width:100%;table-layout:fixed}table.findings th:nth-child(1){width:20%}table.findings th:nth-child(2){width:76px}
    table.findings th:nth-child(3),table.findings th:nth-child(4){width:15%}table.findings th:nth-child(6){width:14%}table.findings td{overflow-wrap:anywhere}
    pre.log{margin:4px 0 0;padding:6px 8px;background:#f7f7f9;border:1px solid #e3e3e8;overflow-x:auto;font:12px/1.5 ui-monospace,Menlo,Consolas,monospace;white-space:pre;overflow-wrap:normal}
    pre.log .ln{display:inline-block;min-width:5ch;text-align:right;margin-right:10px;color:#8e8e93;user-select:none}
    pre.log .hit{display:block;font-weight:600}pre.log .hit-error{background:#fde7e9;box-shadow:inset 3px 0 \(HTMLPalette.error)}
    pre.log .hit-warning{background:#fff4d6;box-shadow:inset 3px 0 \(HTMLPalette.warning)}pre.log .hit-info{background:#e4f0fd;box-shadow:inset 3px 0 \(HTMLPalette.info)}
    pre.log .rel{display:block;background:#eef1f6;box-shadow:inset 3px 0 #7d8794}pre.log .note{color:#55606e;font-style:italic;margin-left:12px}
    pre.log .gap{display:block;color:#8e8e93}
    svg.lanes{display:block;margin:6px 0 4px;border:1px solid #e3e3e8;background:#fcfcfd}
    svg text{font:11px ui-monospace,Menlo,Consolas,monospace;fill:#1d1d1f}svg text.t{fill:#225;font-weight:600}
    .s-loaded{fill:\(HTMLPalette.loaded)}.s-hidden{fill:\(HTMLPalette.hidden)}.s-unknown{fill:\(HTMLPalette.unknown)}
    .s-appearing{fill:\(HTMLPalette.appearing)}.s-disappearing{fill:\(HTMLPalette.disappearing)}
    .s-visible{fill:\(HTMLPalette.visible)}.band{fill:#6b8fd6;opacity:.10}.dealloc{stroke:#1d1d1f;stroke-width:2}
    .finding{stroke:#fff;stroke-width:1.5}.finding-error{fill:\(HTMLPalette.error)}.finding-warning{fill:\(HTMLPalette.warning)}.finding-info{fill:\(HTMLPalette.info)}
    .grid{stroke:#e6e6ec}
    .legend span{display:inline-block;width:12px;height:10px;margin:0 4px 0 12px;vertical-align:middle}
    """

    /// The page up to its body's content.
    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>
        \(style)
        </style>
        </head>
        <body>

        """
    }

    /// The page after its body's content.
    static let tail = "\n</body>\n</html>\n"
}

/// The report's colours: one per severity and one per lane state, chosen far apart (a test measures
/// their distances), and legible for the common colour-vision deficiencies as they differ in
/// lightness too: hidden is a dark slate, loaded a pale blue, visible a saturated green.
public enum HTMLPalette {
    public static let error = "#c62828"
    public static let warning = "#f0a202"
    /// Warning text on white needs more contrast than the badge colour has.
    public static let warningText = "#9a6200"
    public static let info = "#1565c0"
    public static let loaded = "#c7dbf5"
    public static let appearing = "#9fd8a8"
    public static let visible = "#1e8449"
    public static let disappearing = "#f5b58b"
    public static let hidden = "#5d6673"
    public static let unknown = "#eceff3"

    public static func severity(_ s: Severity) -> String {
        switch s {
        case .error: return error
        case .warning: return warning
        case .info: return info
        }
    }
}

/// `vclint report`: the summary, then the findings (each with the log around it and its related
/// lines), then the SVG swimlanes with findings marked in their severity's colour and linked to
/// their row, the leak table and per-file stats.
public struct HTMLReport: Sendable {
    public enum Section: Sendable { case summary, timelines, findings, leaks, files }

    public var inputs: [TimelineInput]
    public var leaks: LeakReport
    public var sections: [Section]
    public var title: String
    /// Lines of each input (by path) to show around its findings (`LineExcerpts`); an input without
    /// them shows its findings without the log.
    public var excerpts: [String: [Int: String]]

    public init(inputs: [TimelineInput], leaks: LeakReport, sections: [Section] = [.summary, .findings, .timelines, .leaks, .files],
                title: String = "vclint report", excerpts: [String: [Int: String]] = [:]) {
        self.inputs = inputs
        self.leaks = leaks
        self.sections = sections
        self.title = title
        self.excerpts = excerpts
    }

    /// Lines of context before and after a finding's line.
    public static let context = 2
    /// Past this many findings the excerpts stop (the table goes on): a report stays a few MB.
    public static let maxExcerpts = 500

    /// The lines each input's excerpts need: around every finding that gets one (the first
    /// `maxExcerpts` of the table's order), and its related lines.
    public static func excerptLines(_ inputs: [TimelineInput]) -> [String: Set<Int>] {
        var out: [String: Set<Int>] = [:]
        for (fi, i) in listingOrder(inputs, limit: maxExcerpts) {
            let input = inputs[fi], f = input.findings[i]
            for l in max(1, f.line - context)...(f.line + context) { out[input.path, default: []].insert(l) }
            for r in f.related where r.path == f.path { out[input.path, default: []].insert(r.line) }
        }
        return out
    }

    /// The findings in the order the table lists them, the first `limit`: errors, then warnings,
    /// then infos, each in the inputs' order and by line (the log's order). Read from the findings'
    /// severities alone (nothing is worded).
    static func listingOrder(_ inputs: [TimelineInput], limit: Int) -> [(file: Int, index: Int)] {
        var out: [(file: Int, index: Int)] = []
        for severity in [Severity.error, .warning, .info] {
            for (fi, input) in inputs.enumerated() {
                for i in input.findings.indices where input.findings.severity(at: i) == severity {
                    if out.count >= limit { return out }
                    out.append((fi, i))
                }
            }
        }
        return out
    }

    private static let h = HTMLText.escape

    static func anchor(_ file: Int, _ finding: Int) -> String { "finding-\(file + 1)-\(finding + 1)" }

    /// Past this many findings the table stops, with a line that says how many more there are
    /// (`vclint lint --reporter json` lists them all): the page stays one a browser opens.
    public static let maxListedFindings = 10_000
    /// This page's cap (`maxListedFindings` unless a test lowers it).
    public var listedFindings = HTMLReport.maxListedFindings
    /// Past this many rows each leak table stops likewise (`vclint leaks PATH` lists them all): 400k classes whose
    /// dealloc is not logged made a table of 46 MB.
    public static let maxLeakRows = 10_000
    /// This page's cap (`maxLeakRows` unless a test lowers it).
    public var listedLeakRows = HTMLReport.maxLeakRows

    public func render() -> String {
        let out = ReportWriter()
        try? write(to: out)
        return out.text
    }

    /// The page written as it is produced, a section, a session, a finding at a time (as the lint
    /// reporters write theirs): it never exists whole in memory.
    public func write(to out: ReportWriter) throws(ReportWriteError) {
        try out.write(HTMLPage.head(title: title))
        try out.write("<h1>\(Self.h(title))</h1>\n")
        for s in sections {
            switch s {
            case .summary: try out.write(summary())
            case .timelines: try timelines(out)
            case .findings: try findings(out)
            case .leaks:
                try out.write("<h2 id=\"leaks\">Leaks</h2>\n")
                try LeakHTML.section(leaks, to: out, maxRows: listedLeakRows)
            case .files: try files(out)
            }
        }
        try out.write("<p class=\"muted\">\(Self.h(VCLintVersion.name)) \(Self.h(VCLintVersion.version))</p>\n")
        try out.write(HTMLPage.tail)
    }

    /// `listed[k]`: the findings of input `k` that have a row in the table (an anchor to link to).
    private var listed: [Set<Int>] {
        var out = [Set<Int>](repeating: [], count: inputs.count)
        for (fi, i) in Self.listingOrder(inputs, limit: listedFindings) { out[fi].insert(i) }
        return out
    }

    /// Findings of severity `s` that fail (those a baseline records are counted apart: `baselinedCount`).
    private func count(_ s: Severity) -> Int {
        inputs.reduce(0) { n, input in
            input.baselined.isEmpty ? n + input.findings.count(s)
                : n + input.findings.indices.reduce(0) { $0 + (input.findings.severity(at: $1) == s && !input.isBaselined(input.findings[$1]) ? 1 : 0) }
        }
    }

    private var baselinedCount: Int {
        inputs.reduce(0) { n, input in input.baselined.isEmpty ? n : n + input.findings.reduce(0) { $0 + (input.isBaselined($1) ? 1 : 0) } }
    }

    private func summary() -> String {
        let lines = inputs.reduce(0) { $0 + $1.stats.lines }
        let sessions = inputs.reduce(0) { $0 + $1.timeline.sessions.count }
        let controllers = inputs.reduce(0) { $0 + $1.stats.controllers }
        var out = "<h2 id=\"summary\">Summary</h2>\n<p class=\"summary\">"
        out += "<span class=\"sev-error\">\(LeakReport.plural(count(.error), "error"))</span>, "
        out += "<span class=\"sev-warning\">\(LeakReport.plural(count(.warning), "warning"))</span>, "
        out += "<span class=\"sev-info\">\(LeakReport.plural(count(.info), "info"))</span> "
        let baselined = baselinedCount
        if baselined > 0 { out += "(and <span class=\"baselined\">\(baselined) baselined</span>: recorded in the baseline, shown greyed, failing nothing) " }
        out += "in \(LeakReport.plural(inputs.count, "file")) (\(LeakReport.plural(lines, "line")), \(LeakReport.plural(sessions, "session")), "
        out += "\(LeakReport.plural(controllers, "controller"))); \(LeakReport.plural(leaks.confirmedCount, "confirmed leak")).</p>\n"
        return out
    }

    private func legend() -> String {
        var out = "<p class=\"legend muted\">"
        for (state, name) in [(LaneState.loaded, "loaded"), (.appearing, "appearing"), (.visible, "visible"), (.disappearing, "disappearing"), (.hidden, "hidden")] {
            out += "<svg width=\"12\" height=\"10\"><rect class=\"s-\(state.rawValue)\" width=\"12\" height=\"10\"/></svg> \(name) "
        }
        out += "<svg width=\"12\" height=\"10\"><line class=\"dealloc\" x1=\"2\" y1=\"1\" x2=\"10\" y2=\"9\"/><line class=\"dealloc\" x1=\"10\" y1=\"1\" x2=\"2\" y2=\"9\"/></svg> deallocated "
        for sev in [Severity.error, .warning, .info] {
            out += "<svg width=\"12\" height=\"12\"><circle class=\"finding finding-\(sev.rawValue)\" cx=\"6\" cy=\"6\" r=\"5\"/></svg> \(sev.rawValue) "
        }
        out += "(a finding: links to its row) "
        out += "· left to right: one step per event</p>\n"
        return out
    }

    /// Past this many sessions drawn, or this many bytes of drawing, the timelines stop with a line
    /// that says how many more there are (`vclint timeline` draws every one): as with the findings,
    /// the page stays one a browser opens. 100k one-screen captures drew 386 MB.
    public static let maxDrawnSessions = 2_000
    public static let maxTimelineBytes = 32 << 20
    /// This page's caps (the above unless a test lowers them).
    public var drawnSessions = HTMLReport.maxDrawnSessions
    public var timelineBytes = HTMLReport.maxTimelineBytes
    /// Past this many bytes of one session's drawing, its further lanes and transitions are counted, not
    /// drawn (a session of 400k controllers drew 3 GB).
    public static let maxSessionBytes = 32 << 20
    public var sessionBytes = HTMLReport.maxSessionBytes
    /// A session whose drawing may take this many bytes (`SessionDrawing.estimatedBytes`) is drawn as it is written,
    /// not held drawn in its batch: it is alone the size of many batches, and held, it stood beside the recording of
    /// its hundreds of thousands of controllers at the run's peak.
    static let streamedSessionBytes = 4 << 20
    /// This page's threshold (`streamedSessionBytes` unless a test changes it: 0 writes every session as drawn).
    var streamedFrom = HTMLReport.streamedSessionBytes

    /// Sessions drawn at a time, on as many threads as there are cores (their SVG is most of the
    /// page's work, and each is drawn from its own values): they are written in order, and no more
    /// than these are held drawn.
    static let sessionsPerBatch = 512
    /// This page's batch (`sessionsPerBatch` unless a test changes it).
    var batch = HTMLReport.sessionsPerBatch
    /// A batch also ends once the sessions it draws may take this many bytes (`SessionDrawing.estimatedBytes`): 512
    /// sessions of a few MB each were drawn, and held, before any was written (and most then not written, past
    /// `timelineBytes`).
    static let bytesPerBatch = 16 << 20
    /// This page's (`bytesPerBatch` unless a test changes it).
    var batchBytes = HTMLReport.bytesPerBatch

    private func timelines(_ out: ReportWriter) throws(ReportWriteError) {
        try out.write("<h2 id=\"timelines\">Timelines</h2>\n" + legend())
        let listed = self.listed
        // What is written in order: a file's heading, or a session drawn in the batch.
        enum Piece { case text(String), session(file: Int, index: Int) }
        var pieces: [Piece] = []
        var batched = 0, batchedBytes = 0
        var drawnCount = 0, drawnBytes = 0
        var full = false
        func flush() throws(ReportWriteError) {
            var list: [(file: Int, index: Int, slot: Int)] = []
            for p in pieces where list.count < drawnSessions - drawnCount {
                if case .session(let f, let k) = p { list.append((f, k, list.count)) }
            }
            let jobs = list
            let drawn = DrawnSessions(count: jobs.count)
            let report = self
            let threads = min(max(1, ProcessInfo.processInfo.activeProcessorCount), jobs.count)
            if threads > 0 { DispatchQueue.concurrentPerform(iterations: threads) { t in
                for j in stride(from: t, to: jobs.count, by: threads) {
                    let (fi, k, slot) = jobs[j]
                    drawn.set(slot, report.drawSession(k, of: fi, listed: listed[fi]))
                }
            } }
            var next = 0
            for p in pieces {
                if full { break }
                switch p {
                case .text(let t): try out.write(t)
                case .session(let fi, let k):
                    switch drawn.take(next) {
                    case .parts(let parts):
                        for part in parts {
                            try out.write(part)
                            drawnBytes += part.utf8.count
                        }
                    case .whenWritten:
                        drawnBytes += try drawing(k, of: fi, listed: listed[fi])?.write(to: out) ?? 0
                    }
                    next += 1
                    drawnCount += 1
                    full = drawnCount >= drawnSessions || drawnBytes >= timelineBytes
                }
            }
            pieces.removeAll(keepingCapacity: true)
            batched = 0
            batchedBytes = 0
        }
        for (fi, input) in inputs.enumerated() where !full {
            pieces.append(.text("<h3>\(Self.h(input.path))</h3>\n"))
            let sessions = input.timeline.sessions
            if sessions.isEmpty { pieces.append(.text("<p class=\"muted\">No lifecycle events.</p>\n")) }
            for k in sessions.indices where !full {
                pieces.append(.session(file: fi, index: k))
                batched += 1
                // A session drawn as it is written is not held in the batch.
                let bytes = SessionDrawing.estimatedBytes(sessions, at: k)
                if bytes < streamedFrom { batchedBytes += bytes }
                if batched >= batch || batchedBytes >= batchBytes { try flush() }
            }
            // Headings of inputs without sessions are not held without end either.
            if pieces.count >= 4 * batch { try flush() }
        }
        try flush()
        let sessions = inputs.reduce(0) { $0 + $1.timeline.sessions.count }
        if sessions > drawnCount {
            let why = drawnCount >= drawnSessions ? "the first \(drawnCount)" : "the first \(drawnCount) (its drawing is capped at \(timelineBytes >> 20) MB)"
            try out.write("<p class=\"more\"><strong>\(LeakReport.plural(sessions - drawnCount, "more session")) not drawn here</strong>: the page draws \(why); "
                          + "<code>vclint timeline PATH</code> prints any capture's timelines (text, JSON or a Perfetto trace).</p>\n")
        }
    }

    /// Session `k` of input `fi` made ready to draw, with the findings the table lists (`listed`: the input's); nil
    /// when it has nothing to draw.
    private func drawing(_ k: Int, of fi: Int, listed: Set<Int>) -> SessionDrawing? {
        let input = inputs[fi]
        let s = input.timeline.sessions.pieces(at: k)
        // A finding past the table's end has no row to link to, and no dot.
        let findings = input.findings(inSession: s.id).filter { listed.contains($0) }
            .compactMap { k in input.placement(of: k).map { (input.findings[k], k, $0) } }
        return SessionDrawing(s, input: input, fileIndex: fi, findings: findings, budget: sessionBytes)
    }

    /// Session `k` of input `fi` drawn on a batch's thread, or left to be drawn as it is written when its drawing
    /// would be large (`streamedFrom`).
    private func drawSession(_ k: Int, of fi: Int, listed: Set<Int>) -> DrawnSession {
        if SessionDrawing.estimatedBytes(inputs[fi].timeline.sessions, at: k) >= streamedFrom { return .whenWritten }
        return .parts(drawing(k, of: fi, listed: listed)?.parts() ?? [])
    }

    private func findings(_ out: ReportWriter) throws(ReportWriteError) {
        try out.write("<h2 id=\"findings\">Findings</h2>\n")
        let total = inputs.reduce(0) { $0 + $1.findings.count }
        if total == 0 { return try out.write("<p>No lifecycle violations.</p>\n") }
        try out.write("<table class=\"findings\"><thead><tr><th>location</th><th>severity</th><th>rule</th><th>controller</th><th>message</th><th>related</th></tr></thead><tbody>\n")
        var shown = 0
        // The most severe first (`listingOrder`).
        for (fi, i) in Self.listingOrder(inputs, limit: listedFindings) {
            let input = inputs[fi], f = input.findings[i]
            let lines = excerpts[input.path] ?? [:]
            let related = f.related.map { "<li>\($0.line): \(Self.h($0.note))</li>" }.joined()
            let sev = f.severity.rawValue
            let known = input.isBaselined(f)
            var row = "<tr id=\"\(Self.anchor(fi, i))\"\(known ? " class=\"baselined\"" : "")><td><code>\(Self.h(f.path)):\(f.line)</code></td>"
                + "<td><span class=\"sev sev-\(sev)\">\(sev)</span>\(known ? "<br><small>baselined</small>" : "")</td>"
            // Inside a test: the test's name under the message.
            var test = f.test.map { "<br><small>in test <code>\(Self.h($0))</code></small>" } ?? ""
            // An object: its owner under the message.
            if let o = f.owner { test += "<br><small>owned by <code>\(Self.h(o.display))</code></small>" }
            row += "<td><code>\(Self.h(f.rule))</code></td><td>\(Self.h(f.controller.display))</td><td>\(Self.h(f.message))\(test)</td><td><ul>\(related)</ul></td></tr>\n"
            shown += 1
            if shown <= Self.maxExcerpts, let excerpt = Self.excerpt(f, lines: lines) {
                row += "<tr class=\"excerpt\"><td colspan=\"6\">\(excerpt)</td></tr>\n"
            }
            try out.write(row)
        }
        if total > shown {
            let more = total - shown
            try out.write("<tr class=\"more\"><td colspan=\"6\"><strong>\(LeakReport.plural(more, "more finding")) not listed here</strong>: the page lists the \(shown) most severe (and marks only those on the timelines); <code>vclint lint --reporter json</code> lists every one.</td></tr>\n")
        }
        try out.write("</tbody></table>\n")
    }

    /// The log around a finding: its line marked in its severity's colour, the related lines marked
    /// with their notes, `⋮` where lines are skipped.
    static func excerpt(_ f: Finding, lines: [Int: String]) -> String? {
        var numbers: Set<Int> = []
        for l in max(1, f.line - context)...(f.line + context) where lines[l] != nil { numbers.insert(l) }
        var notes: [Int: [String]] = [:]
        for r in f.related where r.path == f.path && lines[r.line] != nil {
            numbers.insert(r.line)
            notes[r.line, default: []].append(r.note)
        }
        guard numbers.contains(f.line) else { return nil }
        var out = "<pre class=\"log\">"
        var previous: Int?
        for n in numbers.sorted() {
            if let p = previous, n > p + 1 { out += "<span class=\"gap\"><span class=\"ln\">⋮</span></span>" }
            previous = n
            let text = h(lines[n] ?? "")
            let ln = "<span class=\"ln\">\(n)</span>"
            if n == f.line {
                let also = notes[n].map { "<span class=\"note\">← \(h($0.joined(separator: "; ")))</span>" } ?? ""
                out += "<span class=\"hit hit-\(f.severity.rawValue)\">\(ln)\(text)\(also)</span>"
            } else if let note = notes[n] {
                out += "<span class=\"rel\">\(ln)\(text)<span class=\"note\">← \(h(note.joined(separator: "; ")))</span></span>"
            } else {
                out += "\(ln)\(text)\n"
            }
        }
        return out + "</pre>"
    }

    private func files(_ out: ReportWriter) throws(ReportWriteError) {
        var head = "<h2 id=\"files\">Files</h2>\n<table><thead><tr><th>file</th><th class=\"num\">lines</th><th class=\"num\">bytes</th><th class=\"num\">events</th>"
        head += "<th class=\"num\">sessions</th><th class=\"num\">controllers</th><th>formats</th><th class=\"num\">errors</th><th class=\"num\">warnings</th><th class=\"num\">infos</th></tr></thead><tbody>\n"
        try out.write(head)
        for input in inputs {
            let st = input.stats
            let formats = st.formats.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            func n(_ s: Severity) -> Int { input.findings.count(s) }
            var row = "<tr><td><code>\(Self.h(input.path))</code></td><td class=\"num\">\(st.lines)</td><td class=\"num\">\(st.bytes)</td><td class=\"num\">\(st.events)</td>"
            row += "<td class=\"num\">\(st.sessions)</td><td class=\"num\">\(st.controllers)</td><td>\(Self.h(formats))</td>"
            row += "<td class=\"num\">\(n(.error))</td><td class=\"num\">\(n(.warning))</td><td class=\"num\">\(n(.info))</td></tr>\n"
            try out.write(row)
        }
        try out.write("</tbody></table>\n")
    }
}

/// Text kept in pieces of at most about 1 MB (a session's lanes, up to `HTMLReport.sessionBytes`): one string grown
/// by doubling held its old copy beside the new one at each step, 68 MB for 32 MB of lanes. A piece ends before an
/// append would take it past `pieceBytes`, a little under a power of two: a string grows its room by doubling, and a
/// piece that crossed 1 MiB held 2 MiB for it (47 MB for a 32 MB drawing).
struct PiecewiseText {
    private var done: [String] = []
    private var current = ""
    private(set) var byteCount = 0
    static let pieceBytes = (1 << 20) - 256

    static func += (text: inout PiecewiseText, s: String) {
        let n = s.utf8.count
        if !text.current.isEmpty && text.current.utf8.count + n > pieceBytes {
            text.done.append(text.current)
            text.current = ""
        }
        text.current += s
        text.byteCount += n
    }

    /// Its pieces in order.
    var pieces: [String] { current.isEmpty ? done : done + [current] }
}

/// The sessions of a batch as the threads draw them: each slot written by one thread, read once
/// all have finished (memory of its own, so that no thread touches an array's header).
private enum DrawnSession {
    case parts([String])
    /// Drawn as it is written, on the writer's thread.
    case whenWritten
}

private final class DrawnSessions: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<DrawnSession>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(1, count))
        slots.initialize(repeating: .parts([]), count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func set(_ i: Int, _ drawn: DrawnSession) { slots[i] = drawn }

    func take(_ i: Int) -> DrawnSession {
        defer { slots[i] = .parts([]) }
        return slots[i]
    }
}
