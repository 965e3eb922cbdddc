import Foundation

/// A kind of setting value (a number, a list of patterns, …): how `.vclint.yml` writes it, how the
/// JSON report records it and reads it back, and how `merge` words a difference in it. The settings
/// of one kind share it, so a new setting of a known kind brings no parsing code.
protocol SettingKind: Sendable {
    associatedtype Value: Sendable
    /// How the reference names it ("number from 0 to 86400").
    var name: String { get }
    /// The value Yams gave for `key`, or why it is wrong.
    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> Value
    /// The value as the JSON report's `configuration` records it.
    func json(_ value: Value) -> JSONValue
    /// A recorded value read back from a report (as JSONSerialization gives it), as `json` wrote it.
    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue
    /// Why two runs differ, for `merge`'s refusal ("leak_grace_seconds is 5 here, 3 there").
    func difference(_ key: String, here: JSONValue, there: JSONValue, _ place: String) -> String
    /// What a value may be, as JSON Schema (draft 2020-12) says it: docs/schemas/vclint-yml.schema.json.
    var schema: JSONValue { get }
}

/// Most kinds are recorded as a list of strings, and a difference in one is not worth spelling out.
extension SettingKind {
    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue {
        guard let list = json as? [Any], list.allSatisfy({ $0 is String }) else {
            throw .malformed("\"configuration.\(key)\" is not a list of strings")
        }
        return .array(list.map { .string($0 as! String) })
    }

    func difference(_ key: String, here: JSONValue, there: JSONValue, _ place: String) -> String {
        "\(key) differ from those \(place)"
    }

    /// One string or a list of them (`ignore_classes: ^UI` is `[^UI]`).
    func strings(_ yaml: Any, key: String) throws(Setting.Problem) -> [String] {
        if let one = yaml as? String { return [one] }
        guard let list = yaml as? [Any], list.allSatisfy({ $0 is String }) else {
            throw Setting.Problem(key: key, reason: "expected a list of strings")
        }
        return list.map { $0 as! String }
    }
}

/// A kind a command-line flag can take (`Setting.flag`): its value read from the flag's text by the
/// same reader as from `.vclint.yml`, so that the flag and the file take and refuse the same values.
protocol ArgumentKind: SettingKind {
    /// The flag's value, or nil when the text is not one.
    func parse(argument text: String) -> Value?
    /// What the flag takes, for its help and its error ("number of seconds from 0 to 86400").
    var argumentName: String { get }
}

/// A non-negative number within a range (`SettingRange`): a duration, a threshold.
struct NumberKind: SettingKind, ArgumentKind {
    let range: ClosedRange<Double>
    /// What it counts, for a flag's help and error ("seconds").
    let unit: String

    var name: String { "number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))" }
    var schema: JSONValue { .object([("type", .string("number")), ("minimum", .double(range.lowerBound)), ("maximum", .double(range.upperBound))]) }
    var argumentName: String { "number of \(unit) from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))" }

    /// The one reader of a number, for the file and the command line alike: a plain decimal (an
    /// optional sign, digits, an optional fraction: `12`, `+12`, `0.5`, `.5`, `5.`) within the range.
    /// YAML's other spellings (`0x10`, `0o17`, `1_000`, `1:30`, which YAML reads as 90, `1e3`, `.inf`)
    /// and Double's (`0x1p16`, `nan`) are refused, as the docs say; `017` is 17 (YAML read 15, in
    /// octal). A negative zero (`-0.0`) is refused as a negative number is (it printed "grace -0.0 s").
    func number(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard Self.isPlainDecimal(trimmed), let n = Double(trimmed), n.isFinite, range.contains(n),
              n.sign == .plus || range.lowerBound < 0 else { return nil }
        return n
    }

    /// An optional sign, digits, and an optional fraction: `12`, `+12`, `-1.5`, `.5`, `5.`.
    static func isPlainDecimal(_ text: String) -> Bool {
        var digits = 0, dots = 0
        for (i, b) in text.utf8.enumerated() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case .dot: dots += 1
            case .plus, .hyphen: if i != 0 { return false }
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }

    /// A YAML number, read from its text (`YAMLNumber`); a string (`'5'`), a list or `true` is none.
    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> Double {
        guard let written = yaml as? YAMLNumber, let n = number(written.text) else {
            throw Setting.Problem(key: key, reason: "expected a \(name)")
        }
        return n
    }

    func parse(argument text: String) -> Double? { number(text) }

    /// `86400`, `0.5`: a bound as the reference writes it.
    static func plain(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }

