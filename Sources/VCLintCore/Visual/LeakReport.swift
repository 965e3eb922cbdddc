import Foundation

/// `vclint leaks`: the leak picture over one or many captures. Confirmed leaks grouped by class
/// (how many instances, in how many sessions and files, how they were removed, how long the session
/// went on, the evidence lines), unconfirmed leaks (the log ended within the grace period) and the
/// classes whose dealloc is not logged at all, so that a leak of them cannot be judged.
public struct LeakReport: Sendable {
    public struct Evidence: Sendable, Equatable {
        public var line: Int
        public var event: String
        public var note: String
    }

    /// How a leaked controller was removed, as the report shows it.
    public struct RemovalFacts: Sendable, Equatable {
        public var kind: RemovalKind
        /// The line that proves the removal.
        public var line: Int
        /// For a controller removed without callbacks: the instance whose removal took it along.
        public var takenAlongBy: String?
    }

    public struct Entry: Sendable {
        public var path: String
        public var session: Int
        public var process: String
        public var pid: Int?
        public var controller: ControllerRef
        public var removal: RemovalFacts
        /// The line the leaked_controller finding points at.
        public var line: Int
        public var wentOn: Double?
        public var confirmed: Bool
        public var evidence: [Evidence]
        /// The test that was running when it was removed (docs/lifecycle.md#test-boundaries).
        public var test: String? = nil
        /// A leaked object's owner (docs/lifecycle.md#objects).
        public var owner: ControllerRef? = nil
        /// Its finding's fingerprint, when known (read from a capture, not from a JSON leak report).
        public var fingerprint: String? = nil

        /// `DetailViewController#3 → DetailViewModel#3` for an object, the controller otherwise.
        public var subject: String { owner.map { "\($0.display) → \(controller.display)" } ?? controller.display }
    }

