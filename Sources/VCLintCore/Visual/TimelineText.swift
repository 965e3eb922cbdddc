import Foundation

/// `vclint timeline` in the terminal: per session a swimlane row per controller instance, a row of
/// transition labels above them, a ruler below, then the transitions and findings as text.
public struct TimelineTextRenderer: ViewFormat {
    public static let identifier = "text"
    public static let summary = "swimlanes"

    public var width: Int
    public var color: Bool
    public var axis: TimelineAxis
    public var window: TimelineWindow

    public init(width: Int, color: Bool = false, axis: TimelineAxis = .events, window: TimelineWindow = TimelineWindow()) {
        self.width = max(width, 40)
        self.color = color
        self.axis = axis
        self.window = window
    }

    static let glyphs: [LaneState: Character] = [
        .unknown: "?", .loaded: ".", .appearing: ">", .visible: "#", .disappearing: "<", .hidden: "-",
    ]
    public static let legend = "legend: . loaded > appearing # visible < disappearing - hidden X deallocated ! finding ? unknown"

    private enum Paint { case none, dim, state, moving, dealloc, finding, label }

    private func paint(_ s: String, _ p: Paint) -> String {
        guard color, !s.isEmpty else { return s }
        let code: String
        switch p {
        case .none: return s
        case .dim: code = "2"
        case .state: code = "32"
        case .moving: code = "33"
        case .dealloc: code = "35"
        case .finding: code = "1;31"
        case .label: code = "36"
        }
        return "\u{1B}[\(code)m\(s)\u{1B}[0m"
    }

    /// The timeline written as it is drawn, a lane at a time: neither the text nor a session's
    /// instances ever exist whole. Every piece ends a line, so each is made inert on its own
    /// (`TerminalText.text` works by line).
    public func write(_ inputs: [TimelineInput], to out: ReportWriter) throws(ReportWriteError) {
        let put: Put = { s throws(ReportWriteError) in try out.write(TerminalText.text(s)) }
        for input in inputs {
            try put(clip(Self.safe(input.path)) + "\n")
            var any = false
            let sessions = input.timeline.sessions
            for k in sessions.indices {
                let s = sessions.pieces(at: k)
                if try session(s, input: input, findings: input.placedFindings(inSession: s.id), put) { any = true }
            }
            try put((any ? "" : "  no lifecycle events" + (window.isEverything ? "" : " in the window") + "\n") + "\n")
        }
        let axisNote = axis == .time ? "axis: time (sessions without timestamps: one column per event)" : "axis: one step per event, in log order"
        try put(clip(Self.legend) + "\n" + clip(axisNote) + "\n")
    }

    private typealias Put = (String) throws(ReportWriteError) -> Void

    /// Text from a log on a terminal: made inert and kept on one line (`TerminalText.field`).
    static func safe(_ s: String) -> String { TerminalText.field(s) }

    private func clip(_ s: String, to w: Int? = nil) -> String {
        let limit = w ?? width
        // A character is at least a byte: a string of no more bytes than the limit fits.
        if s.utf8.count <= limit { return s }
        // ASCII without CR: a character is a byte.
        if Self.characters(s) == s.utf8.count { return String(decoding: s.utf8.prefix(max(0, limit - 1)), as: UTF8.self) + "…" }
        if s.count <= limit { return s }
        return String(s.prefix(max(0, limit - 1))) + "…"
    }

    private func pad(_ s: String, _ w: Int) -> String {
        let c = clip(s, to: w)
        return c + String(repeating: " ", count: max(0, w - Self.characters(c)))
    }

    /// `s.count`, without walking its characters when it is ASCII without CR (a byte each).
    static func characters(_ s: String) -> Int {
        var s = s
        let ascii = s.withUTF8 { b in !b.contains { $0 >= 0x80 || $0 == .carriageReturn } }
        return ascii ? s.utf8.count : s.count
    }

