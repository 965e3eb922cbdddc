import Foundation

/// What the timeline views share: where a finding belongs, the clock of a session (microseconds for
/// the trace, the time axis), the zoom window and the swimlane layout the text and SVG renderers draw.

/// One input as the views see it: its stats, findings and recorded timeline.
///
/// Everything a view asks per finding or per session is computed here once, in one pass over the
/// sessions and one over the findings: where each finding is drawn, the findings of each session,
/// the clock's origin. A view then does work per session that follows that session's size, never
/// the input's (a capture of one process id per line is a session per line).
public struct TimelineInput: Sendable {
    /// Where a finding is drawn: its session (1-based) and lane (an instance id, nil: the session's own row).
    public struct Placement: Sendable, Equatable {
        public var session: Int
        public var instance: Int?
    }

    public var path: String
    public var stats: InputStats
    /// Held as the rule engine left them (16 bytes a finding), worded when read.
    public var findings: FindingList
    /// The fingerprints a `--baseline` records: such findings are shown greyed, counted apart, and
    /// fail nothing (docs/visual.md#baselines).
    public var baselined: Set<String> = []

    /// Whether `f` is recorded in the baseline.
    public func isBaselined(_ f: Finding) -> Bool { !baselined.isEmpty && baselined.contains(f.fingerprint) }
    public var timeline: TimelineRecording
    /// The earliest time of any event, the origin of every session's clock.
    let timeBase: Double?
    /// `slots[i]`: where finding `i` is drawn, 8 bytes a finding (session 0: the input has no session).
    private let slots: [Slot]
    private struct Slot { var session: Int32; var instance: Int32 }
    /// The indices of the findings drawn in session `id`, in order, are
    /// `sessionFindings[sessionStart[id - 1]..<sessionStart[id]]`: two lists for the input, not one per session.
    private let sessionFindings: [Int]
    private let sessionStart: [Int]

    public init(path: String, stats: InputStats, findings: [Finding], timeline: TimelineRecording) {
        self.init(path: path, stats: stats, findings: FindingList(findings), timeline: timeline)
    }

    public init(path: String, stats: InputStats, findings: FindingList, timeline: TimelineRecording) {
        self.path = path
        self.stats = stats
        self.findings = findings
        self.timeline = timeline
        let sessions = timeline.sessions
        // Instance label → (session, instance id): labels are unique within an input. A UIKit
        // warning's line → its session (the first that has it).
        // Only the labels the findings name are kept: a run of 400k tests has 400k instances and few findings.
        var byLabel: [String: (session: Int, instance: Int)] = [:]
        var byWarning: [Int: Int] = [:]
        let named = Set(findings.lazy.map(\.controller.instance))
        if !named.isEmpty {
            sessions.forEachInstance { session, id, label in
                if byLabel[label] == nil, named.contains(label) { byLabel[label] = (session, id) }
            }
        }
        sessions.forEachWarning { session, line in
            if byWarning[line] == nil { byWarning[line] = session }
        }
        timeBase = sessions.earliestSeconds
        let firstID = sessions.isEmpty ? nil : sessions.id(at: 0)
        var placements = [Placement?](repeating: nil, count: findings.count)
        var spanned: [(line: Int, finding: Int)] = []
        for (k, f) in findings.enumerated() {
            if let known = byLabel[f.controller.instance] {
                placements[k] = Placement(session: known.session, instance: known.instance)
            } else if let s = byWarning[f.line] {
                placements[k] = Placement(session: s, instance: nil)
            } else if let first = firstID {
                placements[k] = Placement(session: first, instance: nil)
                spanned.append((f.line, k))
            }
        }
        // The others go to the first session (in session order) whose events span their line, if
        // any: one sweep over both sorted by line, the sessions begun so far in a heap by their order,
        // those that ended before the line dropped from its top (they end before every later line too).
        if !spanned.isEmpty {
            spanned.sort { $0.line < $1.line }
            let spans = sessions.indices.map { sessions.lineSpan($0) }
            let ids = sessions.indices.map { sessions.id(at: $0) }
            let starts = sessions.indices.sorted { spans[$0].first < spans[$1].first }
            var begun = MinHeap<Int, Int>()
            var next = 0
            for (line, k) in spanned {
                while next < starts.count, spans[starts[next]].first <= line {
                    begun.push(starts[next], spans[starts[next]].last)
                    next += 1
                }
                while let top = begun.min, top.value < line { begun.popMin() }
                if let top = begun.min { placements[k] = Placement(session: ids[top.key], instance: nil) }
            }
        }
        // Counted per session, then placed in finding order.
        var start = [Int](repeating: 0, count: sessions.count + 1)
        for p in placements { if let p, p.session >= 1, p.session <= sessions.count { start[p.session] += 1 } }
        for k in 0..<sessions.count { start[k + 1] += start[k] }
        var fill = start
        var byFinding = [Int](repeating: 0, count: start[sessions.count])
        for (k, p) in placements.enumerated() {
            if let p, p.session >= 1, p.session <= sessions.count {
                byFinding[fill[p.session - 1]] = k
                fill[p.session - 1] += 1
            }
        }
        slots = placements.map { p in Slot(session: Int32(p?.session ?? 0), instance: Int32(p?.instance ?? 0)) }
        sessionFindings = byFinding
        sessionStart = start
    }

