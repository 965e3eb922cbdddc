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
        var byLabel: [String: (session: Int, instance: Int)] = [:]
        var byWarning: [Int: Int] = [:]
        sessions.forEachInstance { session, id, label in
            if byLabel[label] == nil { byLabel[label] = (session, id) }
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
    /// The session's event orders, ascending, and the microseconds of each.
    private var orders: [Int] = []
    private var values: [Int64] = []
    let start: Int64
    /// The session's last event, or its last time seen (noise lines extend a session).
    let end: Int64
    let timed: Bool

    init(_ s: RecordedSession, base: Double?) {
        self.init(s, sorted: Self.stamps(s), base: base)
    }

    /// Every event of the session (its warnings and its instances' callbacks), in order.
    static func stamps(_ s: RecordedSession) -> [TimelineStamp] {
        var stamps: [TimelineStamp] = s.warnings.map(\.stamp)
        for i in s.instances { stamps.append(contentsOf: i.callbacks.map(\.stamp)) }
        stamps.sort { $0.order < $1.order }
        return stamps
    }

    /// `stamps`: the session's events in order (`stamps(_:)`).
    init(_ s: RecordedSession, sorted stamps: [TimelineStamp], base: Double?) {
        timed = s.hasTimes && base != nil
        func fromTime(_ t: LogTime) -> Int64 { Int64(((t.seconds - (base ?? 0)) * 1_000_000).rounded()) }
        var prev: Int64 = 0
        var first: Int64?
        if timed, let t0 = stamps.first(where: { $0.time != nil })?.time { prev = fromTime(t0) }
        orders.reserveCapacity(stamps.count)
        values.reserveCapacity(stamps.count)
        for st in stamps {
            let v: Int64
            if timed {
                v = max(prev, st.time.map(fromTime) ?? prev)
            } else {
                v = Int64(st.order) * 1000
            }
            orders.append(st.order)
            values.append(v)
            prev = v
            if first == nil { first = v }
        }
        start = first ?? 0
        var last = prev
        if timed, let e = s.endTime { last = max(last, fromTime(e)) } else if !timed { last = prev + 1000 }
        end = last
    }

    func micros(_ st: TimelineStamp) -> Int64 {
        guard let k = SessionClock.index(of: st.order, in: orders) else { return start }
        return values[k]
    }

    /// Where `order` is in the ascending `orders` (a binary search), nil when it is not there.
    static func index(of order: Int, in orders: [Int]) -> Int? {
        var lo = 0, hi = orders.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if orders[mid] < order { lo = mid + 1 } else { hi = mid }
        }
        return lo < orders.count && orders[lo] == order ? lo : nil
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

/// A session laid out on `width` units (columns or pixels): lanes with their state segments,
/// deallocs and findings, transitions, and the events for the ruler.
struct SessionLayout {
    struct Segment { var state: LaneState; var x0: Double; var x1: Double }
    struct Mark { var x: Double; var finding: Finding; var index: Int }
    struct Lane {
        var instance: RecordedInstance?
        var label: String
        var segments: [Segment] = []
        var dealloc: Double?
        var marks: [Mark] = []
    }
    struct Placed { var transition: RecordedTransition; var x0: Double; var x1: Double }

    let session: RecordedSession
    let axis: TimelineAxis
    let width: Double
    var xEnd: Double = 0
    var lanes: [Lane] = []
    var transitions: [Placed] = []
    /// The events in the window, in order, with their x.
    var steps: [(stamp: TimelineStamp, x: Double)] = []

    /// The orders of `steps`, ascending: a stamp's step is found by binary search.
    private var stepOrders: [Int] = []
    private var firstOrder = 0, lastOrder = 0
    private let clock: SessionClock
    private var t0: Int64 = 0, t1: Int64 = 0
    /// Units per event on the events axis.
    private var scale = 1.0

    /// nil when nothing of the session is in the window.
    /// `findings`: the session's own (`TimelineInput.findings(inSession:)`), each with its index
    /// among the input's findings and its placement.
    init?(_ s: RecordedSession, input: TimelineInput, findings: [(Finding, Int, TimelineInput.Placement)], axis requested: TimelineAxis,
          width: Double, maxStep: Double, window: TimelineWindow) {
        session = s
        let all = SessionClock.stamps(s)
        clock = SessionClock(s, sorted: all, base: input.timeBase)
        axis = requested == .time && clock.timed ? .time : .events
        self.width = width
        let shown = window.isEverything ? all : all.filter { window.contains($0) }
        guard let first = shown.first, let last = shown.last else { return nil }
        firstOrder = first.order
        lastOrder = last.order
        stepOrders = shown.map(\.order)
        scale = min(maxStep, width / Double(shown.count))
        t0 = clock.micros(first)
        t1 = window.to == nil ? clock.end : clock.micros(last)
        xEnd = axis == .events ? Double(shown.count) * scale : width
        steps = shown.map { ($0, x($0)) }

        for inst in s.instances {
            var lane = Lane(instance: inst, label: inst.laneLabel)
            for iv in inst.intervals {
                let a = x(iv.start)
                let b = iv.openAtEnd ? (iv.end.order >= lastOrder ? xEnd : x(iv.end)) : x(iv.end)
                if b > a || (b == a && inWindow(iv.start) && axis == .time) { lane.segments.append(Segment(state: iv.state, x0: a, x1: max(a, b))) }
            }
            if let d = inst.dealloc, inWindow(d) { lane.dealloc = x(d) }
            if !lane.segments.isEmpty || lane.dealloc != nil { lanes.append(lane) }
        }
        var sessionLane = Lane(instance: nil, label: "(session)")
        var laneOf: [Int: Int] = [:]
        for (li, lane) in lanes.enumerated() { if let id = lane.instance?.id { laneOf[id] = li } }
        var instanceAt: [Int: Int]?
        for (f, index, p) in findings {
            guard let st = stamp(forLine: f.line, in: all), inWindow(st) else { continue }
            let mark = Mark(x: x(st), finding: f, index: index)
            guard p.session == s.id else { continue }
            if instanceAt == nil, p.instance != nil {
                var index: [Int: Int] = [:]
                for (k, i) in s.instances.enumerated() where index[i.id] == nil { index[i.id] = k }
                instanceAt = index
            }
            if let id = p.instance, let li = laneOf[id] {
                lanes[li].marks.append(mark)
            } else if let id = p.instance, let k = instanceAt?[id] {
                let inst = s.instances[k]
                // Its lane was empty in the window (e.g. a callback long after its dealloc).
                laneOf[id] = lanes.count
                lanes.append(Lane(instance: inst, label: inst.laneLabel, marks: [mark]))
            } else {
                sessionLane.marks.append(mark)
            }
        }
        if !sessionLane.marks.isEmpty { lanes.append(sessionLane) }
        for t in s.transitions where inWindow(t.start) || inWindow(t.end) {
            transitions.append(Placed(transition: t, x0: x(t.start), x1: x(t.end)))
        }
    }

    /// The last event at or before `line` (events are in line order within an input).
    private func stamp(forLine line: Int, in all: [TimelineStamp]) -> TimelineStamp? {
        var lo = 0, hi = all.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if all[mid].line <= line { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? all[lo - 1] : nil
    }

    func inWindow(_ st: TimelineStamp) -> Bool { st.order >= firstOrder && st.order <= lastOrder }

    /// Where a stamp falls (clamped to the window).
    func x(_ st: TimelineStamp) -> Double {
        if st.order < firstOrder { return 0 }
        if st.order > lastOrder { return xEnd }
        switch axis {
        case .events:
            let i = SessionClock.index(of: st.order, in: stepOrders) ?? 0
            return Double(i) * scale
        case .time:
            let m = clock.micros(st)
            guard t1 > t0 else { return 0 }
            return min(width - 1, Double(m - t0) / Double(t1 - t0) * (width - 1))
        }
    }

    /// Seconds from the session's first shown event (time axis labels).
    func seconds(_ st: TimelineStamp) -> Double { Double(clock.micros(st) - t0) / 1_000_000 }
}

extension RecordedInstance {
    /// Its lane's label: the instance (`HomeViewController#1`), and what it is when it is not a
    /// controller (`DetailViewModel#1 (object)`, `HomeView#1 (view)`).
    public var laneLabel: String {
        kind == .controller ? controller.instance : "\(controller.instance) (\(kind.rawValue))"
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
