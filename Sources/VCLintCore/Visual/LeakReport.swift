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

    public struct Entry: Sendable {
        public var path: String
        public var session: Int
        public var process: String
        public var pid: Int?
        public var controller: ControllerRef
        public var removal: Removal
        /// The line the leaked_controller finding points at.
        public var line: Int
        public var wentOn: Double?
        public var confirmed: Bool
        public var evidence: [Evidence]
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
    }

    public var graceSeconds: Double
    public var files: Int
    public var groups: [Group]
    public var unconfirmed: [Entry]
    public var unjudged: [Unjudged]

    public var confirmedCount: Int { groups.reduce(0) { $0 + $1.leaks.count } }

    public init(inputs: [TimelineInput], graceSeconds: Double) {
        self.graceSeconds = graceSeconds
        files = inputs.count
        var confirmed: [Entry] = []
        var unconfirmed: [Entry] = []
        var unjudgedByClass: [String: Unjudged] = [:]
        for input in inputs {
            for leak in input.timeline.leaks {
                let s = input.timeline.sessions.first { $0.id == leak.session }
                var evidence: [Evidence] = []
                func add(_ r: EventRef?, _ note: String) {
                    guard let r, !evidence.contains(where: { $0.line == r.line }) else { return }
                    evidence.append(Evidence(line: r.line, event: r.kind.rawValue, note: note))
                }
                add(leak.will, "began the removal")
                add(leak.removal.evidence, leak.removal.takenAlongBy.map { "removed with \($0)" } ?? "removed: \(leak.removal.kind.reportName)")
                add(leak.anchor, "last seen leaving; no dealloc after it")
                evidence.sort { $0.line < $1.line }
                let entry = Entry(path: input.path, session: leak.session, process: s?.process ?? "", pid: s?.pid,
                                  controller: leak.controller, removal: leak.removal, line: leak.anchor.line,
                                  wentOn: leak.wentOn, confirmed: leak.confirmed, evidence: evidence)
                if leak.confirmed { confirmed.append(entry) } else { unconfirmed.append(entry) }
            }
            for u in input.timeline.unjudgedClasses {
                var g = unjudgedByClass[u.className] ?? Unjudged(className: u.className, instances: 0, removedWithoutDealloc: 0, paths: [])
                g.instances += u.instances
                g.removedWithoutDealloc += u.removedWithoutDealloc
                if !g.paths.contains(input.path) { g.paths.append(input.path) }
                unjudgedByClass[u.className] = g
            }
        }
        // A class judged in one capture is not "not logged at all".
        var judged: Set<String> = []
        for input in inputs {
            let unj = Set(input.timeline.unjudgedClasses.map(\.className))
            for s in input.timeline.sessions { for i in s.instances where !unj.contains(i.controller.className) { judged.insert(i.controller.className) } }
        }
        var byClass: [String: [Entry]] = [:]
        for e in confirmed { byClass[e.controller.className, default: []].append(e) }
        groups = byClass.map { Group(className: $0.key, leaks: $0.value) }
            .sorted { $0.leaks.count != $1.leaks.count ? $0.leaks.count > $1.leaks.count : $0.className < $1.className }
        self.unconfirmed = unconfirmed
        unjudged = unjudgedByClass.values.filter { !judged.contains($0.className) }.sorted { $0.className < $1.className }
    }

    // MARK: - Formats

    static func plural(_ n: Int, _ word: String) -> String {
        if n == 1 { return "1 \(word)" }
        return "\(n) " + (word.hasSuffix("s") ? word + "es" : word + "s")
    }

    static func how(_ e: Entry) -> String {
        var s = "removed (\(e.removal.kind.reportName)) at line \(e.removal.evidence.line)"
        if let along = e.removal.takenAlongBy { s += " with \(along)" }
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

    public func text() -> String {
        let safe = TimelineTextRenderer.safe
        var out = "vclint leaks: \(Self.plural(confirmedCount, "confirmed leak")) of \(Self.plural(groups.count, "class")), "
        out += "\(unconfirmed.count) unconfirmed, in \(Self.plural(files, "file")) (grace \(Wording.seconds(graceSeconds)))\n"
        for g in groups {
            out += "\n\(safe(g.className)): \(Self.plural(g.leaks.count, "leaked instance")) in \(Self.plural(g.sessions, "session")) of \(Self.plural(g.files, "file")); "
            out += "removed by " + g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", ") + "\n"
            for e in g.leaks { out += entryText(e) }
        }
        out += "\nUnconfirmed (the log ended within the grace period): \(unconfirmed.isEmpty ? "none" : String(unconfirmed.count))\n"
        for e in unconfirmed { out += entryText(e) }
        out += "\nClasses whose dealloc is not logged (a leak cannot be judged): \(unjudged.isEmpty ? "none" : String(unjudged.count))\n"
        for u in unjudged {
            out += "  \(safe(u.className)): \(Self.plural(u.instances, "instance")), \(u.removedWithoutDealloc) removed and never deallocated; in \(u.paths.map(safe).joined(separator: ", "))\n"
        }
        return out
    }

    private func entryText(_ e: Entry) -> String {
        let safe = TimelineTextRenderer.safe
        var out = "  \(safe(e.controller.display)) in \(safe(e.path)), \(safe(Self.sessionText(e)))\n"
        out += "    \(safe(Self.how(e)))\n"
        for ev in e.evidence { out += "    \(safe(e.path)):\(ev.line): \(ev.event) (\(safe(ev.note)))\n" }
        return out
    }

    private static func entryJSON(_ e: Entry) -> JSONValue {
        var removal: [(String, JSONValue)] = [("kind", .string(e.removal.kind.rawValue)), ("how", .string(e.removal.kind.reportName)),
                                              ("line", .int(e.removal.evidence.line))]
        if let along = e.removal.takenAlongBy { removal.append(("taken_along_by", .string(along))) }
        return .object([
            ("controller", .object(TimelineJSON.controller(e.controller))),
            ("path", .string(e.path)),
            ("session", .object([("id", .int(e.session)), ("process", .string(e.process)), ("pid", e.pid.map { .int($0) } ?? .null)])),
            ("line", .int(e.line)),
            ("removal", .object(removal)),
            ("seconds_after_removal", e.wentOn.map { .double(($0 * 1000).rounded() / 1000) } ?? .null),
            ("evidence", .array(e.evidence.map { .object([("line", .int($0.line)), ("event", .string($0.event)), ("note", .string($0.note))]) })),
        ])
    }

    public func json() -> String {
        JSONValue.object([
            ("version", .int(1)),
            ("tool", .object([("name", .string(VCLintVersion.name)), ("version", .string(VCLintVersion.version))])),
            ("grace_seconds", .double(graceSeconds)),
            ("summary", .object([("confirmed", .int(confirmedCount)), ("unconfirmed", .int(unconfirmed.count)),
                                 ("classes", .int(groups.count)), ("files", .int(files))])),
            ("classes", .array(groups.map { g in
                .object([
                    ("class", .string(g.className)), ("instances", .int(g.leaks.count)), ("sessions", .int(g.sessions)), ("files", .int(g.files)),
                    ("removals", .object(g.removals.map { ($0.kind, .int($0.count)) })),
                    ("leaks", .array(g.leaks.map(Self.entryJSON))),
                ])
            })),
            ("unconfirmed", .array(unconfirmed.map(Self.entryJSON))),
            ("dealloc_not_logged", .array(unjudged.map { u in
                .object([("class", .string(u.className)), ("instances", .int(u.instances)),
                         ("removed_without_dealloc", .int(u.removedWithoutDealloc)), ("paths", .array(u.paths.map { .string($0) }))])
            })),
        ]).serialized() + "\n"
    }

    public func markdown() -> String {
        let cell = MarkdownReporter.cell
        var out = "## vclint leaks\n\n"
        out += "**\(Self.plural(confirmedCount, "confirmed leak"))** of \(Self.plural(groups.count, "class")), \(unconfirmed.count) unconfirmed, in \(Self.plural(files, "file")) (grace \(Wording.seconds(graceSeconds))).\n"
        if !groups.isEmpty {
            out += "\n| class | instances | sessions | files | removed by |\n| --- | --- | --- | --- | --- |\n"
            for g in groups {
                out += "| \(cell(g.className)) | \(g.leaks.count) | \(g.sessions) | \(g.files) | \(cell(g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", "))) |\n"
            }
            out += "\n| controller | where | removal | evidence |\n| --- | --- | --- | --- |\n"
            for g in groups { for e in g.leaks { out += Self.entryRow(e) } }
        }
        if !unconfirmed.isEmpty {
            out += "\n### Unconfirmed (the log ended within the grace period)\n\n| controller | where | removal | evidence |\n| --- | --- | --- | --- |\n"
            for e in unconfirmed { out += Self.entryRow(e) }
        }
        if !unjudged.isEmpty {
            out += "\n### Classes whose dealloc is not logged (a leak cannot be judged)\n\n| class | instances | removed, never deallocated | files |\n| --- | --- | --- | --- |\n"
            for u in unjudged {
                out += "| \(cell(u.className)) | \(u.instances) | \(u.removedWithoutDealloc) | \(cell(u.paths.joined(separator: ", "))) |\n"
            }
        }
        return out
    }

    private static func entryRow(_ e: Entry) -> String {
        let cell = MarkdownReporter.cell
        let evidence = e.evidence.map { "\($0.line): \($0.event) (\($0.note))" }.joined(separator: "\n")
        return "| \(cell(e.controller.display)) | \(cell("\(e.path):\(e.line)")), \(cell(sessionText(e))) | \(cell(how(e))) | \(cell(evidence)) |\n"
    }

    /// A whole HTML page (`--format html`); `HTMLReport` embeds `htmlSection`.
    public func html() -> String {
        HTMLPage.document(title: "vclint leaks", body: "<h1>vclint leaks</h1>\n" + htmlSection())
    }

    func htmlSection() -> String {
        let h = HTMLText.escape
        var out = "<p class=\"summary\"><strong>\(Self.plural(confirmedCount, "confirmed leak"))</strong> of \(Self.plural(groups.count, "class")), "
        out += "\(unconfirmed.count) unconfirmed, in \(Self.plural(files, "file")) (grace \(Wording.seconds(graceSeconds))).</p>\n"
        func rows(_ entries: [Entry]) -> String {
            var s = "<table><thead><tr><th>controller</th><th>where</th><th>removal</th><th>evidence</th></tr></thead><tbody>\n"
            for e in entries {
                let ev = e.evidence.map { "<li><code>\(h(e.path)):\($0.line)</code> \(h($0.event)) (\(h($0.note)))</li>" }.joined()
                s += "<tr><td>\(h(e.controller.display))</td><td>\(h(e.path)):\(e.line)<br>\(h(Self.sessionText(e)))</td><td>\(h(Self.how(e)))</td><td><ul>\(ev)</ul></td></tr>\n"
            }
            return s + "</tbody></table>\n"
        }
        if !groups.isEmpty {
            out += "<table><thead><tr><th>class</th><th>leaked instances</th><th>sessions</th><th>files</th><th>removed by</th></tr></thead><tbody>\n"
            for g in groups {
                out += "<tr><td>\(h(g.className))</td><td>\(g.leaks.count)</td><td>\(g.sessions)</td><td>\(g.files)</td><td>\(h(g.removals.map { "\($0.kind) ×\($0.count)" }.joined(separator: ", ")))</td></tr>\n"
            }
            out += "</tbody></table>\n"
            out += rows(groups.flatMap(\.leaks))
        }
        out += "<h3>Unconfirmed (the log ended within the grace period)</h3>\n"
        out += unconfirmed.isEmpty ? "<p>None.</p>\n" : rows(unconfirmed)
        out += "<h3>Classes whose dealloc is not logged (a leak cannot be judged)</h3>\n"
        if unjudged.isEmpty {
            out += "<p>None.</p>\n"
        } else {
            out += "<table><thead><tr><th>class</th><th>instances</th><th>removed, never deallocated</th><th>files</th></tr></thead><tbody>\n"
            for u in unjudged {
                out += "<tr><td>\(h(u.className))</td><td>\(u.instances)</td><td>\(u.removedWithoutDealloc)</td><td>\(h(u.paths.joined(separator: ", ")))</td></tr>\n"
            }
            out += "</tbody></table>\n"
        }
        return out
    }
}
