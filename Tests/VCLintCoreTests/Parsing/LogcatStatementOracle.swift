import Foundation
@testable import VCLintCore

/// The String-based reader of logcat statements that `LogcatStatement` replaced with readers by bytes, kept verbatim as
/// the oracle the byte readers are compared with (`LogcatStatementEquivalenceTests`): same events, same frames, same
/// mentions, on every spelling docs/lifecycle.md lists and on generated noise.
enum LogcatStatementOracle {
    /// The statement of one message (with its line's tag, when the format has one), or nil.
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?) -> Event? {
        let tagText = tag.map { String(decoding: $0, as: UTF8.self) }
        if let t = tagText, t.hasSuffix("_called"), t.hasPrefix("am_on_") || t.hasPrefix("wm_on_") {
            return eventLog(t, m)
        }
        if let t = tagText, let death = processDeath(t, m) { return death }
        // A format without tags (`thread`): the system's wordings alone.
        if tagText == nil, let death = processDeath("ActivityManager", m) ?? processDeath("Zygote", m) { return death }
        if LogcatStatement.contains(m, LogcatStatement.misuseText) { return misuse(m) }
        if tagText == "FragmentManager" { return fragmentManager(m) }
        // The objects' reader has no String oracle of its own (LogcatTests pin its readings).
        return statement(m, tag: tagText.map(simpleName)) ?? LogcatObjectStatement.read(m, tag: tag.map(LogcatStatement.simpleName))
    }

    /// A line without an envelope that still says something: androidx's exception in a multi-line crash copy.
    static func continuation(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
        LogcatStatement.contains(line, LogcatStatement.misuseText) ? misuse(line) : nil
    }

    /// `am_on_resume_called: [0,com.example/.MainActivity,RESUME_ACTIVITY]`, `wm_on_create_called:
    /// [164222498,com.example.MainActivity,performCreate]`: the component's simple name; for `wm_`, the
    /// number before the component is the activity record's token.
    static func eventLog(_ tag: String, _ m: UnsafeBufferPointer<UInt8>) -> Event? {
        let verb = String(tag.dropFirst(6).dropLast(7))
        guard let kind = LogcatStatement.eventLogCallbacks[verb] else { return nil }
        let text = String(decoding: m, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " []"))
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ")) }
        guard let at = fields.firstIndex(where: { $0.contains(".") && $0.first.map { $0.isLetter } == true }) else { return nil }
        var token: UInt64?
        if tag.hasPrefix("wm_"), at > 0, let t = UInt64(fields[at - 1]) { token = t }
        var e = Event(kind: kind, className: simpleName(fields[at].replacingOccurrences(of: "/", with: "")), address: token, dialect: .eventLog)
        e.address = token
        return e
    }

    /// The system's line that a process died: `ActivityManager: Process com.example.app (pid 3975) has died: fg TOP`,
    /// `am_proc_died: [0,3975,com.example.app,…]`, `am_kill: [0,3975,com.example.app,…]`, `Zygote: Process 3975
    /// exited due to signal 9`.
    static func processDeath(_ tag: String, _ m: UnsafeBufferPointer<UInt8>) -> Event? {
        let text = String(decoding: m, as: UTF8.self)
        var pid: Int?, name = ""
        switch tag {
        case "am_proc_died", "am_kill":
            let fields = text.trimmingCharacters(in: CharacterSet(charactersIn: " []")).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 3 else { return nil }
            pid = Int(fields[1])
            name = fields[2]
        case "ActivityManager", "ActivityTaskManager":
            guard text.hasPrefix("Process "), text.contains(" has died"), let open = text.range(of: "(pid ") else { return nil }
            pid = Int(text[open.upperBound...].prefix { $0.isNumber })
            name = String(text.dropFirst(8).prefix { $0 != " " })
        case "Zygote":
            guard text.hasPrefix("Process "), text.contains(" exited due to signal") else { return nil }
            pid = Int(text.dropFirst(8).prefix { $0.isNumber })
        default:
            return nil
        }
        guard let pid, pid > 0 else { return nil }
        return Event(kind: .processDied, className: name, address: UInt64(pid), dialect: .logcat)
    }

    /// `moveto CREATED: MainFragment{a14e02b} (c2d8991a-… id=0x7f0a0224)`.
    static func fragmentManager(_ m: UnsafeBufferPointer<UInt8>) -> Event? {
        let text = String(decoding: m, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 2)
        guard words.count == 3, words[1].hasSuffix(":") else { return nil }
        let state = String(words[1].dropLast())
        let table = words[0] == "moveto" ? LogcatStatement.moveTo : words[0] == "movefrom" ? LogcatStatement.moveFrom : [:]
        guard let kind = table[state], let (name, address) = described(Substring(words[2])) else { return nil }
        return Event(kind: kind, className: name, address: address, dialect: .logcat)
    }

    /// `Name{hex…}` at the start of `s`: the class's simple name and the hex.
    static func described(_ s: Substring) -> (String, UInt64?)? {
        guard let brace = s.firstIndex(of: "{") else { return nil }
        let name = String(s[..<brace])
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        let hex = s[s.index(after: brace)...].prefix { $0.isHexDigit }
        return (simpleName(name), UInt64(hex, radix: 16))
    }

    /// androidx's exception: the fragment `for X{…}` names, else a class the stage takes from the first app frame.
    static func misuse(_ m: UnsafeBufferPointer<UInt8>) -> Event {
        let text = String(decoding: m, as: UTF8.self)
        var name = "", address: UInt64?
        if let r = text.range(of: " for "), let (n, a) = described(text[r.upperBound...]) { (name, address) = (n, a) }
        var e = Event(kind: .fragmentViewMisuse, className: name, dialect: .logcat)
        e.address = address
        return e
    }

    /// The class of an app's stack frame (`at com.example.ui.FeedFragment.onCreateDialog(FeedFragment.kt:148)`),
    /// nil for a framework's (`androidx.`, `android.`, `java.`, `kotlin.`, `dalvik.`, `com.android.`).
    static func appFrameClass(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        // Most lines are no frame: `at ` after white space, by bytes, before any String is made.
        var i = 0
        while i < line.count, line[i] == .space || line[i] == .tab { i += 1 }
        guard i + 3 < line.count, line[i] == UInt8(ascii: "a"), line[i + 1] == UInt8(ascii: "t"), line[i + 2] == .space else { return nil }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard text.hasPrefix("at "), let paren = text.firstIndex(of: "(") else { return nil }
        let qualified = text[text.index(text.startIndex, offsetBy: 3)..<paren]
        for framework in ["androidx.", "android.", "java.", "javax.", "kotlin.", "kotlinx.", "dalvik.", "com.android.", "com.google.android."]
        where qualified.hasPrefix(framework) { return nil }
        guard let dot = qualified.lastIndex(of: ".") else { return nil }
        let cls = simpleName(String(qualified[..<dot]))
        return cls.isEmpty ? nil : cls.split(separator: "$").first.map(String.init)
    }

    /// `com.example.MainActivity` → `MainActivity`.
    /// Whether a message that is no statement still names a callback as a word (`screen MainActivity lifecycle onCreate
    /// fired`): such a line counts as unread, so that a capture in a shape vclint cannot read never looks clean
    /// (docs/lifecycle.md#mentions-and-unread-lines). A stack frame (`at com.example.MainActivity.onCreate(…)`) is not one.
    static func mentionsCallback(_ m: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < m.count, m[i] == .space || m[i] == .tab { i += 1 }
        if i + 3 <= m.count, m[i] == UInt8(ascii: "a"), m[i + 1] == UInt8(ascii: "t"), m[i + 2] == .space { return false }
        var k = i
        while k < m.count {
            // A word: letters, digits and underscores after a non-word byte.
            guard ByteCursor.isWord(m[k]), k == 0 || !ByteCursor.isWord(m[k - 1]) else { k += 1; continue }
            var e = k
            while e < m.count, ByteCursor.isWord(m[e]) { e += 1 }
            if e - k >= 6, e - k <= 24, m[k] == UInt8(ascii: "o") || m[k] == UInt8(ascii: "O"),
               LogcatStatement.callbacks[String(decoding: UnsafeBufferPointer(rebasing: m[k..<e]), as: UTF8.self)] != nil {
                return true
            }
            k = e
        }
        return false
    }

    static func simpleName(_ s: String) -> String {
        guard let dot = s.lastIndex(of: ".") else { return s }
        return String(s[s.index(after: dot)...])
    }

    // MARK: - An app's statement

    /// `[decoration] [label [id]] [separator] callback [(…)] [called | : argument]`: the callback whole, at most one
    /// label before it (else the tag names the class), nothing but an argument or decoration after it.
    static func statement(_ m: UnsafeBufferPointer<UInt8>, tag: String?) -> Event? {
        var i = 0
        let n = m.count
        skipDecoration(m, &i)
        guard let first = identifier(m, &i) else { return nil }
        var label: String?
        var kind: EventKind?
        var address: UInt64?
        if let k = LogcatStatement.callbacks[first] {
            kind = k
        } else if let dot = first.lastIndex(of: "."), let k = LogcatStatement.callbacks[String(first[first.index(after: dot)...])] {
            kind = k
            label = simpleName(String(first[..<dot]))
        } else {
            label = simpleName(first)
            address = id(m, &i)
            let before = i
            skipSeparator(m, &i)
            guard i > before || address != nil, let second = identifier(m, &i), let k = LogcatStatement.callbacks[second] else { return nil }
            kind = k
        }
        guard let kind, rest(m, i, n) else { return nil }
        let name: String
        if let label, !label.isEmpty, !LogcatStatement.loggerTags.contains(label) {
            name = label
        } else {
            guard let tag, !tag.isEmpty, !LogcatStatement.loggerTags.contains(tag), tag.first.map({ $0.isLetter }) == true else { return nil }
            name = tag
        }
        var e = Event(kind: kind, className: name, dialect: .logcat)
        e.address = address
        return e
    }

    /// Arrows, emoji and punctuation before a statement (`⟳ `, `--> `, `[`).
    private static func skipDecoration(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < m.count, !(isIdentifierStart(m[i])) { i += 1 }
    }

    private static func skipSeparator(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < m.count, m[i] == .space || m[i] == .colon || m[i] == .hyphen || m[i] == .greater || m[i] == .hash
            || m[i] == .pipe || m[i] == .dot || m[i] >= 0x80 { i += 1 }
    }

    @inline(__always) private static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore
    }

    /// A Java name, dotted or not (`MainActivity`, `com.example.MainActivity`, `Outer$Inner`).
    private static func identifier(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> String? {
        guard i < m.count, isIdentifierStart(m[i]) else { return nil }
        let s = i
        while i < m.count, ByteCursor.isWord(m[i]) || m[i] == .dollar || (m[i] == .dot && i + 1 < m.count && isIdentifierStart(m[i + 1])) { i += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: m[s..<i]), as: UTF8.self)
    }

    /// An instance id right after a label: `@b8fe3a6`, `{a14e02b}`, ` [1384162984]`.
    private static func id(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64? {
        var k = i
        if k < m.count, m[k] == UInt8(ascii: "@") {
            k += 1
            let s = k
            while k < m.count, ByteCursor.isHex(m[k]) { k += 1 }
            // The id is a word of its own: a letter or `_` right after it makes it part of a longer word.
            if k < m.count, ByteCursor.isWord(m[k]) { return nil }
            guard k > s, let v = UInt64(String(decoding: UnsafeBufferPointer(rebasing: m[s..<k]), as: UTF8.self), radix: 16) else { return nil }
            i = k
            return v
        }
        while k < m.count, m[k] == .space { k += 1 }
        guard k < m.count, m[k] == .openBrace || m[k] == .openBracket else { return nil }
        let close: UInt8 = m[k] == .openBrace ? .closeBrace : .closeBracket
        let hex = m[k] == .openBrace
        k += 1
        let s = k
        while k < m.count, hex ? ByteCursor.isHex(m[k]) : ByteCursor.isDigit(m[k]) { k += 1 }
        guard k > s, k - s <= 16 else { return nil }
        let v = UInt64(String(decoding: UnsafeBufferPointer(rebasing: m[s..<k]), as: UTF8.self), radix: hex ? 16 : 10)
        while k < m.count, m[k] != close, k - s < 200 { k += 1 }
        guard k < m.count else { return nil }
        i = k + 1
        return v
    }

    /// What may follow the callback: nothing, a signature, `called`, `: argument` (`onDestroy:1`), decoration.
    private static func rest(_ m: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Bool {
        var i = start
        if i < n, m[i] == .openParen {
            var depth = 0
            while i < n {
                if m[i] == .openParen { depth += 1 } else if m[i] == .closeParen { depth -= 1; if depth == 0 { i += 1; break } }
                i += 1
            }
        }
        while i < n, m[i] == .space { i += 1 }
        if i == n { return true }
        if m[i] == .colon || m[i] == .equals { return true }
        let tail = String(decoding: UnsafeBufferPointer(rebasing: m[i..<n]), as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " .!"))
        if tail == "called" || tail == "() called" || tail == "was called" || tail == "is called" { return true }
        if tail.split(separator: " ").allSatisfy({ $0.contains("=") && $0.first.map { ($0.asciiValue ?? 0) | 0x20 >= 97 && ($0.asciiValue ?? 0) | 0x20 <= 122 } == true }) {
            return true
        }
        // Decoration only: no letter or digit left.
        return !tail.utf8.contains { ByteCursor.isWord($0) }
    }

}

