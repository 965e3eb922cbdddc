#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A logcat line that is evidence about instances rather than a callback of one (docs/lifecycle.md#android-evidence):
/// LeakCanary's lines (read in order by `LeakCanaryReader`, which the stage owns), StrictMode's instance counts and
/// the system's `START` and `Displayed` lines. Context-free, like the rest of `LineParser`: the line alone says which it is.
enum AndroidEvidence: Equatable, Sendable {
    /// A line for `LeakCanaryReader`: its message, as the reader takes it.
    case leakCanary(String)
    /// `StrictMode: class com.example.MainActivity; instances=2; limit=1`: after StrictMode's own GC, `instances`
    /// of the class were alive. The class by its simple name.
    case strictMode(className: String, instances: Int, limit: Int)
    /// `ActivityTaskManager: Displayed com.example/.MainActivity: +1s230ms`: the screen's first frame, that long
    /// after its launch. The class by its simple name, the package as printed.
    case displayed(className: String, package: String, milliseconds: Int)
    /// `ActivityTaskManager: START u0 {… cmp=com.example/.MainActivity …} from uid 10123`: the system was asked to
    /// start the Activity (the `startRequested` event). The class by its simple name, the package as printed.
    case startRequested(className: String, package: String)

    /// The package of the app a system line names (`Displayed`, `START`): the line belongs to that app's session.
    var namedPackage: String? {
        switch self {
        case .displayed(_, let package, _), .startRequested(_, let package): package
        case .leakCanary, .strictMode: nil
        }
    }

    /// Longer messages are not evidence (LeakCanary's own lines are short; `LeakCanaryReader` caps what it keeps).
    static let maxMessage = 4096