    public struct Group: Sendable {
        public var className: String
        public var leaks: [Entry]
        public var sessions: Int { Set(leaks.map { "\($0.path)\u{1F}\($0.session)" }).count }
        public var files: Int { Set(leaks.map(\.path)).count }
        /// How many were removed each way, most frequent first.
        public var removals: [(kind: String, count: Int)] {
            var counts: [String: Int] = [:]
            for l in leaks { counts[l.removal.kind.reportName, default: 0] += 1 }
            return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    public struct Unjudged: Sendable {
        public var className: String
        public var instances: Int
        public var removedWithoutDealloc: Int
        public var paths: [String]
        /// An Android class: instances whose use ended, which only LeakCanary's evidence could judge.
        public var android = false
    }

    public var graceSeconds: Double
    public var files: Int
    /// Object classes some instance of which had no owner (made while no screen was being set up:
    /// a service, a cache), never judged for leaks (docs/lifecycle.md#owners); each listed once.
    public var appLifetime: [String] = []
    public var groups: [Group]
    public var unconfirmed: [Entry]
    /// Leaks a `--baseline` records (confirmed or not): listed apart, failing nothing.
    public var baselined: [Entry] = []
    /// The classes whose dealloc is not logged, by name, each row made as it is read. The formats read `unjudgedRows`
    /// instead, which holds one input's list as the input has it (its copy took 19 MB at 400k classes).
    public var unjudged: [Unjudged] {
        get { Array(unjudgedRows) }
        set { unjudgedRows = UnjudgedRows(newValue) }
    }
    var unjudgedRows: UnjudgedRows
    /// Classes whose dealloc is judged in some input: a class unjudged in one capture of the set
    /// but judged in another is not "not logged at all" (kept so that reports can be merged).
    public var judgedClasses: Set<String>

    public var confirmedCount: Int { groups.reduce(0) { $0 + $1.leaks.count } }

    /// `2 baselined, ` in the summaries, when a baseline recorded some; empty otherwise.
    var baselinedNote: String { baselined.isEmpty ? "" : "\(baselined.count) baselined, " }

    public init(inputs: [TimelineInput], graceSeconds: Double) {
        var confirmed: [Entry] = []
        var unconfirmed: [Entry] = []
        var baselined: [Entry] = []
        var unjudgedByClass: [String: Unjudged] = [:]
        // One input's unjudged classes are its own, in order (400k classes need no table by name), read in place.
        var unjudgedAlone: UnjudgedRows?
        if inputs.count == 1, let input = inputs.first { unjudgedAlone = UnjudgedRows(input.timeline.unjudgedClasses, path: input.path) }
        // The paths already listed for each unjudged class (a class unjudged in every one of 100k
        // files must not cost a scan of its list per file), kept only for a path that more than one input has:
        // another input's is listed once per class anyway (400k classes must not cost a set each).
        var seenPaths = Set<String>(), repeatedPaths = Set<String>()
        for input in inputs where !seenPaths.insert(input.path).inserted { repeatedPaths.insert(input.path) }
        var listedPaths: [String: Set<String>] = [:]
        for input in inputs {
            let repeated = repeatedPaths.contains(input.path), paths = [input.path]
            for u in input.timeline.unjudgedClasses where unjudgedAlone == nil {
                // Changed in place: a copy taken out of the dictionary and put back copied its paths each time.
                let listed = !repeated || listedPaths[u.className, default: []].insert(input.path).inserted
                Self.tally(&unjudgedByClass[u.className, default: Unjudged(className: u.className, instances: 0, removedWithoutDealloc: 0, paths: [])],
                           u.instances, u.removedWithoutDealloc, paths: listed ? paths : [], android: u.android)
            }
            // What the leaks need of their input (its sessions by id, the tests at their lines) is
            // looked up only when it has leaks: it words every finding.
            // Android's, which LeakCanary proved (the timeline records iOS's).
            for entry in Self.heapLeaks(input) {
                if let fp = entry.fingerprint, input.baselined.contains(fp) { baselined.append(entry) } else { confirmed.append(entry) }
            }
            if input.timeline.leaks.isEmpty { continue }
            var sessionAt: [Int: Int] = [:]
            let sessions = input.timeline.sessions
            for k in sessions.indices { let id = sessions.id(at: k); if sessionAt[id] == nil { sessionAt[id] = k } }
            // A leak's test is its finding's (the test running at its line).
            var testAt: [Int: String] = [:]
            // With a baseline, each leak's fingerprint: its finding's, by line and controller.
            var fingerprintAt: [String: String] = [:]
            for f in input.findings where f.rule == "leaked_controller" || f.rule == "leaked_object" {
                if let t = f.test { testAt[f.line] = t }
                if !input.baselined.isEmpty { fingerprintAt["\(f.line)\u{1F}\(f.controller.instance)"] = f.fingerprint }
            }
            for leak in input.timeline.leaks {
                let s = sessionAt[leak.session].map { input.timeline.sessions.process(at: $0) }
                var evidence: [Evidence] = []
                func add(_ r: EventRef?, _ note: String) {
                    guard let r, !evidence.contains(where: { $0.line == r.line }) else { return }
                    evidence.append(Evidence(line: r.line, event: r.kind.rawValue, note: note))
                }
                if let owner = leak.owner {
                    add(leak.made, "made")
                    add(leak.anchor, "\(owner.display) deallocated; the object's deinit never followed")
                    add(leak.removal.evidence, "\(owner.display) removed")
                } else {
                    add(leak.will, "began the removal")
                    add(leak.removal.evidence, leak.removal.takenAlongBy.map { "removed with \($0)" } ?? "removed: \(leak.removal.kind.reportName)")
                    add(leak.anchor, "last seen leaving; no dealloc after it")
                }
                evidence.sort { $0.line < $1.line }
                let removal = RemovalFacts(kind: leak.removal.kind, line: leak.removal.evidence.line, takenAlongBy: leak.removal.takenAlongBy)
                let entry = Entry(path: input.path, session: leak.session, process: s?.name ?? "", pid: s?.pid ?? nil,
                                  controller: leak.controller, removal: removal, line: leak.anchor.line,
                                  wentOn: leak.wentOn, confirmed: leak.confirmed, evidence: evidence, test: testAt[leak.anchor.line],
                                  owner: leak.owner, fingerprint: fingerprintAt["\(leak.anchor.line)\u{1F}\(leak.controller.instance)"])
                if let fp = entry.fingerprint, input.baselined.contains(fp) { baselined.append(entry) }
                else if leak.confirmed { confirmed.append(entry) } else { unconfirmed.append(entry) }
            }
        }
        // A class judged in one capture is not "not logged at all".
        var judged: Set<String> = []
        var appLifetime: Set<String> = []
        for input in inputs {
            judged.formUnion(input.timeline.judgedClasses)
            appLifetime.formUnion(input.timeline.appLifetimeClasses)
        }
        self.init(graceSeconds: graceSeconds, files: inputs.count, confirmed: confirmed, unconfirmed: unconfirmed,
                  unjudged: unjudgedAlone ?? UnjudgedRows(unjudgedByClass.values.sorted { $0.className < $1.className }), judged: judged)
        self.appLifetime = appLifetime.sorted()
        self.baselined = baselined
    }

    /// The rules whose findings LeakCanary proved (docs/lifecycle.md#android-evidence); Android's `leaked_object` is
    /// the one the timeline did not record as an iOS object's.
    static let heapRules: Set<String> = ["leaked_activity", "leaked_fragment", "leaked_fragment_view", "leaked_object"]

    /// An input's Android leaks: each finding LeakCanary proved, with its chain (the message) and every node of its
    /// trace as evidence, grouped by class and named after its test like the others.
    static func heapLeaks(_ input: TimelineInput) -> [Entry] {
        var iosObjects = Set<String>()
        for leak in input.timeline.leaks where leak.owner != nil { iosObjects.insert("\(leak.anchor.line)\u{1F}\(leak.controller.instance)") }
        var entries: [Entry] = []
        for f in input.findings where heapRules.contains(f.rule) {
            if f.rule == "leaked_object", iosObjects.contains("\(f.line)\u{1F}\(f.controller.instance)") { continue }
            var evidence = f.related.map { Evidence(line: $0.line, event: "", note: $0.note) }
            evidence.append(Evidence(line: f.line, event: "╰→", note: f.message))
            evidence.sort { $0.line < $1.line }
            let ended = f.related.first { $0.note == "onDestroy" || $0.note == "onDestroyView" }?.line ?? f.line
            entries.append(Entry(path: input.path, session: 0, process: "", pid: nil, controller: f.controller,
                                 removal: RemovalFacts(kind: .retainedInHeap, line: ended, takenAlongBy: nil), line: f.line,
                                 wentOn: nil, confirmed: true, evidence: evidence, test: f.test, owner: f.owner, fingerprint: f.fingerprint))
        }
        return entries
    }

    /// The report of these leaks: confirmed ones grouped by class (most leaks first), unjudged
    /// classes without those judged anywhere.
    init(graceSeconds: Double, files: Int, confirmed: [Entry], unconfirmed: [Entry], unjudged: UnjudgedRows, judged: Set<String>) {
        self.graceSeconds = graceSeconds
        self.files = files
        var byClass: [String: [Entry]] = [:]
        for e in confirmed { byClass[e.controller.className, default: []].append(e) }
        groups = byClass.map { Group(className: $0.key, leaks: $0.value) }
            .sorted { $0.leaks.count != $1.leaks.count ? $0.leaks.count > $1.leaks.count : $0.className < $1.className }
        self.unconfirmed = unconfirmed
        // Filtered and sorted only when it must be (400k rows are not copied for nothing).
        let sorted = zip(unjudged, unjudged.dropFirst()).allSatisfy { $0.className < $1.className }
        if sorted && (judged.isEmpty || !unjudged.contains { judged.contains($0.className) }) {
            unjudgedRows = unjudged
        } else {
            var rows = unjudged.filter { !judged.contains($0.className) }
            rows.sort { $0.className < $1.className }
            unjudgedRows = UnjudgedRows(rows)
        }
        judgedClasses = judged
    }

    /// What an Android class's leaks need (docs/lifecycle.md#android-evidence).
    static let androidFix = "no GC evidence: add LeakCanary, or log finalize"

    /// The heading of the unjudged classes and the title of their count's column, in the words of
    /// the platforms they come from (an iOS class logs no dealloc; an Android class shows no release).
    static func unjudgedHeading<C: Collection<Unjudged>>(_ unjudged: C) -> (heading: String, column: String) {
        let android = unjudged.contains { $0.android }, apple = unjudged.contains { !$0.android }
        switch (apple, android) {
        case (false, true): return ("Classes whose release is never shown (a leak cannot be judged)", "ended their use, never released")
        case (true, true): return ("Classes whose dealloc is not logged or whose release is never shown (a leak cannot be judged)",
                                   "removed or ended, never released")
        default: return ("Classes whose dealloc is not logged (a leak cannot be judged)", "removed, never deallocated")
        }
    }

    /// An unjudged class's count, in its platform's words.
    static func unjudgedCount(_ u: Unjudged) -> String {
        u.android ? "\(u.removedWithoutDealloc) ended their use (\(androidFix))"
            : "\(u.removedWithoutDealloc) removed and never deallocated"
    }

    /// Adds an input's (or a shard's) counts and new paths to a class's entry, in place.
    static func tally(_ g: inout Unjudged, _ instances: Int, _ removed: Int, paths: [String], android: Bool) {
        g.android = g.android || android
        g.instances += instances
        g.removedWithoutDealloc += removed
        // A first list is shared with the input's other rows, not copied.
        if g.paths.isEmpty { g.paths = paths } else { g.paths += paths }
    }

    // MARK: - Wording (the formats share it: `LeakFormats.swift`)

    static func plural(_ n: Int, _ word: String) -> String {
        if n == 1 { return "1 \(word)" }
        return "\(n) " + (word.hasSuffix("s") ? word + "es" : word + "s")
    }

    static func how(_ e: Entry) -> String {
        if e.removal.kind == .retainedInHeap {
            // Android: no dealloc to wait for; LeakCanary's heap analysis is the proof.
            let ended = e.removal.line == e.line ? "" : "its use ended at line \(e.removal.line); "
            let owner = e.owner.map { " (it served \($0.display))" } ?? ""
            return ended + "LeakCanary's heap analysis found it retained at line \(e.line)" + owner
        }
        var s: String
        if let owner = e.owner {
            s = "its owner \(owner.display) was deallocated at line \(e.line)"
        } else {
            s = "removed (\(e.removal.kind.reportName)) at line \(e.removal.line)"
            if let along = e.removal.takenAlongBy { s += " with \(along)" }
        }
        if let w = e.wentOn {
            s += e.confirmed ? "; the session went on \(Wording.seconds(w)) without its dealloc"
                             : "; the log ended \(Wording.seconds(w)) later, within the grace period"
        } else {
            s += "; the session ended without its dealloc (the log has no time)"
        }
        return s
    }

    static func sessionText(_ e: Entry) -> String {
        "session \(e.session) (\(e.process.isEmpty ? "no process" : e.process)\(e.pid.map { " [\($0)]" } ?? ""))"
    }

    /// The confirmed leaks by the test that was running when each was removed, in the order the
    /// tests first leaked (leaks outside any test are not listed here).
    public var byTest: [(test: String, leaks: [Entry])] {
        var order: [String] = []
        var leaks: [String: [Entry]] = [:]
        for g in groups {
            for e in g.leaks {
                guard let t = e.test else { continue }
                if leaks[t] == nil { order.append(t) }
                leaks[t, default: []].append(e)
            }
        }
        return order.map { ($0, leaks[$0]!.sorted { ($0.path, $0.line) < ($1.path, $1.line) }) }
    }
}

// MARK: - Reading JSON leak reports back (`vclint leaks shard-*.json`)

extension LeakReport {
    /// A `vclint leaks --format json` report read back, with the configuration it was made with.
    public struct Loaded: Sendable {
        public var path: String
        public var report: LeakReport
        public var configuration: RunConfiguration
    }