/// The String-based readings of LeakCanary's watch, of an end of use's name and of the system's `Displayed` line that
/// `LeakCanaryReader` and `AndroidEvidence` replaced with readings by bytes, kept verbatim as their oracle.
enum LeakCanaryOracle {
    static func watch(_ t: Substring, line: Int) -> LeakCanaryReader.Watch? {
        // ` with key ` found from the end by bytes (Foundation's backwards search cost a fifth of a LeakCanary-heavy lint).
        let u = t.utf8
        let needle = Array(" with key ".utf8)
        var found: String.Index?
        var j = u.endIndex
        var matched = needle.count
        while j > u.startIndex {
            j = u.index(before: j)
            if u[j] == needle[matched - 1] {
                matched -= 1
                if matched == 0 { found = j; break }
            } else {
                // Restart after a mismatch (the needle's bytes do not repeat its last byte's prefix).
                if matched != needle.count { j = u.index(j, offsetBy: needle.count - matched); matched = needle.count }
            }
        }
        guard let start = found else { return nil }
        let withKey = start..<u.index(start, offsetBy: needle.count)
        let key = t[withKey.upperBound...].prefix { !$0.isWhitespace }
        var head = t[..<withKey.lowerBound], reason: Substring = ""
        if head.hasSuffix(")"), let open = head.firstIndex(of: "(") {
            reason = head[head.index(after: open)..<head.index(before: head.endIndex)]
            head = dropTrailingSpaces(head[..<open])
        }
        guard !head.isEmpty, !head.contains(" ") else { return nil }
        return LeakCanaryReader.Watch(className: LeakCanaryReader.capped(head), endOfUse: endOfUse(naming: reason), reason: LeakCanaryReader.capped(reason), key: LeakCanaryReader.capped(key), line: line)
    }