    /// The evidence in a logcat line's message, given its tag.
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?) -> AndroidEvidence? {
        guard m.count <= maxMessage else { return nil }
        if let tag {
            if equals(tag, "LeakCanary") {
                // (LeakCanary 2.2's note prefix, `14:40:13.697 : `, may stand before its message too.)
                var i = 0
                while i < m.count, m[i] == .space || m[i] == .tab { i += 1 }
                let start = clockPrefix(m, from: i) ?? 0
                return .leakCanary(String(decoding: UnsafeBufferPointer(rebasing: m[start...]), as: UTF8.self))
            }
            if equals(tag, "StrictMode") { return strictMode(m) }
            if equals(tag, "ActivityTaskManager") || equals(tag, "ActivityManager") {
                if let d = displayed(m) ?? startRequested(m) { return d }
            }
        }
        return unenveloped(m)
    }

    /// Evidence in a line without a logcat envelope (a trace published as text, LeakCanary's 2.2 note
    /// `14:40:13.697 : Watching instance of …`), or in a message whose tag is another logger's.
    static func unenveloped(_ m: UnsafeBufferPointer<UInt8>) -> AndroidEvidence? {
        guard m.count <= maxMessage else { return nil }
        var i = 0
        // Spaces, tabs and zero-width spaces: LeakCanary 2 begins the lines under a `╰→` node with U+200B
        // (`​     Leaking: YES (… Activity#onDestroy() …)`), so that logcat keeps their indentation.
        while i < m.count {
            if m[i] == .space || m[i] == .tab { i += 1; continue }
            if m[i] == 0xE2, i + 2 < m.count, m[i + 1] == 0x80, m[i + 2] == 0x8B { i += 3; continue }
            break
        }
        if let after = clockPrefix(m, from: i) { i = after }
        let rest = UnsafeBufferPointer(rebasing: m[i...])
        if LeakCanaryReader.mayRead(rest) { return .leakCanary(String(decoding: rest, as: UTF8.self)) }
        if startsWith(rest, "class "), LogcatStatement.contains(rest, "; instances=") { return strictMode(rest) }
        return nil
    }

    /// The time of day of a `HH:MM:SS.mmm : ` prefix, as seconds of the day (the line has no date).
    static func clockTime(_ m: UnsafeBufferPointer<UInt8>) -> LogTime? {
        var i = 0
        while i < m.count, m[i] == .space || m[i] == .tab { i += 1 }
        guard let end = clockPrefix(m, from: i) else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: m[i..<(end - 3)]), as: UTF8.self)
        let parts = text.split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let mi = Double(parts[1]), let sec = Double(parts[2]) else { return nil }
        return LogTime(seconds: h * 3600 + mi * 60 + sec, iso: text)
    }

    /// `HH:MM:SS.mmm : ` before a message (LeakCanary's 2.2 note): where the message starts.
    private static func clockPrefix(_ m: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start, digits = 0, colons = 0
        while i < m.count, ByteCursor.isDigit(m[i]) || m[i] == .colon || m[i] == .dot {
            if m[i] == .colon { colons += 1 } else if ByteCursor.isDigit(m[i]) { digits += 1 }
            i += 1
        }
        guard colons == 2, digits >= 6, i + 2 < m.count, m[i] == .space, m[i + 1] == .colon, m[i + 2] == .space else { return nil }
        return i + 3
    }

    /// `class X; instances=N; limit=M`, alone or with the violation's exception text after it on the line.
    static func strictMode(_ m: UnsafeBufferPointer<UInt8>) -> AndroidEvidence? {
        let text = String(decoding: m, as: UTF8.self)
        guard text.hasPrefix("class "), let semi = text.firstIndex(of: ";") else { return nil }
        let name = text[text.index(text.startIndex, offsetBy: 6)..<semi]
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        func number(after key: String) -> Int? {
            guard let r = text.range(of: key) else { return nil }
            return Int(text[r.upperBound...].prefix { $0.isNumber })
        }
        guard let n = number(after: "; instances="), let limit = number(after: "; limit=") else { return nil }
        return .strictMode(className: String(LogcatStatement.simpleName(String(name))), instances: n, limit: limit)
    }

    /// `Displayed com.example/.MainActivity: +1s230ms` (also `for user 0: +23s157ms`, `+173ms`, and the total
    /// `(total +2s)` after it, which is not read).
    static func displayed(_ m: UnsafeBufferPointer<UInt8>) -> AndroidEvidence? {
        // By bytes: most of the system's lines are other sentences, and a `String` is made only of what is kept.
        guard startsWith(m, "Displayed "), let slash = m.firstIndex(of: .slash) else { return nil }
        let package = 10..<slash
        var end = slash + 1
        while end < m.count, m[end] != .space, m[end] != .colon { end += 1 }
        let component = UnsafeBufferPointer(rebasing: m[(slash + 1)..<end])
        guard !package.isEmpty, !m[package].contains(.space), !component.isEmpty, let plus = LogcatStatement.find(m, ": +") else { return nil }
        var ms = 0, value = 0, sawDigit = false
        var i = plus + 3
        while i < m.count {
            let c = m[i]
            if ByteCursor.isDigit(c) { value = value * 10 + Int(c - UInt8(ascii: "0")); sawDigit = true; if value > 1 << 40 { return nil } }
            else if c == UInt8(ascii: "m"), i + 1 < m.count, m[i + 1] == UInt8(ascii: "s") { ms += value; value = 0; break }
            else if c == UInt8(ascii: "s") { ms += value * 1000; value = 0 }
            else if c == UInt8(ascii: "m") { ms += value * 60_000; value = 0 }
            else { break }
            i += 1
        }
        guard sawDigit else { return nil }
        // `com.example/.MainActivity` or `com.example/com.example.MainActivity`: the simple name is the component's.
        return .displayed(className: LogcatStatement.string(LogcatStatement.simpleName(component)),
                          package: LogcatStatement.string(UnsafeBufferPointer(rebasing: m[package])), milliseconds: ms)
    }

    /// `START u0 {act=… cmp=com.example/.MainActivity …} from uid 10123` (also Android 4's `START {…}`, and the words
    /// newer releases add after the braces): the component's class and package.
    static func startRequested(_ m: UnsafeBufferPointer<UInt8>) -> AndroidEvidence? {
        guard startsWith(m, "START ") else { return nil }
        var i = 6
        // `u0 ` (the user), then the intent's braces.
        if i < m.count, m[i] == UInt8(ascii: "u") {
            i += 1
            while i < m.count, ByteCursor.isDigit(m[i]) { i += 1 }
            guard i < m.count, m[i] == .space else { return nil }
            i += 1
        }
        guard i < m.count, m[i] == .openBrace else { return nil }
        // The intent's fields up to its closing brace (its extras' own braces nest: `(has extras)` never, `{…}` may).
        var depth = 0, close: Int?
        var k = i
        while k < m.count {
            if m[k] == .openBrace { depth += 1 } else if m[k] == .closeBrace { depth -= 1; if depth == 0 { close = k; break } }
            k += 1
        }
        guard let close else { return nil }
        let intent = UnsafeBufferPointer(rebasing: m[i..<close])
        guard let at = LogcatStatement.find(intent, "cmp="), at == 1 || intent[at - 1] == .space else { return nil }
        var end = at + 4
        while end < intent.count, intent[end] != .space, intent[end] != .closeBrace { end += 1 }
        let cmp = UnsafeBufferPointer(rebasing: intent[(at + 4)..<end])
        guard let slash = cmp.firstIndex(of: .slash), slash > cmp.startIndex, slash + 1 < cmp.endIndex else { return nil }
        let package = UnsafeBufferPointer(rebasing: cmp[..<slash])
        let component = UnsafeBufferPointer(rebasing: cmp[(slash + 1)...])
        let name = LogcatStatement.simpleName(component)
        guard !name.isEmpty, name.allSatisfy({ ByteCursor.isWord($0) || $0 == .dollar }) else { return nil }
        return .startRequested(className: LogcatStatement.string(name), package: LogcatStatement.string(package))
    }

    private static func equals(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        b.count == s.utf8CodeUnitCount && startsWith(b, s)
    }

    static func startsWith(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        let k = s.utf8CodeUnitCount
        guard b.count >= k else { return false }
        guard k > 0, let base = b.baseAddress else { return true }
        return s.withUTF8Buffer { memcmp(base, $0.baseAddress!, k) == 0 }
    }
}