    /// The inputs of a run made with `TimelineOptions.recordTimeline`.
    /// `baselined`: the fingerprints of a `--baseline` (`baselined`).
    public static func from(_ result: LintResult, baselined: Set<String> = []) -> [TimelineInput] {
        result.files.map { f in
            var input = TimelineInput(path: f.stats.path, stats: f.stats, findings: f.findings,
                                      timeline: f.timeline ?? TimelineRecording(sessions: [], leaks: [], unjudgedClasses: []))
            input.baselined = baselined
            return input
        }
    }

    /// The session and lane finding `index` is drawn on: on its controller's lane, else on the row
    /// of the session that logged the UIKit warning at its line, else of the first session whose
    /// events span its line, else of the first session; nil when the input has no session.
    public func placement(of index: Int) -> Placement? {
        let slot = slots[index]
        guard slot.session > 0 else { return nil }
        return Placement(session: Int(slot.session), instance: slot.instance > 0 ? Int(slot.instance) : nil)
    }

    /// The findings drawn in session `id` (indices into `findings`), in order.
    public func findings(inSession id: Int) -> [Int] {
        id >= 1 && id < sessionStart.count ? Array(sessionFindings[sessionStart[id - 1]..<sessionStart[id]]) : []
    }

    /// The findings drawn in session `id`, worded, with their index and placement.
    func placedFindings(inSession id: Int) -> [(Finding, Int, Placement)] {
        findings(inSession: id).compactMap { k in placement(of: k).map { (findings[k], k, $0) } }
    }
}

/// Microseconds for every event of a session: from the log's time (made monotonic, clocks go
/// backwards) relative to the input's first time, or one millisecond per event without times.
struct SessionClock {
    /// The session's events, in order, and the microseconds of each.
    private let events: SessionEvents
    private var values: [Int64] = []
    let start: Int64
    /// The session's last event, or its last time seen (noise lines extend a session).
    let end: Int64
    let timed: Bool

    /// `events`: the session's, in order (`SessionPieces.events`).
    init(events: SessionEvents, hasTimes: Bool, endTime: LogTime?, base: Double?) {
        self.events = events
        timed = hasTimes && base != nil
        func fromTime(_ t: LogTime) -> Int64 { Int64(((t.seconds - (base ?? 0)) * 1_000_000).rounded()) }
        var prev: Int64 = 0
        var first: Int64?
        if timed {
            for k in 0..<events.count { if let t0 = events[k].time { prev = fromTime(t0); break } }
        }
        values.reserveCapacity(events.count)
        for k in 0..<events.count {
            let v: Int64
            if timed {
                v = max(prev, events[k].time.map(fromTime) ?? prev)
            } else {
                v = Int64(events.order(k)) * 1000
            }
            values.append(v)
            prev = v
            if first == nil { first = v }
        }
        start = first ?? 0
        var last = prev
        if timed, let e = endTime { last = max(last, fromTime(e)) } else if !timed { last = prev + 1000 }
        end = last
    }

