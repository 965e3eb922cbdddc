import Foundation

/// One `.vclint.yml` setting, declared once in `Setting.all` (Settings.swift). The YAML parser, the
/// JSON report's `configuration`, `merge`'s comparison, the `vclint init` starter, `vclint rules`,
/// the reference table of docs/configuration.md and the setting's command-line flag, if it has one,
/// are derived from that table, so they cannot disagree.
public struct Setting: Sendable {
    /// Where a setting's value goes.
    enum Landing<Value> {
        /// A field of the lint options. Its initial value there is the setting's default (so the
        /// default is written once), and the JSON report records the value under the setting's key.
        case options(WritableKeyPath<LintOptions, Value> & Sendable)
        /// A rule switch (`opt_in_rules`, `disabled_rules`): `Configuration.apply` folds it into the
        /// enabled rules, which the report records rule by rule.
        case ruleSwitch
        /// A field of the lint options that changes how findings are shown, not which (`location`): not
        /// recorded, so reports that differ only in it still merge.
        case display(WritableKeyPath<LintOptions, Value> & Sendable)
        /// It only picks the files a folder walk reads (`Configuration.admits`): not a lint option,
        /// and not recorded, since the report lists its inputs.
        case fileSelection
    }

    /// A setting's line in the `vclint init` starter: `key: example`, commented out (`#key:`) unless
    /// `on`, so that the starter lints like no configuration until the user picks a line.
    struct Starter: Sendable {
        let example: String
        let on: Bool
        static func off(_ example: String) -> Starter { Starter(example: example, on: false) }
        static func on(_ example: String) -> Starter { Starter(example: example, on: true) }
    }

    /// A value that does not fit its setting; `Configuration` adds the file and the line.
    struct Problem: Error {
        let key: String
        let reason: String
    }

    /// The key in `.vclint.yml` and in the JSON report.
    public let key: String
    /// What it takes, as the reference names it ("number from 0 to 86400").
    public let type: String
    /// What it means, in one line.
    public let meaning: String
    /// The rules whose findings it changes, the one it is chiefly for first (the starter shows it in
    /// that rule's section): it is also accepted in their sections (`late_dealloc: {leak_grace_seconds:
    /// 5}`) and `vclint rules` shows it on their rows. Empty for a general setting.
    /// `SettingsTableTests.eachRuleListIsTheRulesTheSettingChanges` proves each list against the code.
    public let rules: [String]
    /// Whether the JSON report's `configuration` records it under its key.
    public let isRecorded: Bool
    let starter: Starter
    /// The name of its command-line option (`leak-grace-seconds` for `--leak-grace-seconds`), which
    /// wins over the file; nil when it has none. Its help and its checks come from this row.
    public private(set) var flag: String?

    // The kind and the landing, with the value's type erased so that one table holds every setting.
    let parseValue: @Sendable (_ yaml: Any, _ key: String) throws(Problem) -> any Sendable
    let landValue: (@Sendable (_ value: any Sendable, _ options: inout LintOptions) -> Void)?
    let valueInOptions: (@Sendable (LintOptions) -> JSONValue)?
    let readValue: @Sendable (_ json: Any?, _ key: String) throws(ReportReadError.Reason) -> JSONValue
    let wordDifference: @Sendable (_ here: JSONValue, _ there: JSONValue, _ place: String) -> String
    /// The kind: how a flag's text is read (`ArgumentKind`); tests read a number's range from it.
    let kind: any SettingKind

    init<Kind: SettingKind>(_ key: String, _ kind: Kind, rules: [String] = [], lands landing: Landing<Kind.Value>,
                            _ meaning: String, starter: Starter) {
        self.key = key
        type = kind.name
        self.meaning = meaning
        self.rules = rules
        self.starter = starter
        self.kind = kind
        parseValue = { yaml, key throws(Problem) in try kind.parse(yaml, key: key) }
        readValue = { json, key throws(ReportReadError.Reason) in try kind.read(json, key: key) }
        wordDifference = { here, there, place in kind.difference(key, here: here, there: there, place) }
        switch landing {
        case .options(let path), .display(let path):
            landValue = { value, options in options[keyPath: path] = value as! Kind.Value }
            valueInOptions = { options in kind.json(options[keyPath: path]) }
            if case .options = landing { isRecorded = true } else { isRecorded = false }
        case .ruleSwitch, .fileSelection:
            landValue = nil
            valueInOptions = nil
            isRecorded = false
        }
    }

    /// A setting with a command-line flag: `--FLAG VALUE`, read by the kind's own reader, sets what the
    /// key sets (a lint option, since a flag must land somewhere the report records, or a `display` one).
    init<Kind: ArgumentKind>(_ key: String, _ kind: Kind, rules: [String] = [], lands path: WritableKeyPath<LintOptions, Kind.Value> & Sendable,
                             display: Bool = false, _ meaning: String, starter: Starter, flag: String) {
        self.init(key, kind, rules: rules, lands: display ? .display(path) : .options(path), meaning, starter: starter)
        self.flag = flag
    }

