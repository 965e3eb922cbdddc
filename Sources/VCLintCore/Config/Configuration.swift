import Foundation
import Yams
#if canImport(Glibc)
import Glibc
#endif

/// `.vclint.yml`, in the manner of SwiftLint's `.swiftlint.yml`: found in the working directory or
/// its parents, or given with `--config`.
public struct Configuration: Sendable {
    public var path: String
    public var disabledRules: [String] = []
    public var optInRules: [String] = []
    public var severities: [String: Severity] = [:]
    public var leakGraceSeconds: Double?
    public var slowTransitionMilliseconds: Double?
    /// PCRE2 patterns over class names: their lifecycle events are not linted (system classes).
    public var ignoreClasses: [String] = []
    /// PCRE2 patterns over class names: controllers meant to live forever, never leaks.
    public var persistentClasses: [String] = []
    /// Path globs: when given, only matching files found in directories are linted.
    public var included: [String] = []
    /// Path globs: matching files found in directories are skipped.
    public var excluded: [String] = []
    /// The app's own message grammars, on top of the built-in dialects.
    public var dialects: [CustomDialect] = []

    public static let fileName = ".vclint.yml"

    /// Every top-level key, with what it takes (the README's reference is tested against this).
    public static let keys: [(key: String, value: String, meaning: String)] = [
        ("disabled_rules", "list of rule ids", "rules that do not run"),
        ("opt_in_rules", "list of rule ids", "opt-in rules that run (e.g. slow_transition)"),
        ("leak_grace_seconds", "number ≥ 0", "seconds a removed controller may take to deallocate (default 3)"),
        ("slow_transition_ms", "number ≥ 0", "slow_transition's threshold in milliseconds (default 1000)"),
        ("ignore_classes", "list of PCRE2 patterns", "classes whose lifecycle events are not linted, e.g. ^UI, ^_UI"),
        ("persistent_classes", "list of PCRE2 patterns", "controllers meant to live forever (tab roots, singletons): never leaks"),
        ("included", "list of path globs", "when linting a directory, only the files matching one of these (relative to this file's folder; `**` spans folders, `*` does not)"),
        ("excluded", "list of path globs", "when linting a directory, skip the files matching one of these (as `included`)"),
        ("dialects", "list of {pattern, events}", "the app's own message formats: a PCRE2 pattern with named groups class, event (and optionally address), and events mapping the captured event text to an event kind (viewDidLoad, viewWillAppear, dealloc, …); they extend the built-in dialects"),
        ("RULE_ID", "mapping", "per rule: severity (error, warning, info), and its parameters: leak_grace_seconds for leaked_controller and late_dealloc, slow_transition_ms for slow_transition"),
    ]

    /// A configuration problem: exit 2, naming the file, where in it (line and column when known,
    /// as compilers do: `PATH:LINE:COLUMN:`), the key and why.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let path: String
        public let key: String?
        public let reason: String
        public var line: Int?
        public var column: Int?

        public init(path: String, key: String?, reason: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.key = key
            self.reason = reason
            self.line = line
            self.column = column
        }