    func micros(_ st: TimelineStamp) -> Int64 {
        guard let k = events.position(ofOrder: st.order) else { return start }
        return values[k]
    }
}

/// `--from`/`--to`: a line number or a time of day (`17:30:30.5`, optionally with its date).
public enum TimelineBound: Sendable, Equatable {
    case line(Int)
    /// Seconds since midnight; with a date (year, month, day) when one was given.
    case time(secondsOfDay: Double, date: [Int]?)

    public static func parse(_ text: String) -> TimelineBound? {
        let s = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(s), n >= 1 { return .line(n) }
        var rest = Substring(s)
        var date: [Int]?
        if rest.count >= 10, rest.dropFirst(4).first == "-" {
            guard let d = Self.date(rest.prefix(10)), dateProblem(d) == nil else { return nil }
            date = d
            rest = rest.dropFirst(10)
            if let c = rest.first, c == "T" || c == " " { rest = rest.dropFirst() } else if !rest.isEmpty { return nil }
            if rest.isEmpty { return .time(secondsOfDay: 0, date: date) }
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1].prefix(2)),
              (0..<24).contains(h), (0..<60).contains(m), parts[1].count == 2 else { return nil }
        var secs = Double(h * 3600 + m * 60)
        if parts.count == 3 {
            guard let sec = Double(parts[2]), sec >= 0, sec < 61, parts[2].first?.isNumber == true else { return nil }
            secs += sec
        }
        return .time(secondsOfDay: secs, date: date)
    }

    /// `YYYY-MM-DD` as year, month and day, whether or not such a day exists; nil when not in that shape.
    private static func date(_ text: Substring) -> [Int]? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2],
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return parts.map { Int($0)! }
    }

    /// Why a year, month and day name no day of the calendar (`2017-13-45`), nil when they do.
    private static func dateProblem(_ d: [Int]) -> String? {
        let (year, month, day) = (d[0], d[1], d[2])
        guard (1...12).contains(month) else { return "there is no month \(month)" }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return "\(String(format: "%04d-%02d", year, month)) has no day \(day)" }
        return nil
    }

    /// Why `text`, which starts with a date, is not a bound (`there is no month 13`); nil when it
    /// does not start with one in the `YYYY-MM-DD` shape or its date exists.
    public static func invalidDate(_ text: String) -> String? {
        let s = text.trimmingCharacters(in: .whitespaces)
        guard s.utf8.count >= 10, let d = date(Substring(s).prefix(10)) else { return nil }
        return dateProblem(d)
    }

    /// A zoom that can show nothing: both bounds line numbers, or both times of day (with dates
    /// alike), and the first after the second. A line and a time cannot be compared.
    public static func isReversed(from: TimelineBound, to: TimelineBound) -> Bool {
        switch (from, to) {
        case let (.line(a), .line(b)): return a > b
        case let (.time(a, da), .time(b, db)):
            switch (da, db) {
            case let (x?, y?): return x != y ? x.lexicographicallyPrecedes(y) == false : a > b
            case (nil, nil): return a > b
            default: return false
            }
        default: return false
        }
    }

    /// Negative: the stamp is before the bound; nil when the stamp cannot be compared (no time).
    func compare(_ st: TimelineStamp) -> Int? {
        switch self {
        case .line(let n): return st.line < n ? -1 : st.line > n ? 1 : 0
        case .time(let bound, let date):
            guard let t = st.time else { return nil }
            if let date, t.year != 0 {
                let mine = [Int(t.year), Int(t.month), Int(t.day)]
                if mine != date { return mine.lexicographicallyPrecedes(date) ? -1 : 1 }
            }
            var tod = Double(Int(t.hour) * 3600 + Int(t.minute) * 60 + Int(t.second))
            if t.fractionDigits > 0 {
                var scale = 1.0
                for _ in 0..<t.fractionDigits { scale *= 10 }
                tod += Double(t.fraction) / scale
            }
            return tod < bound ? -1 : tod > bound ? 1 : 0
        }
    }
}

