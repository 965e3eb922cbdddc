/// One session of the HTML report drawn as SVG swimlanes and a table of its transitions, in one of two ways that
/// give the same bytes:
///
/// - `parts()` holds the drawing in pieces and hands them back in order: a thread draws it beside the others, and
///   the page writes it when its turn comes.
/// - `write(_:)` writes it as it is drawn, holding none of it: a session of hundreds of thousands of controllers
///   draws up to `HTMLReport.maxSessionBytes` (32 MB of text, 47 MB of heap as pieces). The picture's height
///   and its transition bands come before the lanes, and both follow from what the lanes draw, so this way draws
///   each lane twice (measured first, written then) and each transition three times (measured, its band written,
///   its table row written after the picture).
///
/// Each pass is a function of the session alone, so the counts the passes see are the same, and so are the bytes.
struct SessionDrawing {
    let session: SessionPieces
    let input: TimelineInput
    let fileIndex: Int
    let frame: SessionFrame
    let marks: SessionMarks
    /// The drawing's budget (`HTMLReport.sessionBytes`).
    let budget: Int

    static let labelW = 220.0, laneW = 840.0, rowH = 20.0, top = 22.0
    static let total = labelW + laneW + 10

    private static let h = HTMLText.escape
    private static func f(_ v: Double) -> String { DecimalText.oneDecimal(v) }

    /// nil: the session has nothing to draw.
    init?(_ s: SessionPieces, input: TimelineInput, fileIndex: Int, findings: [(Finding, Int, TimelineInput.Placement)], budget: Int) {
        guard let frame = SessionFrame(s, timeBase: input.timeBase, axis: .events, width: Self.laneW, maxStep: 26, window: TimelineWindow()) else {
            return nil
        }
        session = s
        self.input = input
        self.fileIndex = fileIndex
        self.frame = frame
        marks = frame.marks(findings)
        self.budget = budget
    }

    /// An upper bound, roughly, of the bytes a session's drawing takes (a lane's row, a state, a transition's band,
    /// label and row), from its counts alone: what decides whether it is drawn as it is written, and how many sessions
    /// a batch draws at once.
    static func estimatedBytes(instances: Int, events: Int, transitions: Int) -> Int {
        min(HTMLReport.maxSessionBytes, 300 * (instances + events) + 400 * transitions)
    }

    /// The estimate of session `k` (0-based) of `sessions`, read from its counts without making its pieces.
    static func estimatedBytes(_ sessions: RecordedSessions, at k: Int) -> Int {
        if let c = sessions.compact {
            let s = c.sessions[k]
            return estimatedBytes(instances: s.instances.count, events: s.events, transitions: Int(s.transitionCount))
        }
        let s = sessions[k]
        return estimatedBytes(instances: s.instances.count, events: s.eventCount, transitions: s.transitions.count)
    }

    /// What the lanes drew.
    struct LaneTally {
        var drawn = 0, bytes = 0
        var moreLanes = 0, moreStates = 0, moreMarks = 0
    }