    public static func read(path: String) throws(ReportReadError) -> Loaded {
        let data = try LoadedReport.readBounded(path: path, what: "vclint leak report")
        do {
            var loaded = try parse(bytes: data)
            loaded.path = path
            return loaded
        } catch {
            throw ReportReadError(path: path, reason: error)
        }
    }

    static func parse(_ data: Data) throws(ReportReadError.Reason) -> Loaded { try parse(bytes: [UInt8](data)) }

    /// The report read a leak at a time (`JSONSkim`), as `LoadedReport.parse` reads a lint report.
    static func parse(bytes: [UInt8]) throws(ReportReadError.Reason) -> Loaded {
        guard let skim = try? JSONSkim(checking: bytes), skim.isObject(skim.root) else { throw .notJSON }
        let members = skim.members(skim.root)
        func value(_ key: String) -> Any? { members[key].flatMap(skim.value) }
        func array(_ key: String) -> [Range<Int>]? { members[key].flatMap { skim.isArray($0) ? skim.elements($0) : nil } }
        guard (value("tool") as? [String: Any])?["name"] as? String == VCLintVersion.name, let classes = array("classes"),
              let unconfirmedLeaks = array("unconfirmed") else {
            if array("violations") != nil {
                throw .other("a lint report; vclint leaks reads the JSON of `vclint leaks --format json` (or the captures themselves)")
            }
            throw .other("not a vclint leak report; vclint leaks reads the JSON of `vclint leaks --format json` (or the captures themselves)")
        }
        let version = value("version")
        guard version as? Int == 1 else { throw .otherVersion(version as? Int ?? 0) }
        let tool = (value("tool") as? [String: Any])?["version"] as? String ?? "?"
        guard tool == VCLintVersion.version else { throw .otherTool(tool) }
        guard let configuration = value("configuration") else { throw .noConfiguration }
        let config = try RunConfiguration(json: configuration)
        let graceValue = value("grace_seconds")
        guard let grace = (graceValue as? Int).map(Double.init) ?? graceValue as? Double,
              let files = (value("summary") as? [String: Any])?["files"] as? Int else { throw .malformed("no grace_seconds or summary.files") }
        // Counts are summed over the shards: one beyond any run's could overflow the sum.
        guard LoadedReport.countRange.contains(files) else { throw .malformed("summary.files is out of range") }

        func owner(_ any: Any?) throws(ReportReadError.Reason) -> ControllerRef? {
            guard let any else { return nil }
            guard let c = any as? [String: Any], let cls = c["class"] as? String, let label = c["label"] as? String else {
                throw .malformed("a leak's owner lacks its class or label")
            }
            let address = (c["address"] as? String).flatMap { $0.hasPrefix("0x") ? UInt64($0.dropFirst(2), radix: 16) : nil }
            return ControllerRef(className: cls, address: address, instance: label)
        }

        func entry(_ any: Any, confirmed: Bool) throws(ReportReadError.Reason) -> Entry {
            guard let o = any as? [String: Any], let c = o["controller"] as? [String: Any], let label = c["label"] as? String,
                  let cls = c["class"] as? String, let path = o["path"] as? String, let s = o["session"] as? [String: Any],
                  let session = s["id"] as? Int, let line = o["line"] as? Int, let r = o["removal"] as? [String: Any],
                  let kindText = r["kind"] as? String, let kind = RemovalKind(rawValue: kindText), let rline = r["line"] as? Int,
                  let ev = o["evidence"] as? [Any] else {
                throw .malformed("a leak lacks its controller, path, session, line, removal or evidence")
            }
            var address: UInt64?
            if let a = c["address"] as? String { address = a.hasPrefix("0x") ? UInt64(a.dropFirst(2), radix: 16) : nil }
            var evidence: [Evidence] = []
            for e in ev {
                guard let e = e as? [String: Any], let l = e["line"] as? Int, let event = e["event"] as? String, let note = e["note"] as? String else {
                    throw .malformed("a leak's evidence lacks line, event or note")
                }
                evidence.append(Evidence(line: l, event: event, note: note))
            }
            let wentOn = (o["seconds_after_removal"] as? Int).map(Double.init) ?? o["seconds_after_removal"] as? Double
            return Entry(path: path, session: session, process: s["process"] as? String ?? "", pid: s["pid"] as? Int,
                         controller: ControllerRef(className: cls, address: address, instance: label),
                         removal: RemovalFacts(kind: kind, line: rline, takenAlongBy: r["taken_along_by"] as? String),
                         line: line, wentOn: wentOn, confirmed: confirmed, evidence: evidence, test: o["test"] as? String,
                         owner: try owner(o["owner"]))
        }
        // A class's leaks are read one at a time too: one class may hold all of a report's leaks.
        func parsed(_ range: Range<Int>) throws(ReportReadError.Reason) -> Any {
            guard let v = skim.value(range) else { throw .notJSON }
            return v
        }
        var confirmed: [Entry] = []
        for g in classes {
            guard skim.isObject(g), let leaks = skim.members(g)["leaks"], skim.isArray(leaks) else { throw .malformed("a class lists no leaks") }
            for l in skim.elements(leaks) { confirmed.append(try entry(try parsed(l), confirmed: true)) }
        }
        var unconfirmed: [Entry] = []
        for l in unconfirmedLeaks { unconfirmed.append(try entry(try parsed(l), confirmed: false)) }
        var baselined: [Entry] = []
        for l in array("baselined") ?? [] {
            let o = try parsed(l)
            baselined.append(try entry(o, confirmed: (o as? [String: Any])?["confirmed"] as? Bool ?? true))
        }
        var unjudged: [Unjudged] = []
        for range in array("dealloc_not_logged") ?? [] {
            let u = try parsed(range)
            guard let o = u as? [String: Any], let cls = o["class"] as? String, let n = o["instances"] as? Int,
                  let removed = o["removed_without_dealloc"] as? Int, let paths = o["paths"] as? [String] else {
                throw .malformed("an entry of dealloc_not_logged lacks class, instances, removed_without_dealloc or paths")
            }
            guard LoadedReport.countRange.contains(n), LoadedReport.countRange.contains(removed) else {
                throw .malformed("an entry of dealloc_not_logged has a count out of range")
            }
            unjudged.append(Unjudged(className: cls, instances: n, removedWithoutDealloc: removed, paths: paths, android: o["android"] as? Bool ?? false))
        }
        guard let judged = value("dealloc_logged") as? [String] else { throw .noConfiguration }
        var report = LeakReport(graceSeconds: grace, files: files, confirmed: confirmed, unconfirmed: unconfirmed,
                                unjudged: UnjudgedRows(unjudged), judged: Set(judged))
        report.appLifetime = (value("app_lifetime_objects") as? [String] ?? []).sorted()
        report.baselined = baselined
        return Loaded(path: "", report: report, configuration: config)
    }

