import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a JSON report cannot be read or merged: `PATH: reason`, one line for stderr.
public struct ReportReadError: Error, CustomStringConvertible, Sendable {
    public enum Reason: Error, Sendable {
        case unreadable(String)
        case notJSON
        case notALintReport
        case malformed(String)
        case otherVersion(Int)
        case otherTool(String)
        case noConfiguration
        case otherRules(String)
        case otherConfiguration(String)
        case sharedInput(String)
        /// Anything else, worded in full.
        case other(String)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .unreadable(let why): return "\(path): \(why)"
        case .notJSON: return "\(path): not a vclint JSON report (it is not JSON)"
        case .notALintReport:
            return "\(path): not a vclint lint report; merge reads what `vclint lint --reporter json` writes"
        case .malformed(let why): return "\(path): not a vclint lint report as this vclint writes it (\(why))"
        case .otherVersion(let v):
            return "\(path): report version \(v), and this vclint reads version \(JSONReporter.reportVersion); lint every shard and merge with the same vclint"
        case .otherTool(let v):
            return "\(path): made by vclint \(v), and this is vclint \(VCLintVersion.version); lint every shard and merge with the same vclint"
        case .noConfiguration:
            return "\(path): records no rule configuration (made by a vclint older than merge); lint it again with this one"
        case .otherRules(let why): return "\(path): made with other rules: \(why); lint every shard and merge with the same vclint"
        case .otherConfiguration(let why):
            return "\(path): linted with another rule configuration: \(why); lint every shard with the same .vclint.yml and flags"
        case .sharedInput(let why): return "\(path): \(why); give each capture to one shard (or pass --allow-duplicate-inputs)"
        case .other(let why): return "\(path): \(why)"
        }
    }
}

/// One `vclint lint --reporter json` report read back: its inputs (stats), findings and the run's
/// configuration, exactly as they were reported.
public struct LoadedReport: Sendable {
    public var path: String
    public var result: LintResult
    public var configuration: RunConfiguration

    /// A count a report may hold (lines, bytes, files, …): 0 to 2^48. The merge sums them over the
    /// shards, and a forged or corrupt count near Int.max would overflow that sum.
    static let countRange = 0...(1 << 48)

    /// The most a JSON report read back (`merge`, `vclint leaks` of shards) may hold. A shard's
    /// report of 661k findings is about 190 MiB; past this, a report is refused before it is parsed
    /// (the JSON parser needs several times the file in memory), and `vclint merge /dev/zero`
    /// fails at once instead of filling memory.
    public static let maxBytes = 256 << 20

    /// The file's bytes, read as a stream up to `maxBytes` (a pipe, `<(…)`, is read too).
    static func readBounded(path: String, what: String) throws(ReportReadError) -> [UInt8] {
        do {
            return try BoundedRead.bytes(path: path, limit: maxBytes)
        } catch {
            switch error {
            case .system(let code):
                throw ReportReadError(path: path, reason: .unreadable(code == ENOENT ? "no such file or directory"
                    : code == EISDIR ? "is a directory" : "cannot be read (\(String(cString: strerror(code)).lowercased()))"))
            case .tooLarge:
                throw tooLarge(path, what)
            }
        }
    }

    private static func tooLarge(_ path: String, _ what: String) -> ReportReadError {
        ReportReadError(path: path, reason: .unreadable("more than \(maxBytes >> 20) MiB, which no \(what) is; refused unparsed"))
    }

    public static func read(path: String) throws(ReportReadError) -> LoadedReport {
        let data = try readBounded(path: path, what: "vclint JSON report")
        do {
            return try parse(bytes: data, path: path)
        } catch {
            throw ReportReadError(path: path, reason: error)
        }
    }

    public static func parse(_ data: Data, path: String) throws(ReportReadError.Reason) -> LoadedReport {
        try parse(bytes: [UInt8](data), path: path)
    }