    func json(_ value: Double) -> JSONValue { .double(value) }

    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue {
        if let i = json as? Int { return .double(Double(i)) }
        guard let d = json as? Double else { throw .malformed("\"configuration.\(key)\" is not a number") }
        return .double(d)
    }

    func difference(_ key: String, here: JSONValue, there: JSONValue, _ place: String) -> String {
        "\(key) is \(here.serialized()) here, \(there.serialized()) \(place)"
    }
}

/// Rule ids, each one this vclint has.
struct RuleIDListKind: SettingKind {
    var name: String { "list of rule ids" }
    var schema: JSONValue { SchemaText.listOf(.object([("enum", .array(RuleRegistry.identifiers.map { .string($0) }))])) }

    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> [String] {
        let ids = try strings(yaml, key: key)
        for id in ids where RuleRegistry.description(of: id) == nil {
            throw Setting.Problem(key: key, reason: "\(RuleRegistry.unknown(id)) (`vclint rules` lists them)")
        }
        return ids
    }

    func json(_ value: [String]) -> JSONValue { .array(value.map { .string($0) }) }
}

/// PCRE2 patterns over class names, compiled once here under match and depth limits
/// (`UserPatternLimits`): a pattern that hits them matches nothing instead of hanging the run, and
/// the class names it gave up on are counted (`InputStats.classPatternLimitHits`). A text listed twice (an alias) is
/// kept once: the list matches the same classes, and each class is not tried against it again.
struct PatternListKind: SettingKind {
    var name: String { "list of PCRE2 patterns" }
    var schema: JSONValue { SchemaText.listOf(SchemaText.string) }

    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> [PCRE2Pattern] {
        var out: [PCRE2Pattern] = []
        var seen: Set<String> = []
        for (i, p) in try strings(yaml, key: key).enumerated() where seen.insert(p).inserted {
            do {
                out.append(try PatternCache.pattern(p, matchLimit: UserPatternLimits.match, matchLimitPerByte: UserPatternLimits.matchPerByte,
                                                    depthLimit: UserPatternLimits.depth))
            } catch let spent as PatternCache.OverBudget {
                throw Setting.Problem(key: "\(key)[\(i + 1)]", reason: spent.description)
            } catch {
                throw Setting.Problem(key: key, reason: "invalid pattern '\(p)': \(error)")
            }
        }
        return out
    }

    func json(_ value: [PCRE2Pattern]) -> JSONValue { .array(value.map { .string($0.source) }) }
}

/// Path globs (`PathGlob`), relative to the configuration's folder.
struct GlobListKind: SettingKind {
    var name: String { "list of path globs" }
    var schema: JSONValue { SchemaText.listOf(SchemaText.string) }
    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> [String] { try strings(yaml, key: key) }
    func json(_ value: [String]) -> JSONValue { .array(value.map { .string($0) }) }
}

/// The app's own message grammars: `{pattern, events}` each (`CustomDialect`).
struct DialectListKind: SettingKind {
    var name: String { "list of {pattern, events}" }
    var schema: JSONValue {
        let kinds = EventKind.allCases.filter { !$0.isUIKitWarning }.map { JSONValue.string($0.rawValue) }
        return .object([("type", .string("array")), ("items", .object([
            ("type", .string("object")), ("required", .array([.string("pattern"), .string("events")])), ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("pattern", .object([("type", .string("string")), ("description", .string("a PCRE2 pattern with named groups class and event (address optional)"))])),
                ("events", .object([("type", .string("object")), ("description", .string("each captured event text and the event kind it is")),
                                    ("additionalProperties", .object([("enum", .array(kinds))]))])),
            ])),
        ]))])
    }

    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> [CustomDialect] {
        guard let list = yaml as? [Any] else { throw Setting.Problem(key: key, reason: "expected a \(name)") }
        var out: [CustomDialect] = []
        // A dialect listed twice (an alias) reads no line the first did not: kept once.
        var seen: Set<[String]> = []
        for (i, item) in list.enumerated() {
            let at = "\(key)[\(i + 1)]"
            guard let entry = item as? [String: Any] else { throw Setting.Problem(key: at, reason: "expected {pattern, events}") }
            for k in entry.keys where k != "pattern" && k != "events" {
                throw Setting.Problem(key: "\(at).\(k)", reason: "unknown key (expected pattern, events)")
            }
            guard let pattern = entry["pattern"] as? String else {
                throw Setting.Problem(key: "\(at).pattern", reason: "expected a PCRE2 pattern string")
            }
            guard let events = entry["events"] as? [String: Any] else {
                throw Setting.Problem(key: "\(at).events", reason: "expected a mapping from event text to event kind")
            }
            var map: [String: String] = [:]
            for (text, kind) in events {
                guard let k = kind as? String else { throw Setting.Problem(key: "\(at).events.\(text)", reason: "expected an event kind name") }
                map[text] = k
            }
            guard seen.insert([pattern] + map.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }).inserted else { continue }
            do {
                out.append(try CustomDialect(pattern: pattern, events: map))
            } catch {
                throw Setting.Problem(key: at, reason: error.description)
            }
        }
        return out
    }

    /// Events sorted by their text, so that equal dialects are recorded alike.
    func json(_ value: [CustomDialect]) -> JSONValue {
        .array(value.map { d in
            Self.record(pattern: d.pattern.source, events: d.events.map { ($0.key, $0.value.rawValue) })
        })
    }

    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue {
        guard let list = json as? [Any] else { throw .malformed("\"configuration.\(key)\" is not a list") }
        var out: [JSONValue] = []
        for item in list {
            guard let d = item as? [String: Any], let pattern = d["pattern"] as? String, let events = d["events"] as? [String: Any],
                  events.values.allSatisfy({ $0 is String }) else {
                throw .malformed("\"configuration.\(key)\" holds something other than {pattern, events}")
            }
            out.append(Self.record(pattern: pattern, events: events.map { ($0.key, $0.value as! String) }))
        }
        return .array(out)
    }

    func difference(_ key: String, here: JSONValue, there: JSONValue, _ place: String) -> String {
        "the custom dialects differ from those \(place)"
    }

    static func record(pattern: String, events: [(String, String)]) -> JSONValue {
        .object([("pattern", .string(pattern)), ("events", .object(events.sorted { $0.0 < $1.0 }.map { ($0.0, .string($0.1)) }))])
    }
}