    /// The value `options` hold for it, as the report records it; nil when it is not a lint option.
    public func value(in options: LintOptions) -> JSONValue? { valueInOptions?(options) }

    /// Its value when no configuration sets it; nil when it is not a lint option (an empty list).
    public var defaultValue: JSONValue? { value(in: LintOptions()) }

    /// The settings the JSON report records, in the order it writes them.
    public static let recorded = all.filter(\.isRecorded)

    /// The setting whose key is `key`.
    public static func named(_ key: String) -> Setting? { all.first { $0.key == key } }

    /// The settings that have a command-line flag, in the table's order.
    public static let flagged = all.filter { $0.flag != nil }

    /// The parameters of a rule: the settings its section accepts.
    public static func parameters(of rule: String) -> [Setting] { all.filter { $0.rules.contains(rule) } }

    /// A value as a person reads it: `3`, `^UI, ^_UI`, `none`.
    public static func text(_ value: JSONValue?) -> String {
        switch value {
        case nil: return "none"
        case .array(let items)?: return items.isEmpty ? "none" : items.map { text($0) }.joined(separator: ", ")
        case .string(let s)?: return s
        case .object(let pairs)?: return pairs.isEmpty ? "none" : pairs.map { "\($0.0): " + flow($0.1) }.joined(separator: ", ")
        case let other?: return other.serialized(pretty: false)
        }
    }

    /// A value inside a mapping, as YAML's flow style writes it: `{max: 1, classes: [A, B]}`.
    private static func flow(_ value: JSONValue) -> String {
        switch value {
        case .array(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let pairs): return "{" + pairs.map { "\($0.0): " + flow($0.1) }.joined(separator: ", ") + "}"
        case .string(let s): return s
        default: return value.serialized(pretty: false)
        }
    }
}

// MARK: - The reference

extension Setting {
    /// What a rule's section (`RULE_ID: {…}`) takes, in words: severity, and which rules have which parameters.
    static var ruleSectionMeaning: String {
        let parameters = all.filter { !$0.rules.isEmpty }.map { s in
            "\(s.key) for \(s.rules.count == 1 ? s.rules[0] : s.rules.dropLast().joined(separator: ", ") + " and " + s.rules.last!)"
        }
        return "per rule: severity (error, warning, info), and its parameters: " + parameters.joined(separator: ", ")
    }

    /// The reference table of docs/configuration.md (a test keeps the file's copy equal to it).
    public static func referenceTable() -> String {
        func code(_ s: String) -> String { "`\(s)`" }
        var out = "| key | value | default | rules | meaning |\n| --- | --- | --- | --- | --- |\n"
        for s in all {
            let rules = s.rules.isEmpty ? "—" : s.rules.map(code).joined(separator: ", ")
            let value = s.defaultValue.map { text($0) } ?? "none"
            let flag = s.flag == nil ? "" : "; on the command line \(code(s.option))"
            out += "| \(code(s.key)) | \(s.type) | \(value == "none" ? value : code(value)) | \(rules) | \(s.meaning)\(flag) |\n"
        }
        out += "| `RULE_ID` | mapping | none | that rule | \(ruleSectionMeaning) |\n"
        return out
    }
}

// MARK: - The command line

extension Setting {
    /// A flag's value that its setting does not take.
    public struct ArgumentError: Error, CustomStringConvertible {
        /// `--leak-grace-seconds must be a number of seconds from 0 to 86400, not '0x10'`
        public let description: String
    }

    /// `--leak-grace-seconds`.
    public var option: String { "--" + (flag ?? key) }

    /// What the flag takes ("number of seconds from 0 to 86400").
    var argumentName: String { (kind as? any ArgumentKind)?.argumentName ?? type }

    /// What the flag's help says, all from this row: the meaning, what it takes, the default, and
    /// the key it overrides.
    public var flagHelp: String {
        "\(Self.sentence(meaning)). A \(argumentName), default \(Self.text(defaultValue)); wins over \(key) in \(Configuration.fileName)."
    }

    /// Checks a flag's text, as the settings' kind reads it.
    public func checkArgument(_ text: String) throws(ArgumentError) {
        _ = try argument(text)
    }

    /// Sets `options` from the flag's text; the flag wins over the file, whose values are already in `options`.
    public func apply(argument text: String, to options: inout LintOptions) throws(ArgumentError) {
        landValue?(try argument(text), &options)
    }

    private func argument(_ text: String) throws(ArgumentError) -> any Sendable {
        guard let value = (kind as? any ArgumentKind)?.parse(argument: text) else {
            throw ArgumentError(description: "\(option) must be a \(argumentName), not '\(text)'")
        }
        return value
    }

    /// A phrase of the table as the start of a sentence: its first letter capitalised.
    static func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