    /// The lanes, each text handed to `emit`. The lanes take up to half the budget; the transitions what is left of
    /// it. A lane begun under half is drawn up to the whole budget: one long-lived controller of a long run has
    /// hundreds of thousands of states, which alone drew a page of 162 MB.
    func lanes(_ emit: (String) -> Void) -> LaneTally {
        typealias D = SessionDrawing
        var t = LaneTally()
        func put(_ s: String) {
            t.bytes += s.utf8.count
            emit(s)
        }
        marks.forEachLane(frame) { _, lane in
            guard t.bytes < budget / 2 else { return t.moreLanes += 1 }
            let y = D.top + Double(t.drawn) * D.rowH
            t.drawn += 1
            put("<line class=\"grid\" x1=\"0\" y1=\"\(D.f(y + D.rowH - 1))\" x2=\"\(D.f(D.total))\" y2=\"\(D.f(y + D.rowH - 1))\"/>\n")
            let label = lane.label.count > 32 ? String(lane.label.prefix(31)) + "…" : lane.label
            put("<text x=\"4\" y=\"\(D.f(y + 13))\">\(D.h(label))<title>\(D.h(lane.controller?.display ?? lane.label))</title></text>\n")
            lane.forEachSegment { seg in
                guard t.bytes < budget else { return t.moreStates += 1 }
                let w = max(1, seg.x1 - seg.x0)
                let hgt = seg.state == .visible ? 12.0 : 8.0
                put("<rect class=\"s-\(seg.state.rawValue)\" x=\"\(D.f(D.labelW + seg.x0))\" y=\"\(D.f(y + (D.rowH - hgt) / 2 - 1))\" width=\"\(D.f(w))\" height=\"\(D.f(hgt))\"><title>\(D.h(seg.state.rawValue))</title></rect>\n")
            }
            if let d = lane.dealloc {
                let x = D.labelW + d + 2, yc = y + D.rowH / 2 - 1
                put("<g><title>deallocated</title><line class=\"dealloc\" x1=\"\(D.f(x - 4))\" y1=\"\(D.f(yc - 4))\" x2=\"\(D.f(x + 4))\" y2=\"\(D.f(yc + 4))\"/><line class=\"dealloc\" x1=\"\(D.f(x + 4))\" y1=\"\(D.f(yc - 4))\" x2=\"\(D.f(x - 4))\" y2=\"\(D.f(yc + 4))\"/></g>\n")
            }
            for m in lane.marks {
                guard t.bytes < budget else {
                    t.moreMarks += 1
                    continue
                }
                let fnd = m.finding
                put("<a href=\"#\(HTMLReport.anchor(fileIndex, m.index))\"><circle class=\"finding finding-\(fnd.severity.rawValue)\(input.isBaselined(fnd) ? " baselined" : "")\" cx=\"\(D.f(D.labelW + m.x + 3))\" cy=\"\(D.f(y + D.rowH / 2 - 1))\" r=\"5\"><title>\(D.h("line \(fnd.line) \(fnd.rule): \(fnd.message)"))</title></circle></a>\n")
            }
        }
        return t
    }

    /// The session's heading and the picture's opening tag, whose height follows the lanes drawn.
    func head(_ lanes: LaneTally) -> String {
        typealias D = SessionDrawing
        let s = session
        var head = "Session \(s.id): \(s.process.isEmpty ? "(no process)" : s.process)"
        if let pid = s.pid { head += " [\(pid)]" }
        head += ", lines \(s.firstEvent.line)–\(s.lastEvent.line)"
        if let a = s.firstEvent.time { head += ", from \(a.iso)" }
        let height = D.top + Double(lanes.drawn) * D.rowH + 22
        return "<p><strong>\(D.h(head))</strong></p>\n"
            + "<svg class=\"lanes\" width=\"\(Int(D.total))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(D.total)) \(Int(height))\" role=\"img\" aria-label=\"\(D.h("swimlanes of session \(s.id)"))\">\n"
    }

    /// What the transitions drew.
    struct TransitionTally {
        var drawn = 0, more = 0
    }

    /// The transitions: each one's band and label over the lanes to `band`, its row of the table below to `row`. They
    /// take what the budget has left after the lanes and the head (`used`).
    func transitions(after used: Int, lanes: LaneTally, band: (String) -> Void, row: (String) -> Void) -> TransitionTally {
        typealias D = SessionDrawing
        var t = TransitionTally()
        var bytes = used
        var free = 0.0
        frame.forEachTransition { n, id, kind, x0, x1 in
            guard bytes < budget else { return t.more += 1 }
            t.drawn += 1
            let tr = session.transition(n)
            let left = D.labelW + x0, right = D.labelW + max(x1, x0 + 2)
            let rect = "<rect class=\"band\" x=\"\(D.f(left))\" y=\"\(D.f(D.top - 4))\" width=\"\(D.f(right - left))\" height=\"\(D.f(Double(lanes.drawn) * D.rowH + 4))\"><title>\(D.h("T\(id) \(kind.viewName): \(tr.summary)"))</title></rect>\n"
            bytes += rect.utf8.count
            band(rect)
            let line = "<tr><td>T\(id)</td><td>\(D.h(kind.viewName))</td><td>\(tr.start.line)–\(tr.end.line)</td><td>\(D.h(tr.summary))</td></tr>\n"
            bytes += line.utf8.count
            row(line)
            var label = "T\(id) \(kind.viewName)"
            if left < free { return }
            let room = D.laneW + D.labelW - left
            if Double(label.count) * 6.6 > room { label = "T\(id)" }
            let text = "<text class=\"t\" x=\"\(D.f(left))\" y=\"13\">\(D.h(label))</text>\n"
            bytes += text.utf8.count
            band(text)
            free = left + Double(label.count) * 6.6 + 6
        }
        return t
    }

