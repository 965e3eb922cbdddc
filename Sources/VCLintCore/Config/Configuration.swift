import Foundation
import Yams
#if canImport(Glibc)
import Glibc
#endif

/// `.vclint.yml`, in the manner of SwiftLint's `.swiftlint.yml`: found in the working directory or
/// its parents, or given with `--config`.
public struct Configuration: Sendable {
    public var path: String
    /// What the file sets, by setting key (`Setting.all`), as the setting's kind parsed it.
    var values: [String: any Sendable] = [:]
    /// The `severity` of the rules' sections.
    public var severities: [String: Severity] = [:]

    public static let fileName = ".vclint.yml"

    /// Every top-level key, with what it takes and means (`Setting.all`, then the rules' sections).
    public static var keys: [(key: String, value: String, meaning: String)] {
        Setting.all.map { ($0.key, $0.type, $0.meaning) } + [("RULE_ID", "mapping", Setting.ruleSectionMeaning)]
    }

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
            return try parseCompilingOnce(yaml, path: path).get()
        } catch {
            // A key's problem: the line where the key is written.
            guard error.line == nil, let key = error.key, let line = YAMLWording.line(ofKey: key, in: yaml) else { throw error }
            var located = error
            located.line = line.line
            located.column = line.column
            throw located
        }
    }

    /// `parseDocument` with each distinct pattern text compiled once, however often it is aliased.
    private static func parseCompilingOnce(_ yaml: String, path: String) -> Result<Configuration, LoadError> {
        PatternCache.$current.withValue(PatternCache()) { () -> Result<Configuration, LoadError> in
            do throws(LoadError) { return .success(try parseDocument(yaml, path: path)) } catch { return .failure(error) }
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
            document = try Yams.load(yaml: yaml, .default, YAMLNumber.constructor)
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
        for key in top.keys.sorted() {
            if let setting = Setting.named(key) {
                try config.set(setting, top[key]!, key: key)
            } else if RuleRegistry.description(of: key) != nil {
                try config.ruleSection(top[key]!, rule: key)
            } else {
                let known = Setting.all.map(\.key)
                let guess = EditDistance.didYouMean(key, among: known + RuleRegistry.identifiers)
                throw LoadError(path: path, key: key, reason: "unknown key\(guess) (expected one of \(known.joined(separator: ", ")), or a rule id)")
            }
        }
        return config
    }

    /// A rule's section: its severity, and its parameters (the settings whose `rules` name it).
    private mutating func ruleSection(_ value: Any, rule: String) throws(LoadError) {
        guard let section = value as? [String: Any] else {
            throw LoadError(path: path, key: rule, reason: "expected a mapping (severity, parameters)")
        }
        for key in section.keys.sorted() {
            let v = section[key]!
            let full = "\(rule).\(key)"
            if key == "severity" {
                guard let text = v as? String, let s = Severity(rawValue: text) else {
                    throw LoadError(path: path, key: full, reason: "expected error, warning or info")
                }
                severities[rule] = s
            } else if let setting = Setting.parameters(of: rule).first(where: { $0.key == key }) {
                try set(setting, v, key: full)
            } else {
                let guess = EditDistance.didYouMean(key, among: ["severity"] + Setting.parameters(of: rule).map(\.key))
                throw LoadError(path: path, key: full, reason: "unknown parameter for \(rule)\(guess)")
            }
        }
    }

    /// A parameter written both at the top level and in a section, or in two sections, is one value:
    /// the last key in sorted order sets it.
    private mutating func set(_ setting: Setting, _ yaml: Any, key: String) throws(LoadError) {
        do {
            values[setting.key] = try setting.parseValue(yaml, key)
        } catch {
            throw LoadError(path: path, key: error.key, reason: error.reason)
        }
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
        for setting in Setting.all {
            if let value = values[setting.key] { setting.landValue?(value, &options) }
        }
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

    /// The starter file `vclint init` writes, from `Setting.all`. Every setting is one line and every
    /// key appears once, so uncommenting any of the `#key: value` lines (deleting the `#`), or all of
    /// them, gives a valid configuration (a test tries every combination).
    public static let starter: String = {
        var out = """
        # vclint configuration (.vclint.yml). Every key is optional; `vclint rules` lists the rule ids.
        # To use a setting, delete the # in front of it. Paths are relative to this file's folder.

        """
        for s in Setting.all {
            let byDefault = Setting.text(s.defaultValue)
            out += "\n" + comment("\(Setting.sentence(s.meaning)). \(Setting.sentence(s.type))\(byDefault == "none" ? "" : ", default \(byDefault)").")
            out += (s.starter.on ? "" : "#") + "\(s.key): \(s.starter.example)\n"
        }
        out += "\n" + comment("Per rule: its severity (error, warning, info) and its parameters. A parameter several rules share is one value, shown here in the section of the rule it is chiefly for (`vclint rules` shows every rule's).")
        for d in RuleRegistry.descriptions {
            let parameters = Setting.parameters(of: d.identifier).filter { $0.rules.first == d.identifier }
            guard !parameters.isEmpty else { continue }
            // Another severity than the rule's own, so that uncommenting the line changes something.
            let severity: Severity = d.severity == .error ? .warning : .error
            out += "#\(d.identifier): {" + (["severity: \(severity.rawValue)"] + parameters.map { "\($0.key): \($0.starter.example)" }).joined(separator: ", ") + "}\n"
        }
        return out
    }()

    /// `# text`, wrapped at 100 columns.
    private static func comment(_ text: String) -> String {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > 100, line != "#" {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        return (lines + [line]).joined(separator: "\n") + "\n"
    }
}

/// A number as `.vclint.yml` writes it: its text, which a number setting reads with the reader the
/// command line uses (`NumberKind.number`), and the value YAML's own rules give it (`0x10` is 16),
/// which a lifetime's maximum takes.
struct YAMLNumber: Hashable {
    let text: String
    let value: AnyHashable

    /// Yams' constructor, except that a scalar YAML resolves as a number keeps its text.
    static var constructor: Constructor {
        var scalars = Constructor.defaultScalarMap
        scalars[.int] = { s in Int.construct(from: s).map { YAMLNumber(text: s.string, value: $0) } }
        scalars[.float] = { s in Double.construct(from: s).map { YAMLNumber(text: s.string, value: $0) } }
        return Constructor(scalars)
    }
}

// MARK: - What the file sets, by name

extension Configuration {
    func value<Value>(_ key: String) -> Value? { values[key] as? Value }

    public var disabledRules: [String] { value("disabled_rules") ?? [] }
    public var optInRules: [String] { value("opt_in_rules") ?? [] }
    public var leakGraceSeconds: Double? { value("leak_grace_seconds") }
    public var slowTransitionMilliseconds: Double? { value("slow_transition_ms") }
    /// PCRE2 patterns over class names: their lifecycle events are not linted (system classes).
    public var ignoreClasses: [String] { (value("ignore_classes") as [PCRE2Pattern]?)?.map(\.source) ?? [] }
    /// PCRE2 patterns over class names: controllers meant to live forever, never leaks.
    public var persistentClasses: [String] { (value("persistent_classes") as [PCRE2Pattern]?)?.map(\.source) ?? [] }
    /// Path globs: when given, only matching files found in directories are linted.
    public var included: [String] { value("included") ?? [] }
    /// Path globs: matching files found in directories are skipped.
    public var excluded: [String] { value("excluded") ?? [] }
    /// The app's own message grammars, on top of the built-in dialects.
    public var dialects: [CustomDialect] { value("dialects") ?? [] }
}
