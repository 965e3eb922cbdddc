import Foundation

/// A `// vclint:disable RULE… — reason` comment in the app's sources (`--source-root`,
/// docs/configuration.md#suppressions-in-the-source): on or just above a class declaration it turns the
/// named rules off for that class; `// vclint:disable-next-line RULE… — reason` before a `deinit`,
/// `dealloc` or callback inside a class turns them off for the findings about that callback.
public struct SuppressionComment: Sendable, Equatable {
    public enum Scope: String, Sendable, Equatable {
        /// `vclint:disable`: the class declared on its line or just below it.
        case declaration
        /// `vclint:disable-next-line`: the method declared on the next code line.
        case nextLine
    }

    public var path: String
    public var line: Int
    public var scope: Scope
    /// The rule ids it names, as written.
    public var rules: [String]
    /// What follows the rule ids and a dash (`—`, `–`, `--` or `-`); nil when nothing does.
    public var reason: String?
    /// The class it applies to: the one declared there (`.declaration`), the one whose body holds it
    /// (`.nextLine`); nil when there is none, so it silences nothing.
    public var className: String?
    /// For `.nextLine`: the callback declared on the next code line (`dealloc` for a `deinit`); nil when
    /// that line declares none, so it silences nothing.
    public var callback: String?

    /// Why it is invalid (it then silences nothing): no rule, an unknown rule, no reason; nil when valid.
    public var problem: String? {
        if rules.isEmpty { return "it names no rule" }
        if let unknown = rules.first(where: { RuleRegistry.description(of: $0) == nil }) { return RuleRegistry.unknown(unknown) }
        if reason == nil { return "it gives no reason after the rule ids" }
        return nil
    }

    /// The dashes that end the rule ids; the first found wins.
    static let separators = ["—", "–", " -- ", " - "]

    /// The comment on `line`, if it holds one: `vclint:disable` or `vclint:disable-next-line`, after `//`
    /// or `/*`, anywhere on the line (a declaration may carry it at its end).
    static func parse(_ line: Substring, path: String, number: Int) -> SuppressionComment? {
        guard let marker = line.range(of: "vclint:disable"),
              let opener = line.range(of: "//") ?? line.range(of: "/*"), opener.upperBound <= marker.lowerBound else { return nil }
        var rest = line[marker.upperBound...]
        let scope: Scope
        if rest.hasPrefix("-next-line") {
            scope = .nextLine
            rest = rest.dropFirst("-next-line".count)
        } else {
            scope = .declaration
        }
        // `vclint:disable` must end there (not `vclint:disabled`).
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" || rest.first == ":" else { return nil }
        if rest.hasSuffix("*/") { rest = rest.dropLast(2) }
        var ids = rest, reason: String?
        let cut = separators.compactMap { rest.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
        if let cut {
            ids = rest[..<cut.lowerBound]
            let text = rest[cut.upperBound...].trimmingCharacters(in: .whitespaces)
            reason = text.isEmpty ? nil : text
        }
        let rules = ids.split { $0 == " " || $0 == "\t" || $0 == "," || $0 == ":" }.map(String.init)
        return SuppressionComment(path: path, line: number, scope: scope, rules: rules, reason: reason)
    }

    /// The callback a code line declares: `deinit` and `- (void)dealloc` are `dealloc`; `func NAME(` and
    /// an Objective-C method `- (…)NAME` or `- (…)NAME:` are NAME.
    static func declaredCallback(_ line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.hasPrefix("deinit") { return "dealloc" }
        func name(_ s: Substring) -> String? {
            let n = String(s.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            return n.isEmpty ? nil : n
        }
        if trimmed.hasPrefix("-"), let close = trimmed.firstIndex(of: ")") {
            return name(trimmed[trimmed.index(after: close)...].drop { $0 == " " })
        }
        guard let f = trimmed.range(of: "func ") else { return nil }
        let before = trimmed[..<f.lowerBound].split(separator: " ")
        let modifiers: Set<Substring> = ["override", "public", "open", "internal", "fileprivate", "private", "final", "@objc", "@MainActor", "dynamic"]
        guard before.allSatisfy({ modifiers.contains($0) }) else { return nil }
        return name(trimmed[f.upperBound...])
    }
}

/// Reads one source file's suppression comments a line at a time (one pass, a few comments held):
/// which class each applies to, and for `disable-next-line`, which callback.
struct SuppressionReader {
    let path: String
    private var done: [SuppressionComment] = []
    /// `vclint:disable` comments in the run of comment and attribute lines just above this line.
    private var above: [SuppressionComment] = []
    /// `vclint:disable-next-line` comments waiting for the next code line.
    private var nextLine: [SuppressionComment] = []
    /// The class whose body the line is in: the latest declared.
    private var currentClass: String?

    init(path: String) { self.path = path }

    mutating func read(_ line: Substring, number: Int, declaring declared: String?) {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        let comment = SuppressionComment.parse(line, path: path, number: number)
        let isComment = trimmed.hasPrefix("//") || trimmed.hasPrefix("/*") || trimmed.hasPrefix("*")
        if let declared {
            currentClass = declared
            for var c in above + (comment.map { [$0] } ?? []) {
                if c.scope == .declaration { c.className = declared }
                done.append(c)
            }
            above = []
            flushNextLine(callback: nil)
            return
        }
        if var c = comment {
            if c.scope == .nextLine {
                c.className = currentClass
                nextLine.append(c)
            } else if isComment {
                above.append(c)
            } else {
                done.append(c)  // at the end of a line that declares no class: applies to nothing
            }
            if !isComment { flushNextLine(callback: SuppressionComment.declaredCallback(line)) }
            return
        }
        if isComment { return }
        if trimmed.hasPrefix("@"), !trimmed.contains(" ") || trimmed.hasPrefix("@objc") || trimmed.hasPrefix("@MainActor") { return }  // an attribute line
        if !trimmed.isEmpty || !above.isEmpty {
            done += above
            above = []
        }
        if !trimmed.isEmpty { flushNextLine(callback: SuppressionComment.declaredCallback(line)) }
    }

    private mutating func flushNextLine(callback: String?) {
        for var c in nextLine {
            c.callback = callback
            done.append(c)
        }
        nextLine = []
    }

    /// Every comment of the file, in line order.
    mutating func finish() -> [SuppressionComment] {
        done += above + nextLine
        above = []
        nextLine = []
        return done.sorted { $0.line < $1.line }
    }
}