    static func endOfUse(naming text: Substring) -> LeakCanaryReader.EndOfUse {
        for e in [LeakCanaryReader.EndOfUse.activityDestroyed, .fragmentViewDestroyed, .fragmentDestroyed, .viewModelCleared, .rootViewDetached,
                  .serviceDestroyed] where text.contains(e.rawValue) {
            return e
        }
        return text.contains("Activity#mDestroyed is true") ? .activityDestroyed : .other
    }

    private static func dropTrailingSpaces(_ s: Substring) -> Substring {
        var s = s
        while s.last == " " { s = s.dropLast() }
        return s
    }

    static func displayed(_ m: UnsafeBufferPointer<UInt8>) -> AndroidEvidence? {
        let text = String(decoding: m, as: UTF8.self)
        guard text.hasPrefix("Displayed "), let slash = text.firstIndex(of: "/") else { return nil }
        let package = text[text.index(text.startIndex, offsetBy: 10)..<slash]
        let component = text[text.index(after: slash)...].prefix { $0 != " " && $0 != ":" }
        guard !package.isEmpty, !package.contains(" "), !component.isEmpty,
              let plus = text.range(of: ": +") else { return nil }
        var ms = 0, value = 0, sawDigit = false
        var i = plus.upperBound
        while i < text.endIndex {
            let c = text[i]
            if let d = c.wholeNumberValue, c.isASCII { value = value * 10 + d; sawDigit = true; if value > 1 << 40 { return nil } }
            else if text[i...].hasPrefix("ms") { ms += value; value = 0; break }
            else if c == "s" { ms += value * 1000; value = 0 }
            else if c == "m" { ms += value * 60_000; value = 0 }
            else { break }
            i = text.index(after: i)
        }
        guard sawDigit else { return nil }
        let qualified = component.hasPrefix(".") ? String(package) + String(component) : String(component)
        return AndroidEvidence.displayed(className: String(LogcatStatement.simpleName(qualified)), package: String(package), milliseconds: ms)
    }

}