/// Which events of a session a view shows.
public struct TimelineWindow: Sendable, Equatable {
    public var from: TimelineBound?
    public var to: TimelineBound?

    public init(from: TimelineBound? = nil, to: TimelineBound? = nil) {
        self.from = from
        self.to = to
    }

    /// Events without a time are not filtered by a time bound.
    func contains(_ st: TimelineStamp) -> Bool {
        if let from, let c = from.compare(st), c < 0 { return false }
        if let to, let c = to.compare(st), c > 0 { return false }
        return true
    }

    var isEverything: Bool { from == nil && to == nil }
}

/// Left to right: one step per event (the default: sub-millisecond transitions and minutes of idle
/// time both stay readable), or proportional to the log's time.
public enum TimelineAxis: String, Sendable, CaseIterable {
    case events, time
}

/// Where a session's events fall on `width` units (columns or pixels), and each lane laid out on
/// them one at a time: a view draws a session a lane at a time and holds only its events' order
/// (4 bytes an event from a recorder's store), never every instance at once.
struct SessionFrame {
    let session: SessionPieces
    let axis: TimelineAxis
    let width: Double
    private(set) var xEnd: Double = 0
    /// Every event of the session, and those in the window (the steps of the ruler), in order.
    let events: SessionEvents
    let shown: SessionEvents
    private var firstOrder = 0, lastOrder = 0
    /// Built on the time axis only.
    private let clock: SessionClock?
    private var t0: Int64 = 0, t1: Int64 = 0
    /// Units per event on the events axis.
    private var scale = 1.0

    /// nil when nothing of the session is in the window.
    init?(_ s: SessionPieces, timeBase: Double?, axis requested: TimelineAxis, width: Double, maxStep: Double, window: TimelineWindow) {
        session = s
        let all = s.events()
        events = all
        axis = requested == .time && s.hasTimes && timeBase != nil ? .time : .events
        clock = axis == .time ? SessionClock(events: all, hasTimes: s.hasTimes, endTime: s.endTime, base: timeBase) : nil
        self.width = width
        shown = window.isEverything ? all : all.filter { window.contains($0) }
        guard shown.count > 0 else { return nil }
        let first = shown[0], last = shown[shown.count - 1]
        firstOrder = first.order
        lastOrder = last.order
        scale = min(maxStep, width / Double(shown.count))
        if let clock {
            t0 = clock.micros(first)
            t1 = window.to == nil ? clock.end : clock.micros(last)
        }
        xEnd = axis == .events ? Double(shown.count) * scale : width
    }

    func inWindow(_ st: TimelineStamp) -> Bool { st.order >= firstOrder && st.order <= lastOrder }

    /// Where a stamp falls (clamped to the window).
    func x(_ st: TimelineStamp) -> Double {
        if st.order < firstOrder { return 0 }
        if st.order > lastOrder { return xEnd }
        guard let clock else { return Double(shown.position(ofOrder: st.order) ?? 0) * scale }
        let m = clock.micros(st)
        guard t1 > t0 else { return 0 }
        return min(width - 1, Double(m - t0) / Double(t1 - t0) * (width - 1))
    }

    /// Seconds from the session's first shown event (time axis labels).
    func seconds(_ st: TimelineStamp) -> Double { Double((clock?.micros(st) ?? 0) - t0) / 1_000_000 }