    /// The report read a finding at a time (`JSONSkim`): its memory is its bytes and what it holds,
    /// not the 20 times its size a whole parsed document costs.
    static func parse(bytes: [UInt8], path: String) throws(ReportReadError.Reason) -> LoadedReport {
        guard let skim = try? JSONSkim(checking: bytes), skim.isObject(skim.root) else { throw .notJSON }
        let doc = skim.members(skim.root)
        func value(_ key: String) -> Any? { doc[key].flatMap(skim.value) }
        guard let inputs = doc["inputs"], let violations = doc["violations"],
              (value("tool") as? [String: Any])?["name"] as? String == VCLintVersion.name,
              skim.isArray(inputs), skim.isArray(violations) else { throw .notALintReport }
        guard let version = value("version") as? Int else { throw .malformed("no \"version\"") }
        guard version == JSONReporter.reportVersion else { throw .otherVersion(version) }
        let tool = (value("tool") as? [String: Any])?["version"] as? String ?? "?"
        guard tool == VCLintVersion.version else { throw .otherTool(tool) }
        guard let configuration = value("configuration") else { throw .noConfiguration }
        let config = try RunConfiguration(json: configuration)

        var files: [FileResult] = []
        var byPath: [String: Int] = [:]
        for (i, range) in skim.elements(inputs).enumerated() {
            guard let item = skim.value(range) else { throw .notJSON }
            guard let o = item as? [String: Any], let p = o["path"] as? String else { throw .malformed("input \(i + 1) has no \"path\"") }
            func int(_ key: String) throws(ReportReadError.Reason) -> Int {
                guard let v = o[key] as? Int else { throw .malformed("input \(p) has no \"\(key)\" count") }
                guard Self.countRange.contains(v) else { throw .malformed("input \(p) has a \"\(key)\" count out of range (0 to 2^48)") }
                return v
            }
            var stats = InputStats(path: p)
            stats.lines = try int("lines")
            stats.bytes = try int("bytes")
            stats.events = try int("events")
            stats.sessions = try int("sessions")
            stats.controllers = try int("controllers")
            for (name, count) in o["formats"] as? [String: Any] ?? [:] {
                guard let format = EnvelopeFormat(rawValue: name), let n = count as? Int, Self.countRange.contains(n) else { throw .malformed("input \(p) has an unknown format \(name)") }
                stats.formats[format] = n
            }
            if let u = o["unrecognized"] as? [String: Any] {
                stats.unrecognized = u["lines"] as? Int ?? 0
                stats.firstUnrecognized = u["first"] as? Int
            }
            var file = FileResult(stats: stats, findings: [])
            if let w = o["warnings"] {
                guard let lines = w as? [Any], lines.allSatisfy({ $0 is String }) else { throw .malformed("input \(p) has \"warnings\" that are not strings") }
                file.warnings = lines.map { FileResult.warningPrefix + ($0 as! String) }
            }
            if let t = o["tests"] {
                guard let names = t as? [Any], names.allSatisfy({ $0 is String }) else { throw .malformed("input \(p) has \"tests\" that are not strings") }
                file.tests = TestBoundaries(ran: names.map { $0 as! String })
            }
            if byPath[p] == nil { byPath[p] = files.count }
            files.append(file)
        }
        // A finding belongs to the input whose path it names (the first, should one be linted twice),
        // on one of its lines, by a rule this vclint has: anything else no lint run wrote.
        for (i, range) in skim.elements(violations).enumerated() {
            guard let item = skim.value(range) else { throw .notJSON }
            guard let v = item as? [String: Any] else { throw .malformed("violation \(i + 1) is not an object") }
            let finding = try Self.finding(v, index: i + 1)
            guard let j = byPath[finding.path] else {
                throw .malformed("violation \(i + 1) (\(finding.rule)) names \(finding.path), which is not one of its inputs")
            }
            guard RuleRegistry.description(of: finding.rule) != nil else {
                throw .malformed("violation \(i + 1) names the rule \(finding.rule), which vclint \(VCLintVersion.version) does not have")
            }
            let lines = files[j].stats.lines
            for (line, what) in [(finding.line, "its line")] + finding.related.filter({ $0.path == finding.path }).map({ ($0.line, "a related line") })
            where !Self.isLine(line, of: lines) {
                throw .malformed("violation \(i + 1) (\(finding.rule)) has \(what) \(line), and \(finding.path) has \(Self.lineRange(lines))")
            }
            files[j].findings.append(finding)
        }
        return LoadedReport(path: "", result: LintResult(files: files), configuration: config)
    }

    /// Whether `line` can be a line of an input of `count` lines: 1 to `count` (line 1 of an empty
    /// input too, where `no_lifecycle_events` points).
    static func isLine(_ line: Int, of count: Int) -> Bool { line >= 1 && line <= max(count, 1) }

    static func lineRange(_ count: Int) -> String { count <= 1 ? "only line 1" : "lines 1 to \(count)" }