    /// Session `s` drawn through `put`, a line at a time; false when nothing of it is in the window.
    private func session(_ s: SessionPieces, input: TimelineInput, findings: [(Finding, Int, TimelineInput.Placement)], _ put: Put) throws(ReportWriteError) -> Bool {
        // The labels' column: as wide as the widest label, at most a third of the width.
        let widest = max(12, width / 3)
        var labelWidth = max(Self.characters("(session)"), Self.characters("transitions"))
        var views = 0, objects = 0
        for k in 0..<s.instanceCount {
            switch s.kind(k) {
            case .view: views += 1
            case .object: objects += 1
            case .controller: break
            }
            if labelWidth < widest { labelWidth = max(labelWidth, Self.characters(Self.safe(s.laneLabel(k)))) }
        }
        labelWidth = min(labelWidth, widest)
        let cells = width - labelWidth - 3
        guard let frame = SessionFrame(s, timeBase: input.timeBase, axis: axis, width: Double(cells), maxStep: 3, window: window) else {
            return false
        }
        // Header.
        var head = "session \(s.id): \(s.process.isEmpty ? "(no process)" : Self.safe(s.process))"
        if let pid = s.pid { head += " [\(pid)]" }
        let controllers = s.instanceCount - views - objects
        head += ", \(controllers) controller\(controllers == 1 ? "" : "s")"
        if views > 0 { head += ", \(views) view\(views == 1 ? "" : "s")" }
        if objects > 0 { head += ", \(objects) object\(objects == 1 ? "" : "s")" }
        head += ", lines \(s.firstEvent.line)-\(s.lastEvent.line)"
        if let a = s.firstEvent.time {
            let end = s.endTime ?? s.lastEvent.time ?? a
            // The end's date only when it differs from the start's.
            let aISO = a.iso, endISO = end.iso
            let endText = endISO.hasPrefix(String(aISO.prefix(11))) && aISO.count > 11 ? String(endISO.dropFirst(11)) : endISO
            head += ", \(aISO) → \(endText) (\(Wording.seconds(max(0, end.seconds - a.seconds))))"
        }
        try put(clip(head) + "\n")

        let indent = "  "
        // Transition labels: each at its first column, cut where the next begins.
        var row = [Character](repeating: " ", count: cells)
        var pending: (id: Int, kind: TransitionKind, col: Int)?
        func label(_ p: (id: Int, kind: TransitionKind, col: Int), nextStart: Int?) {
            let col = min(max(0, p.col), cells - 1)
            let next = nextStart.map { max(col + 1, $0) } ?? cells
            let room = min(next, cells) - col
            var label = "T\(p.id) \(p.kind.viewName)"
            if label.count >= room { label = room > 2 ? "T\(p.id)" : "|" }
            if label.count >= room && room > 1 { label = "|" }
            for (j, ch) in label.prefix(max(1, room - (room > 1 ? 1 : 0))).enumerated() where col + j < cells { row[col + j] = ch }
        }
        frame.forEachTransition { _, id, kind, x0, _ in
            let start = Int(x0.rounded(.down))
            if let p = pending { label(p, nextStart: start) }
            pending = (id, kind, start)
        }
        if let p = pending {
            label(p, nextStart: nil)
            try put(indent + pad("transitions", labelWidth) + " " + paint(Self.trimmed(row), .label) + "\n")
        }
        // Lanes, each built, drawn and let go; the positions of their instances are kept for the facts below.
        let marks = frame.marks(findings)
        var drawn: [Int32] = []
        try marks.forEachLane(frame) { (position, lane) throws(ReportWriteError) in
            try put(indent + pad(Self.safe(lane.label), labelWidth) + " " + laneText(lane, cells: cells) + "\n")
            if let position { drawn.append(Int32(truncatingIfNeeded: position)) }
        }
        // Ruler: line numbers (or seconds on the time axis) where they fit.
        var ruler = [Character](repeating: " ", count: cells)
        var free = 0
        frame.forEachStep { stamp, x in
            let col = Int(x.rounded(.down))
            guard col >= free, col < cells else { return }
            let text: String
            if frame.axis == .time {
                text = "+" + DecimalText.oneDecimal(frame.seconds(stamp)) + "s"
            } else {
                text = String(stamp.line)
            }
            guard col + text.count <= cells else { return }
            for (j, ch) in text.enumerated() { ruler[col + j] = ch }
            free = col + text.count + 1
        }
        try put(indent + pad(frame.axis == .time ? "time" : "line", labelWidth) + " " + Self.trimmed(ruler) + "\n")
        // Transitions and findings as text.
        try frame.forEachTransition { (n, _, _, _, _) throws(ReportWriteError) in
            let t = s.transition(n)
            let lines = t.start.line == t.end.line ? "line \(t.start.line)" : "lines \(t.start.line)-\(t.end.line)"
            try put(clip(indent + "T\(t.id) \(t.kind.viewName): \(lines): \(Self.safe(t.summary))") + "\n")
        }
        for position in drawn {
            let i = s.facts(Int(position))
            var facts: [String] = []
            if let r = i.removal {
                if r.kind == .ownerDeallocated {
                    facts.append("its owner \(r.takenAlongBy ?? "") deallocated at line \(r.anchor.line)")
                } else {
                    facts.append("removed (\(r.kind.reportName)) at line \(r.evidence.line)")
                }
            }
            // An Android lane ends at its onDestroy (a ViewModel's at its onCleared, or a finalize), which frees nothing
            // (docs/lifecycle.md#android-evidence).
            if let d = i.dealloc, frame.inWindow(d) {
                let word = !i.dialect.isAndroid ? "deallocated" : i.kind == .object ? "ended" : "destroyed"
                facts.append("\(word) at line \(d.line)")
                // A ViewModel's finalize after its onCleared: its release.
                if i.dialect.isAndroid, let f = i.lastFinalize, f.line > d.line, frame.inWindow(f) {
                    facts.append("released (finalize) at line \(f.line)")
                }
            }
            if facts.isEmpty { continue }
            try put(clip(indent + Self.safe(i.controller.display) + ": " + facts.joined(separator: ", ")) + "\n")
        }
        for m in marks.all {
            let f = m.finding
            let known = input.isBaselined(f) ? " (baselined)" : ""
            try put(paint(clip(indent + "! line \(f.line) \(f.severity.rawValue)\(known) \(f.rule): \(Self.safe(f.message))"), known.isEmpty ? .finding : .dim) + "\n")
        }
        return true
    }