    /// Instance `k`'s lane: its dealloc in the window and whether it has a state segment there, without marks; its
    /// segments are read one at a time when it is drawn (`SessionLayout.Lane.forEachSegment`).
    func lane(_ k: Int) -> SessionLayout.Lane {
        let inst = session.lanePieces(k)
        var lane = SessionLayout.Lane(id: inst.id, controller: inst.controller,
                                      label: RecordedInstance.laneLabel(instance: inst.controller.instance, kind: inst.kind))
        lane.segmentSource = (self, k)
        // Whether any: the first one found ends the walk.
        struct Found: Error {}
        do throws(Found) { try forEachSegment(k) { _ throws(Found) in throw Found() } } catch { lane.hasSegments = true }
        if let d = inst.dealloc, inWindow(d) { lane.dealloc = x(d) }
        return lane
    }

    /// Instance `k`'s state segments in the window, in order, one at a time.
    func forEachSegment<E: Error>(_ k: Int, _ body: (SessionLayout.Segment) throws(E) -> Void) throws(E) {
        try session.forEachInterval(k) { (iv: StateInterval) throws(E) in
            let a = x(iv.start)
            let b = iv.openAtEnd ? (iv.end.order >= lastOrder ? xEnd : x(iv.end)) : x(iv.end)
            if b > a || (b == a && inWindow(iv.start) && axis == .time) { try body(.init(state: iv.state, x0: a, x1: max(a, b))) }
        }
    }

    /// Transitions in the window, in order: their positions among the session's and x.
    func forEachTransition<E: Error>(_ body: (_ n: Int, _ id: Int, _ kind: TransitionKind, _ x0: Double, _ x1: Double) throws(E) -> Void) throws(E) {
        for n in 0..<session.transitionCount {
            let t = session.transitionSpan(n)
            if inWindow(t.start) || inWindow(t.end) { try body(n, t.id, t.kind, x(t.start), x(t.end)) }
        }
    }

    /// The steps of the ruler in order: each event in the window and its x (on the events axis, an
    /// event's place among those shown, the first of its order).
    func forEachStep<E: Error>(_ body: (_ stamp: TimelineStamp, _ x: Double) throws(E) -> Void) throws(E) {
        var place = 0, previous = Int.min
        for k in 0..<shown.count {
            let st = shown[k]
            if clock != nil { try body(st, x(st)); continue }
            if st.order != previous { place = k }
            previous = st.order
            try body(st, Double(place) * scale)
        }
    }

    /// The findings of the session marked where they fall: by the instance id whose lane they go on
    /// (in the order of the findings), and the others, on the session's own row.
    /// `findings`: the session's own (`TimelineInput.findings(inSession:)`), each with its index among
    /// the input's findings and its placement.
    func marks(_ findings: [(Finding, Int, TimelineInput.Placement)]) -> SessionMarks {
        var marks = SessionMarks()
        for (f, index, p) in findings {
            guard let st = events.last(atOrBeforeLine: f.line), inWindow(st) else { continue }
            let mark = SessionLayout.Mark(x: x(st), finding: f, index: index)
            guard p.session == session.id else { continue }
            if let id = p.instance {
                if marks.byInstance[id] == nil { marks.instances.append(id) }
                marks.byInstance[id, default: []].append(mark)
            } else {
                marks.sessionRow.append(mark)
            }
        }
        return marks
    }
}

/// A session's findings as marks (`SessionFrame.marks`).
struct SessionMarks {
    /// The marks of each instance id, and those ids in the order of their first finding.
    var byInstance: [Int: [SessionLayout.Mark]] = [:]
    var instances: [Int] = []
    /// Findings of no instance of the session.
    var sessionRow: [SessionLayout.Mark] = []