    /// The ruler of line numbers, the picture's end, what was not drawn, and the table's opening if it has rows.
    func middle(_ lanes: LaneTally, _ transitions: TransitionTally) -> String {
        typealias D = SessionDrawing
        var out = ""
        var nextFree = 0.0
        let ry = D.top + Double(lanes.drawn) * D.rowH + 14
        frame.forEachStep { stamp, x in
            let x = D.labelW + x
            let text = String(stamp.line)
            guard x >= nextFree else { return }
            out += "<text class=\"muted\" x=\"\(D.f(x))\" y=\"\(D.f(ry))\">\(text)</text>\n"
            nextFree = x + Double(text.count) * 6.6 + 10
        }
        out += "</svg>\n"
        if lanes.moreLanes > 0 || transitions.more > 0 || lanes.moreStates > 0 || lanes.moreMarks > 0 {
            let more = [lanes.moreLanes > 0 ? LeakReport.plural(lanes.moreLanes, "more lane") : nil,
                        lanes.moreStates > 0 ? LeakReport.plural(lanes.moreStates, "more state") : nil,
                        lanes.moreMarks > 0 ? LeakReport.plural(lanes.moreMarks, "more finding mark") : nil,
                        transitions.more > 0 ? LeakReport.plural(transitions.more, "more transition") : nil].compactMap { $0 }
            out += "<p class=\"more\"><strong>\(ListWording.spoken(more, "and")) of this session not drawn here</strong>: the page draws "
                + "each session up to \(budget >> 20) MB; <code>vclint timeline PATH</code> prints every one.</p>\n"
        }
        if transitions.drawn > 0 {
            out += "<table><thead><tr><th>transition</th><th>kind</th><th>lines</th><th>members (left → came)</th></tr></thead><tbody>\n"
        }
        return out
    }

    static let tableEnd = "</tbody></table>\n"

    /// The drawing held in pieces (each under 1 MiB), in the order they are written.
    func parts() -> [String] {
        var lanePieces = PiecewiseText()
        let l = lanes { lanePieces += $0 }
        var bands = PiecewiseText()
        bands += head(l)
        var table = PiecewiseText()
        let t = transitions(after: l.bytes + bands.byteCount, lanes: l, band: { bands += $0 }, row: { table += $0 })
        let middle = middle(l, t)
        guard t.drawn > 0 else { return bands.pieces + lanePieces.pieces + [middle] }
        return bands.pieces + lanePieces.pieces + [middle] + table.pieces + [Self.tableEnd]
    }

    /// The drawing written as it is drawn (the same bytes as `parts()`); the bytes written.
    func write(to out: ReportWriter) throws(ReportWriteError) -> Int {
        var failure: ReportWriteError?
        var written = 0
        func put(_ s: String) {
            guard failure == nil else { return }
            written += s.utf8.count
            do throws(ReportWriteError) { try out.write(s) } catch { failure = error }
        }
        func measure(_: String) {}
        let l = lanes(measure)
        let head = head(l)
        let used = l.bytes + head.utf8.count
        put(head)
        let t = transitions(after: used, lanes: l, band: put, row: measure)
        _ = lanes(put)
        put(middle(l, t))
        if t.drawn > 0 {
            _ = transitions(after: used, lanes: l, band: measure, row: put)
            put(Self.tableEnd)
        }
        if let failure { throw failure }
        return written
    }
}
