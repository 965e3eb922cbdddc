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

    /// The timeline written as it is drawn, a session at a time: the text never exists whole.
    /// Every piece ends a line, so each is made inert on its own (`TerminalText.text` works by line).
    public func write(_ inputs: [TimelineInput], to out: ReportWriter) throws(ReportWriteError) {
        func put(_ s: String) throws(ReportWriteError) { try out.write(TerminalText.text(s)) }
        for input in inputs {
            try put(clip(Self.safe(input.path)) + "\n")
            var any = false
            for s in input.timeline.sessions {
                guard let text = session(s, input: input, findings: input.placedFindings(inSession: s.id)) else { continue }
                try put(text)
                any = true
            }
            try put((any ? "" : "  no lifecycle events" + (window.isEverything ? "" : " in the window") + "\n") + "\n")
        }
        let axisNote = axis == .time ? "axis: time (sessions without timestamps: one column per event)" : "axis: one step per event, in log order"
        try put(clip(Self.legend) + "\n" + clip(axisNote) + "\n")
    }

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

    private func session(_ s: RecordedSession, input: TimelineInput, findings: [(Finding, Int, TimelineInput.Placement)]) -> String? {
        let labels = s.instances.map { Self.safe($0.laneLabel) } + ["(session)", "transitions"]
        let labelWidth = min(labels.map(Self.characters).max() ?? 10, max(12, width / 3))
        let cells = width - labelWidth - 3
        guard let layout = SessionLayout(s, input: input, findings: findings, axis: axis, width: Double(cells), maxStep: 3, window: window) else {
            return nil
        }
        var out = ""
        // Header.
        var head = "session \(s.id): \(s.process.isEmpty ? "(no process)" : Self.safe(s.process))"
        if let pid = s.pid { head += " [\(pid)]" }
        let views = s.instances.count { $0.kind == .view }, objects = s.instances.count { $0.kind == .object }
        let controllers = s.instances.count - views - objects
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
        out += clip(head) + "\n"

        let indent = "  "
        // Transition labels: each at its first column, cut where the next begins.
        var row = [Character](repeating: " ", count: cells)
        let starts = layout.transitions.map { Int($0.x0.rounded(.down)) }
        for (k, p) in layout.transitions.enumerated() {
            let col = min(max(0, starts[k]), cells - 1)
            let next = k + 1 < starts.count ? max(col + 1, starts[k + 1]) : cells
            let room = min(next, cells) - col
            var label = "T\(p.transition.id) \(p.transition.kind.viewName)"
            if label.count >= room { label = room > 2 ? "T\(p.transition.id)" : "|" }
            if label.count >= room && room > 1 { label = "|" }
            for (j, ch) in label.prefix(max(1, room - (room > 1 ? 1 : 0))).enumerated() where col + j < cells { row[col + j] = ch }
        }
        if !layout.transitions.isEmpty {
            out += indent + pad("transitions", labelWidth) + " " + paint(Self.trimmed(row), .label) + "\n"
        }
        // Lanes.
        for lane in layout.lanes {
            out += indent + pad(Self.safe(lane.label), labelWidth) + " " + laneText(lane, cells: cells) + "\n"
        }
        // Ruler: line numbers (or seconds on the time axis) where they fit.
        var ruler = [Character](repeating: " ", count: cells)
        var free = 0
        for step in layout.steps {
            let col = Int(step.x.rounded(.down))
            guard col >= free, col < cells else { continue }
            let text: String
            if layout.axis == .time {
                text = "+" + DecimalText.oneDecimal(layout.seconds(step.stamp)) + "s"
            } else {
                text = String(step.stamp.line)
            }
            guard col + text.count <= cells else { continue }
            for (j, ch) in text.enumerated() { ruler[col + j] = ch }
            free = col + text.count + 1
        }
        out += indent + pad(layout.axis == .time ? "time" : "line", labelWidth) + " " + Self.trimmed(ruler) + "\n"
        // Transitions and findings as text.
        for p in layout.transitions {
            let t = p.transition
            let lines = t.start.line == t.end.line ? "line \(t.start.line)" : "lines \(t.start.line)-\(t.end.line)"
            out += clip(indent + "T\(t.id) \(t.kind.viewName): \(lines): \(Self.safe(t.summary))") + "\n"
        }
        for lane in layout.lanes {
            guard let i = lane.instance else { continue }
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
            if let d = i.dealloc, layout.inWindow(d) {
                let word = !i.dialect.isAndroid ? "deallocated" : i.kind == .object ? "ended" : "destroyed"
                facts.append("\(word) at line \(d.line)")
                // A ViewModel's finalize after its onCleared: its release.
                if i.dialect.isAndroid, let f = i.callbacks.last(where: { $0.kind == .finalize }), f.stamp.line > d.line, layout.inWindow(f.stamp) {
                    facts.append("released (finalize) at line \(f.stamp.line)")
                }
            }
            if facts.isEmpty { continue }
            out += clip(indent + Self.safe(i.controller.display) + ": " + facts.joined(separator: ", ")) + "\n"
        }
        for m in layout.lanes.flatMap(\.marks).sorted(by: { ($0.finding.line, $0.index) < ($1.finding.line, $1.index) }) {
            do {
                let f = m.finding
                let known = input.isBaselined(f) ? " (baselined)" : ""
                out += paint(clip(indent + "! line \(f.line) \(f.severity.rawValue)\(known) \(f.rule): \(Self.safe(f.message))"), known.isEmpty ? .finding : .dim) + "\n"
            }
        }
        return out
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
        for seg in lane.segments {
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