    /// The lanes of a session in the order they are drawn: each instance with something in the window,
    /// in the session's order, with its marks; then each instance with only marks there, in the order of
    /// its first finding; then the session's own row, when a finding is on it. `body` is called with the
    /// position of each lane's instance in the session (nil: the session's row).
    func forEachLane<E: Error>(_ frame: SessionFrame, _ body: (_ position: Int?, _ lane: SessionLayout.Lane) throws(E) -> Void) throws(E) {
        let s = frame.session
        var drawn = Set<Int>()
        for k in 0..<s.instanceCount {
            var lane = frame.lane(k)
            guard lane.hasSegments || lane.dealloc != nil else { continue }
            if let id = lane.id, let m = byInstance[id] {
                lane.marks = m
                drawn.insert(id)
            }
            try body(k, lane)
        }
        var row = sessionRow
        for id in instances where !drawn.contains(id) {
            guard let k = s.position(ofInstance: id) else {
                row.append(contentsOf: byInstance[id]!)
                continue
            }
            // Its lane was empty in the window (e.g. a callback long after its dealloc): its marks alone.
            let f = s.facts(k)
            try body(k, SessionLayout.Lane(id: id, controller: f.controller, label: s.laneLabel(k), marks: byInstance[id]!))
        }
        if !row.isEmpty {
            // In the order of the findings, as they came.
            try body(nil, SessionLayout.Lane(id: nil, controller: nil, label: "(session)", marks: row.sorted { $0.index < $1.index }))
        }
    }

    /// Every mark, by line and then by the finding's order.
    var all: [SessionLayout.Mark] {
        (byInstance.values.flatMap { $0 } + sessionRow).sorted { ($0.finding.line, $0.index) < ($1.finding.line, $1.index) }
    }
}

/// What a lane is drawn from (`SessionFrame.lane`, `SessionMarks.forEachLane`): its state segments, its
/// dealloc and its findings, in units of the frame's width (columns or pixels).
enum SessionLayout {
    struct Segment { var state: LaneState; var x0: Double; var x1: Double }
    struct Mark { var x: Double; var finding: Finding; var index: Int }
    struct Lane {
        /// Its instance's id and controller; nil for the session's own row.
        var id: Int?
        var controller: ControllerRef?
        var label: String
        /// Where its state segments are read from, one at a time (`SessionFrame.forEachSegment`): a root
        /// controller of a long run has hundreds of thousands of them. nil: none.
        var segmentSource: (frame: SessionFrame, instance: Int)?
        /// Whether it has a segment in the window.
        var hasSegments = false
        var dealloc: Double?
        var marks: [Mark] = []

        func forEachSegment<E: Error>(_ body: (Segment) throws(E) -> Void) throws(E) {
            guard hasSegments, let (frame, k) = segmentSource else { return }
            try frame.forEachSegment(k, body)
        }
    }
}

extension RecordedInstance {
    /// Its lane's label: the instance (`HomeViewController#1`), and what it is when it is not a
    /// controller (`DetailViewModel#1 (object)`, `HomeView#1 (view)`).
    public var laneLabel: String { Self.laneLabel(instance: controller.instance, kind: kind) }

    static func laneLabel(instance: String, kind: LaneKind) -> String {
        kind == .controller ? instance : "\(instance) (\(kind.rawValue))"
    }
}

extension RecordedTransition {
    /// `A#1 → B#1`: who left (as announced) and who came.
    public var summary: String {
        let out = members.filter { $0.direction == .disappear }.map(\.label)
        let came = members.filter { $0.direction == .appear }.map(\.label)
        var s = (out.isEmpty ? "(none)" : out.joined(separator: ", ")) + " → " + (came.isEmpty ? "(none)" : came.joined(separator: ", "))
        if kind == .cancelledSwipeBack || kind == .cancelled { s += ", taken back" }
        return s
    }
}

extension RemovalKind {
    /// How the leak report names it (docs/lifecycle.md#evidence-of-removal: markers and parent moves are
    /// evidence, the rest is inferred from the transitions).
    public var reportName: String {
        switch self {
        case .dismissed: return "dismiss"
        case .removedFromParent: return "removed from parent"
        case .popped: return "pop/dismiss (inferred)"
        case .poppedWithTop: return "with the controller above (inferred)"
        case .closed: return "sheet/child closed (inferred)"
        case .ownerDeallocated: return "owner deallocated"
        case .retainedInHeap: return "end of use, proven by a heap dump"
        }
    }
}