/// How many instances may be alive at once (`LifetimeLimits`): a mapping of class names and globs to a
/// maximum, and under `groups` named groups of classes with theirs (`{max, classes}`).
struct LifetimeLimitsKind: SettingKind {
    var name: String { "mapping of classes, globs and groups to a maximum" }
    var schema: JSONValue {
        let maximum = JSONValue.object([("type", .string("integer")), ("minimum", .int(1))])
        let group = JSONValue.object([("type", .string("object")), ("required", .array([.string("max"), .string("classes")])),
                                      ("additionalProperties", .bool(false)),
                                      ("properties", .object([("max", maximum), ("classes", SchemaText.listOf(SchemaText.nonEmptyString, minItems: 1))]))])
        return .object([("type", .string("object")),
                        ("properties", .object([("groups", .object([("type", .string("object")), ("additionalProperties", group)]))])),
                        ("additionalProperties", maximum)])
    }

    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> LifetimeLimits {
        guard let map = yaml as? [String: Any] else {
            throw Setting.Problem(key: key, reason: "expected a mapping of class names, globs and groups to how many instances may be alive at once")
        }
        var limits: [LifetimeLimits.Limit] = []
        for name in map.keys.sorted() where name != "groups" {
            guard !name.isEmpty else { throw Setting.Problem(key: key, reason: "a class name or glob is empty") }
            let max = try Self.maximum(map[name]!, key: "\(key).\(name)")
            limits.append(.init(scope: LifetimeLimits.isGlob(name) ? .glob : .class, name: name, max: max))
        }
        if let groups = map["groups"] {
            guard let groups = groups as? [String: Any] else {
                throw Setting.Problem(key: "\(key).groups", reason: "expected a mapping of group names to {max, classes}")
            }
            for group in groups.keys.sorted() {
                let at = "\(key).groups.\(group)"
                guard let entry = groups[group] as? [String: Any] else { throw Setting.Problem(key: at, reason: "expected {max, classes}") }
                for k in entry.keys.sorted() where k != "max" && k != "classes" {
                    throw Setting.Problem(key: "\(at).\(k)", reason: "unknown key (expected max, classes)")
                }
                guard let maxValue = entry["max"] else {
                    throw Setting.Problem(key: "\(at).max", reason: "a group needs max: how many of its instances may be alive at once")
                }
                let max = try Self.maximum(maxValue, key: "\(at).max")
                guard let listed = entry["classes"] else {
                    throw Setting.Problem(key: "\(at).classes", reason: "a group needs classes: a list of class names or globs")
                }
                let classes = try strings(listed, key: "\(at).classes")
                guard !classes.isEmpty, !classes.contains(where: \.isEmpty) else {
                    throw Setting.Problem(key: "\(at).classes", reason: "a group needs classes: a list of class names or globs, none empty")
                }
                limits.append(.init(scope: .group, name: group, max: max, classes: classes))
            }
        }
        return LifetimeLimits(limits)
    }

