import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Known findings a team accepts for now (SwiftLint's baseline): recorded by fingerprint, which is
/// derived from the rule, the controller's class and the kind of cause — never from path, line,
/// time or address — so tomorrow's capture of the same bug is suppressed too.
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var fingerprint: String
        public var rule: String
        public var className: String
        /// One message of the recorded findings, for people reading the file.
        public var example: String
        public var count: Int
    }

    public var entries: [Entry]

    /// The baseline of a run: every finding, grouped by fingerprint, in report order.
    public init(result: LintResult) {
        var order: [String] = []
        var byFingerprint: [String: Entry] = [:]
        for f in result.findings {
            if byFingerprint[f.fingerprint] == nil {
                order.append(f.fingerprint)
                byFingerprint[f.fingerprint] = Entry(fingerprint: f.fingerprint, rule: f.rule, className: f.controller.className,
                                                     example: f.message, count: 0)
            }
            byFingerprint[f.fingerprint]!.count += 1
        }
        entries = order.map { byFingerprint[$0]! }
    }

    public init(entries: [Entry]) { self.entries = entries }

    public func serialized() -> String {
        JSONValue.object([
            ("version", .int(1)),
            ("tool", .string(VCLintVersion.name)),
            ("entries", .array(entries.map { e in
                .object([("fingerprint", .string(e.fingerprint)), ("rule", .string(e.rule)), ("class", .string(e.className)),
                         ("count", .int(e.count)), ("example", .string(e.example))])
            })),
        ]).serialized() + "\n"
    }

    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The most a baseline file may hold: a fingerprint per kind of finding is a few hundred bytes,
    /// so this is far beyond any real one, and `--baseline /dev/zero` fails at once instead of
    /// filling memory.
    public static let maxBytes = 64 << 20

    public static func load(path: String) throws -> Baseline {
        try parse(bytes: try read(path: path), path: path)
    }

    /// The file's bytes, read as a stream up to `maxBytes` (a pipe, `<(…)`, is read too).
    static func read(path: String) throws(LoadError) -> [UInt8] {
        do {
            return try BoundedRead.bytes(path: path, limit: maxBytes)
        } catch {
            switch error {
            case .system(let code):
                throw LoadError(path: path, reason: code == ENOENT ? "no such file or directory" : "cannot read the baseline (\(String(cString: strerror(code)).lowercased()))")
            case .tooLarge:
                throw LoadError(path: path, reason: "more than \(maxBytes >> 20) MiB, which no baseline is (`vclint baseline create` writes one)")
            }
        }
    }

    public static func parse(_ data: Data, path: String) throws -> Baseline { try parse(bytes: [UInt8](data), path: path) }

    /// The baseline read an entry at a time (`JSONSkim`), not parsed whole at 20 times its size.
    static func parse(bytes: [UInt8], path: String) throws -> Baseline {
        guard let skim = try? JSONSkim(checking: bytes), skim.isObject(skim.root) else {
            throw LoadError(path: path, reason: "not a vclint baseline (invalid JSON)")
        }
        let doc = skim.members(skim.root)
        guard doc["version"].flatMap(skim.value) as? Int == 1 else {
            throw LoadError(path: path, reason: "unsupported baseline version (expected 1)")
        }
        guard let list = doc["entries"], skim.isArray(list) else {
            throw LoadError(path: path, reason: "missing \"entries\" array")
        }
        var entries: [Entry] = []
        for (i, range) in skim.elements(list).enumerated() {
            guard let any = skim.value(range) else { throw LoadError(path: path, reason: "not a vclint baseline (invalid JSON)") }
            guard let item = any as? [String: Any] else { throw LoadError(path: path, reason: "missing \"entries\" array") }
            guard let fp = item["fingerprint"] as? String, !fp.isEmpty else {
                throw LoadError(path: path, reason: "entry \(i + 1) has no \"fingerprint\"")
            }
            entries.append(Entry(fingerprint: fp, rule: item["rule"] as? String ?? "", className: item["class"] as? String ?? "",
                                 example: item["example"] as? String ?? "", count: item["count"] as? Int ?? 1))
        }
        return Baseline(entries: entries)
    }

    public struct Outcome: Sendable {
        /// The run without the baselined findings.
        public var result: LintResult
        public var suppressed: Int
        /// Baseline entries that no finding of this run matched (fixed bugs, or another capture).
        public var stale: [Entry]
    }

    public func apply(to result: LintResult) -> Outcome {
        let known = Set(entries.map(\.fingerprint))
        var seen: Set<String> = []
        var suppressed = 0
        var filtered = result
        for i in filtered.files.indices {
            filtered.files[i].findings.removeAll { f in
                guard known.contains(f.fingerprint) else { return false }
                seen.insert(f.fingerprint)
                suppressed += 1
                return true
            }
        }
        return Outcome(result: filtered, suppressed: suppressed, stale: entries.filter { !seen.contains($0.fingerprint) })
    }
}