    private static func finding(_ v: [String: Any], index: Int) throws(ReportReadError.Reason) -> Finding {
        guard let rule = v["rule"] as? String, let sev = v["severity"] as? String, let severity = Severity(rawValue: sev),
              let message = v["message"] as? String, let path = v["path"] as? String, let line = v["line"] as? Int,
              let controller = v["controller"] as? [String: Any], let className = controller["class"] as? String,
              let instance = controller["instance"] as? String, let fingerprint = v["fingerprint"] as? String else {
            throw .malformed("violation \(index) lacks one of rule, severity, message, path, line, controller, fingerprint")
        }
        var address: UInt64?
        if let a = controller["address"] as? String {
            guard a.hasPrefix("0x"), let n = UInt64(a.dropFirst(2), radix: 16) else { throw .malformed("violation \(index) has the address \(a)") }
            address = n
        }
        var time: LogTime?
        if let iso = v["time"] as? String {
            let t = LogTime(seconds: 0, iso: iso)
            guard t.iso == iso else { throw .malformed("violation \(index) has the time \(iso)") }
            time = t
        }
        var related: [Finding.Related] = []
        for r in v["related"] as? [Any] ?? [] {
            guard let o = r as? [String: Any], let p = o["path"] as? String, let l = o["line"] as? Int, let note = o["note"] as? String else {
                throw .malformed("violation \(index) has a related line without path, line or note")
            }
            related.append(Finding.Related(path: p, line: l, note: note))
        }
        var finding = Finding(rule: rule, severity: severity, message: message, path: path, line: line, time: time,
                              controller: ControllerRef(className: className, address: address, instance: instance),
                              related: related, fingerprint: fingerprint)
        if let d = v["declaration"] as? [String: Any] {
            guard let p = d["path"] as? String, let l = d["line"] as? Int else { throw .malformed("violation \(index) has a declaration without path or line") }
            finding.declaration = Declaration(path: p, line: l)
        }
        if let t = v["transition"] {
            guard let name = t as? String, let kind = TransitionKind(rawValue: name) else {
                throw .malformed("violation \(index) has a transition that is not a kind of transition")
            }
            finding.transition = kind
        }
        if let t = v["test"] {
            guard let name = t as? String else { throw .malformed("violation \(index) has a test that is not a string") }
            finding.test = name
        }
        if let o = v["owner"] {
            guard let owner = o as? [String: Any], let c = owner["class"] as? String, let i = owner["instance"] as? String else {
                throw .malformed("violation \(index) has an owner without class or instance")
            }
            let a = (owner["address"] as? String).flatMap { UInt64($0.hasPrefix("0x") ? String($0.dropFirst(2)) : $0, radix: 16) }
            finding.owner = ControllerRef(className: c, address: a, instance: i)
        }
        return finding
    }
}

/// `vclint merge`: the reports of a CI matrix's shards as one run, in the order given. Inputs,
/// their stats and every finding (fingerprint included) are kept as they were reported; reports of
/// another vclint or another rule configuration, and an input that two shards both linted, are
/// refused, since the sum would not be one run's report.
public enum ReportMerger {
    /// `allowingDuplicates`: two shards may report the same input (`--allow-duplicate-inputs`);
    /// otherwise that is refused, since its findings would count twice.
    public static func merge(_ reports: [LoadedReport], allowingDuplicates: Bool = false) throws(ReportReadError) -> (result: LintResult, configuration: RunConfiguration) {
        guard let first = reports.first else { throw ReportReadError(path: "-", reason: .unreadable("no report to merge")) }
        var files: [FileResult] = []
        var owner: [String: (report: String, path: String)] = [:]
        for r in reports {
            if let why = r.configuration.difference(from: first.configuration, there: "in \(first.path)") {
                throw ReportReadError(path: r.path, reason: .otherConfiguration(why))
            }
            var mine: Set<String> = []
            for f in r.result.files {
                let p = f.stats.path
                let key = lexical(p)
                if !allowingDuplicates, let other = owner[key], !mine.contains(key), p != InputSource.standardInput.displayPath {
                    let named = other.path == p ? p : "\(p) (\(other.path) in \(other.report))"
                    throw ReportReadError(path: r.path, reason: .sharedInput("\(named) was linted by \(other.report) too"))
                }
                if owner[key] == nil { owner[key] = (r.path, p) }
                mine.insert(key)
                files.append(f)
            }
        }
        return (LintResult(files: files), first.configuration)
    }

    /// A path as the file it names, whatever way it was written: `./c.log`, `logs//c.log` and
    /// `logs/x/../c.log` are `c.log` and `logs/c.log` (lexically: no file system is consulted,
    /// since the shards ran elsewhere).
    static func lexical(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if c == "..", absolute { continue }
            parts.append(c)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : joined.isEmpty ? "." : joined
    }
}

extension LintResult {
    /// `--strict`: every warning reported as an error (as SwiftLint's --strict does), in every format.
    public func promotingWarnings() -> LintResult {
        var out = self
        for i in out.files.indices { out.files[i].findings.promoteWarnings() }
        return out
    }
}