    /// A limit's maximum: a whole number, at least 1 (a YAML `true` or `1.5` is not one), as YAML
    /// reads it.
    static func maximum(_ yaml: Any, key: String) throws(Setting.Problem) -> Int {
        guard let n = (yaml as? YAMLNumber)?.value as? Int, n >= 1 else {
            throw Setting.Problem(key: key, reason: "expected a whole number of instances, at least 1")
        }
        return n
    }

    /// `{"DetailViewModel": 1, "groups": {"Players": {"max": 1, "classes": [...]}}}`, keys in order.
    func json(_ value: LifetimeLimits) -> JSONValue {
        var pairs: [(String, JSONValue)] = value.limits.filter { $0.scope != .group }.map { ($0.name, .int($0.max)) }
        let groups = value.limits.filter { $0.scope == .group }
        if !groups.isEmpty {
            pairs.append(("groups", .object(groups.map { g in
                (g.name, .object([("max", .int(g.max)), ("classes", .array(g.classes.map { .string($0) }))]))
            })))
        }
        return .object(pairs)
    }

    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue {
        let malformed = ReportReadError.Reason.malformed("\"configuration.\(key)\" is not a mapping of classes, globs and groups to a maximum")
        guard let map = json as? [String: Any] else { throw malformed }
        var pairs: [(String, JSONValue)] = []
        for name in map.keys.sorted() where name != "groups" {
            guard let n = map[name] as? Int else { throw malformed }
            pairs.append((name, .int(n)))
        }
        if let groups = map["groups"] {
            guard let groups = groups as? [String: Any] else { throw malformed }
            var out: [(String, JSONValue)] = []
            for name in groups.keys.sorted() {
                guard let g = groups[name] as? [String: Any], let max = g["max"] as? Int,
                      let classes = g["classes"] as? [Any], classes.allSatisfy({ $0 is String }) else { throw malformed }
                out.append((name, .object([("max", .int(max)), ("classes", .array(classes.map { .string($0 as! String) }))])))
            }
            pairs.append(("groups", .object(out)))
        }
        return .object(pairs)
    }
}

// The table names kinds as `.number`, `.patterns`, … (static member lookup on the protocol).
extension SettingKind where Self == NumberKind {
    static func number(_ range: ClosedRange<Double>, unit: String) -> Self { Self(range: range, unit: unit) }
}
extension SettingKind where Self == RuleIDListKind { static var ruleIDs: Self { Self() } }
extension SettingKind where Self == PatternListKind { static var patterns: Self { Self() } }
extension SettingKind where Self == GlobListKind { static var globs: Self { Self() } }
extension SettingKind where Self == DialectListKind { static var dialects: Self { Self() } }
extension SettingKind where Self == LifetimeLimitsKind { static var lifetimes: Self { Self() } }

/// Pieces of the settings' JSON Schemas.
enum SchemaText {
    static let string = JSONValue.object([("type", .string("string"))])
    static let nonEmptyString = JSONValue.object([("type", .string("string")), ("minLength", .int(1))])

    /// A list of `item`s, or one written alone (`ignore_classes: '^UI'`), as the parser takes it.
    static func listOf(_ item: JSONValue, minItems: Int = 0) -> JSONValue {
        var list: [(String, JSONValue)] = [("type", .string("array")), ("items", item)]
        if minItems > 0 { list.append(("minItems", .int(minItems))) }
        return .object([("anyOf", .array([item, .object(list)]))])
    }
}

/// Where findings are located (`location`): at their log line, or at their controller's declaration.
struct LocationKind: SettingKind, ArgumentKind {
    var name: String { "log or source" }
    var schema: JSONValue { .object([("enum", .array([.string("log"), .string("source")]))]) }
    var argumentName: String { "location, log or source" }

    func parse(_ yaml: Any, key: String) throws(Setting.Problem) -> FindingLocation {
        guard let text = yaml as? String, let value = FindingLocation(rawValue: text) else {
            throw Setting.Problem(key: key, reason: "expected log or source")
        }
        return value
    }

    func parse(argument text: String) -> FindingLocation? { FindingLocation(rawValue: text) }

    func json(_ value: FindingLocation) -> JSONValue { .string(value.rawValue) }

    func read(_ json: Any?, key: String) throws(ReportReadError.Reason) -> JSONValue {
        guard let text = json as? String, FindingLocation(rawValue: text) != nil else { throw .malformed("\"configuration.\(key)\" is not log or source") }
        return .string(text)
    }
}

extension SettingKind where Self == LocationKind {
    static var location: Self { Self() }
}