    private func laneText(_ lane: SessionLayout.Lane, cells: Int) -> String {
        var rank = [Int](repeating: 0, count: cells)
        var glyph = [Character](repeating: " ", count: cells)
        var kind = [Paint](repeating: .none, count: cells)
        func put(_ col: Int, _ r: Int, _ g: Character, _ p: Paint) {
            guard col >= 0, col < cells, r > rank[col] else { return }
            rank[col] = r
            glyph[col] = g
            kind[col] = p
        }
        lane.forEachSegment { seg in
            let a = Int(seg.x0.rounded(.down))
            let b = max(a + 1, Int(seg.x1.rounded(.up)))
            let r: Int
            let p: Paint
            switch seg.state {
            case .appearing, .disappearing: r = 4; p = .moving
            case .visible: r = 3; p = .state
            case .loaded, .hidden, .unknown: r = 2; p = .dim
            }
            for c in a..<min(b, cells) { put(c, r, Self.glyphs[seg.state]!, p) }
        }
        if let d = lane.dealloc { put(Int(d.rounded(.down)), 5, "X", .dealloc) }
        for m in lane.marks { put(Int(m.x.rounded(.down)), 6, "!", .finding) }
        // Runs of one paint are colored together.
        var out = ""
        var run = ""
        var runPaint = Paint.none
        let last = (glyph.lastIndex { $0 != " " } ?? -1) + 1
        for c in 0..<last {
            if kind[c] != runPaint && !run.isEmpty {
                out += paint(run, runPaint)
                run = ""
            }
            runPaint = kind[c]
            run.append(glyph[c])
        }
        out += paint(run, runPaint)
        return out
    }
}

extension TimelineTextRenderer {
    /// A row of cells as text, without its trailing spaces (cut from the cells: removing them one
    /// by one from the string measured each character again).
    static func trimmed(_ cells: [Character]) -> String {
        var end = cells.count
        while end > 0, cells[end - 1] == " " { end -= 1 }
        return String(cells[..<end])
    }
}