        public var description: String {
            var at = path
            if let line { at += ":\(line)" + (column.map { ":\($0)" } ?? "") }
            return key.map { "\(at): \($0): \(reason)" } ?? "\(at): \(reason)"
        }
    }

    public init(path: String) { self.path = path }

    /// `.vclint.yml` in `directory` or the nearest parent that has one.
    public static func discover(from directory: String = FileManager.default.currentDirectoryPath) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    public static func load(path: String) throws(LoadError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try readBounded(path: path, limit: YAMLBudget.maxFileBytes)
        } catch {
            throw LoadError(path: path, key: nil, reason: error.reason)
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    public static func parse(_ yaml: String, path: String) throws(LoadError) -> Configuration {
        do {
            return try parseDocument(yaml, path: path)
        } catch {
            // A key's problem: the line where the key is written.
            guard error.line == nil, let key = error.key, let line = YAMLWording.line(ofKey: key, in: yaml) else { throw error }
            var located = error
            located.line = line.line
            located.column = line.column
            throw located
        }
    }

    private static func parseDocument(_ yaml: String, path: String) throws(LoadError) -> Configuration {
        // Aliases, nesting and size are bounded before Yams expands anything (billion laughs).
        let utf8 = Array(yaml.utf8)
        if utf8.count > YAMLBudget.maxFileBytes {
            throw LoadError(path: path, key: nil, reason: "the configuration is larger than \(YAMLBudget.maxFileBytes >> 20) MiB; a configuration file is a few KiB")
        }
        if let why = YAMLBudget.violation(utf8) {
            throw LoadError(path: path, key: nil, reason: "refused: \(why)")
        }
        let document: Any?
        do {
            document = try Yams.load(yaml: yaml)
        } catch let error as YamlError {
            let (words, mark) = YAMLWording.explain(error, yaml)
            throw LoadError(path: path, key: nil, reason: "invalid YAML: \(words)", line: mark?.line, column: mark?.column)
        } catch {
            throw LoadError(path: path, key: nil, reason: "invalid YAML")
        }
        var config = Configuration(path: path)
        guard let document else { return config }  // an empty file is a valid, empty configuration
        guard let top = document as? [String: Any] else {
            throw LoadError(path: path, key: nil, reason: "expected a mapping of keys at the top level")
        }
        let ruleIDs = Set(RuleRegistry.identifiers)
        for key in top.keys.sorted() {
            let value = top[key]!
            switch key {
            case "disabled_rules":
                config.disabledRules = try ruleList(value, key: key, path: path, known: ruleIDs)
            case "opt_in_rules":
                config.optInRules = try ruleList(value, key: key, path: path, known: ruleIDs)
            case "leak_grace_seconds":
                config.leakGraceSeconds = try number(value, key: key, path: path)
            case "slow_transition_ms":
                config.slowTransitionMilliseconds = try number(value, key: key, path: path)
            case "ignore_classes":
                config.ignoreClasses = try patterns(value, key: key, path: path)
            case "persistent_classes":
                config.persistentClasses = try patterns(value, key: key, path: path)
            case "included":
                config.included = try strings(value, key: key, path: path)
            case "excluded":
                config.excluded = try strings(value, key: key, path: path)
            case "dialects":
                config.dialects = try dialectList(value, path: path)
            default:
                guard ruleIDs.contains(key) else {
                    throw LoadError(path: path, key: key, reason: "unknown key (expected one of \(keys.map(\.key).filter { $0 != "RULE_ID" }.joined(separator: ", ")), or a rule id)")
                }
                try config.ruleSection(value, rule: key)
            }
        }
        return config
    }

    private mutating func ruleSection(_ value: Any, rule: String) throws(LoadError) {
        guard let section = value as? [String: Any] else {
            throw LoadError(path: path, key: rule, reason: "expected a mapping (severity, parameters)")
        }
        for key in section.keys.sorted() {
            let v = section[key]!
            let full = "\(rule).\(key)"
            switch key {
            case "severity":
                guard let text = v as? String, let s = Severity(rawValue: text) else {
                    throw LoadError(path: path, key: full, reason: "expected error, warning or info")
                }
                severities[rule] = s
            case "leak_grace_seconds" where rule == "leaked_controller" || rule == "late_dealloc":
                leakGraceSeconds = try Self.number(v, key: full, path: path)
            case "slow_transition_ms" where rule == "slow_transition":
                slowTransitionMilliseconds = try Self.number(v, key: full, path: path)
            default:
                throw LoadError(path: path, key: full, reason: "unknown parameter for \(rule)")
            }
        }
    }

    private static func dialectList(_ value: Any, path: String) throws(LoadError) -> [CustomDialect] {
        guard let list = value as? [Any] else {
            throw LoadError(path: path, key: "dialects", reason: "expected a list of {pattern, events}")
        }
        var out: [CustomDialect] = []
        for (i, item) in list.enumerated() {
            let key = "dialects[\(i + 1)]"
            guard let entry = item as? [String: Any] else { throw LoadError(path: path, key: key, reason: "expected {pattern, events}") }
            for k in entry.keys where k != "pattern" && k != "events" {
                throw LoadError(path: path, key: "\(key).\(k)", reason: "unknown key (expected pattern, events)")
            }
            guard let pattern = entry["pattern"] as? String else {
                throw LoadError(path: path, key: "\(key).pattern", reason: "expected a PCRE2 pattern string")
            }
            guard let events = entry["events"] as? [String: Any] else {
                throw LoadError(path: path, key: "\(key).events", reason: "expected a mapping from event text to event kind")
            }
            var map: [String: String] = [:]
            for (text, kind) in events {
                guard let k = kind as? String else {
                    throw LoadError(path: path, key: "\(key).events.\(text)", reason: "expected an event kind name")
                }
                map[text] = k
            }
            do {
                out.append(try CustomDialect(pattern: pattern, events: map))
            } catch {
                throw LoadError(path: path, key: key, reason: error.description)
            }
        }
        return out
    }

    private static func strings(_ value: Any, key: String, path: String) throws(LoadError) -> [String] {
        if let one = value as? String { return [one] }
        guard let list = value as? [Any] else { throw LoadError(path: path, key: key, reason: "expected a list of strings") }
        var out: [String] = []
        for item in list {
            guard let s = item as? String else { throw LoadError(path: path, key: key, reason: "expected a list of strings") }
            out.append(s)
        }
        return out
    }

    private static func ruleList(_ value: Any, key: String, path: String, known: Set<String>) throws(LoadError) -> [String] {
        let ids = try strings(value, key: key, path: path)
        for id in ids where !known.contains(id) {
            throw LoadError(path: path, key: key, reason: "unknown rule '\(id)' (`vclint rules` lists them)")
        }
        return ids
    }

    private static func number(_ value: Any, key: String, path: String) throws(LoadError) -> Double {
        let n: Double?
        if let i = value as? Int { n = Double(i) } else if let d = value as? Double { n = d } else { n = nil }
        guard let n, n.isFinite, n >= 0 else { throw LoadError(path: path, key: key, reason: "expected a number ≥ 0") }
        return n
    }

    private static func patterns(_ value: Any, key: String, path: String) throws(LoadError) -> [String] {
        let list = try strings(value, key: key, path: path)
        for p in list {
            do {
                _ = try PCRE2Pattern(p)
            } catch {
                throw LoadError(path: path, key: key, reason: "invalid pattern '\(p)': \(error)")
            }
        }
        return list
    }

    // MARK: - Applying

    /// The lint options this configuration asks for, on top of `base` (command-line flags win).
    public func apply(to options: inout LintOptions) {
        var enabled = options.rules.enabled
        enabled.formUnion(optInRules)
        enabled.subtract(disabledRules)
        var severities = options.rules.severities
        for (k, v) in self.severities where severities[k] == nil { severities[k] = v }
        options.rules = RuleSettings(enabled: enabled, severities: severities)
        if let g = leakGraceSeconds { options.timeline.leakGraceSeconds = g }
        if let ms = slowTransitionMilliseconds { options.timeline.slowTransitionMilliseconds = ms }
        options.timeline.ignoreClasses = ignoreClasses.compactMap { try? PCRE2Pattern($0, matchLimit: 100_000, depthLimit: 1_000) }
        options.timeline.persistentClasses = persistentClasses.compactMap { try? PCRE2Pattern($0, matchLimit: 100_000, depthLimit: 1_000) }
        options.customDialects = dialects
    }

    /// The folder the configuration file is in: `included` and `excluded` are relative to it, as
    /// SwiftLint's are, so `vclint lint logs`, `vclint lint ./logs` and `vclint lint $PWD/logs`
    /// find the same files.
    public var folder: String { (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent }

    /// Whether a file found while walking a directory is linted (`PathGlob`: `*` within a
    /// component, `**` across them, a folder's glob covering what is below it).
    public func admits(_ path: String) -> Bool {
        guard !included.isEmpty || !excluded.isEmpty else { return true }
        let relative = PathGlob.relativeComponents(path, to: folder)
        if !included.isEmpty, !included.contains(where: { PathGlob($0).matches(relative) }) { return false }
        return !excluded.contains(where: { PathGlob($0).matches(relative) })
    }

    /// The starter file `vclint init` writes. Every setting is one line and every key appears
    /// once, so uncommenting any of the `#key: value` lines (deleting the `#`), or all of them, gives
    /// a valid configuration (a test tries every combination).
    public static let starter = #"""
    # vclint configuration (.vclint.yml). Every key is optional; `vclint rules` lists the rule ids.
    # To use a setting, delete the # in front of it. Paths are relative to this file's folder.

    # Rules that do not run, and opt-in rules that do.
    #disabled_rules: [memory_warning]
    #opt_in_rules: [slow_transition]

    # Seconds a popped or dismissed controller may take to deallocate before it is a leak (default 3).
    leak_grace_seconds: 3
    # A will/did pair slower than this is a slow_transition finding (default 1000).
    #slow_transition_ms: 800

    # Per rule: its severity (error, warning, info) and parameters.
    #late_dealloc: {severity: error}
    #memory_warning: {severity: warning}
    #leaked_controller: {severity: error, leak_grace_seconds: 5}
    #slow_transition: {severity: warning, slow_transition_ms: 500}

    # PCRE2 patterns over class names. Classes whose lifecycle events are not linted (system ones):
    ignore_classes: ['^UI', '^_UI']
    # Controllers meant to live forever (tab roots, singletons): never reported as leaks.
    #persistent_classes: ['^MainTabBarController$', 'Coordinator$']

    # The app's own log format, on top of the built-in dialects: named groups class and event
    # (address optional); events maps the captured text to an event kind.
    #dialects: [{pattern: '^\[Screen\] (?<class>\w+)(?: (?<address>0x[0-9a-f]+))? (?<event>shown|hidden|freed)$', events: {shown: viewDidAppear, hidden: viewDidDisappear, freed: dealloc}}]

    # When a folder is linted: only the files matching one of these globs, and not those matching
    # these. * stays within a folder name, ** spans folders.
    #included: ['captures/**', 'logs/*.log']
    #excluded: ['DerivedData/**', '**/old/*.log']

    """#
}