    /// The leak reports of a matrix's shards as one, as if `vclint leaks` had read every capture:
    /// refused when they were made with different configurations (the grace period among them).
    public static func merge(_ reports: [Loaded]) throws(ReportReadError) -> (report: LeakReport, configuration: RunConfiguration) {
        guard let first = reports.first else { throw ReportReadError(path: "-", reason: .unreadable("no report to merge")) }
        var confirmed: [Entry] = [], unconfirmed: [Entry] = []
        var unjudged: [String: Unjudged] = [:]
        var listedPaths: [String: Set<String>] = [:]
        var judged: Set<String> = []
        var files = 0
        for r in reports {
            if let why = r.configuration.difference(from: first.configuration, there: "in \(first.path)") {
                throw ReportReadError(path: r.path, reason: .otherConfiguration(why))
            }
            files += r.report.files
            for g in r.report.groups { confirmed += g.leaks }
            unconfirmed += r.report.unconfirmed
            judged.formUnion(r.report.judgedClasses)
            for u in r.report.unjudgedRows {
                let new = u.paths.filter { listedPaths[u.className, default: []].insert($0).inserted }
                tally(&unjudged[u.className, default: Unjudged(className: u.className, instances: 0, removedWithoutDealloc: 0, paths: [])],
                      u.instances, u.removedWithoutDealloc, paths: new, android: u.android)
            }
        }
        var report = LeakReport(graceSeconds: first.report.graceSeconds, files: files, confirmed: confirmed, unconfirmed: unconfirmed,
                                unjudged: UnjudgedRows(Array(unjudged.values)), judged: judged)
        report.appLifetime = Set(reports.flatMap(\.report.appLifetime)).sorted()
        report.baselined = reports.flatMap(\.report.baselined)
        return (report, first.configuration)
    }
}

/// A leak report's unjudged classes: its own rows, or one input's list read in place, each row made as it is read
/// with the input's path. 400k classes whose dealloc is not logged took 19 MB more as a copy of the recording's.
struct UnjudgedRows: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case rows([LeakReport.Unjudged])
        case input(paths: [String], [UnjudgedClass])
    }
    private let storage: Storage

    init(_ rows: [LeakReport.Unjudged]) { storage = .rows(rows) }

    /// One input's classes: every row holds the one list of paths (shared, not one array per class).
    init(_ classes: [UnjudgedClass], path: String) { storage = .input(paths: [path], classes) }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch storage {
        case .rows(let rows): return rows.count
        case .input(_, let classes): return classes.count
        }
    }

    subscript(i: Int) -> LeakReport.Unjudged {
        switch storage {
        case .rows(let rows): return rows[i]
        case .input(let paths, let classes):
            let u = classes[i]
            return LeakReport.Unjudged(className: u.className, instances: u.instances, removedWithoutDealloc: u.removedWithoutDealloc, paths: paths,
                                       android: u.android)
        }
    }
}
