import Foundation

/// A JSON report read back a piece at a time (`vclint merge`, `vclint leaks` of shards' reports).
///
/// Foundation's parser builds the whole document as objects, at about 20 times its size (a 205 MB
/// report took 4.3 GB). Here the document is checked once against the JSON grammar without building
/// anything; its objects and arrays are then walked by the byte ranges of their members, and only
/// the small values a reader asks for (one finding, one input, the configuration) are parsed, one
/// at a time. What stays in memory is the report's bytes and what is read out of them.
///
/// Nesting is followed with a stack of its own, not by recursion, so a hostile `[[[[…` cannot
/// overflow the thread's stack; it is refused past `maxDepth`.
struct JSONSkim {
    /// Deeper than any report vclint writes (5 levels) by far; deeper than this is not a report.
    static let maxDepth = 512

    struct Malformed: Error {}

    let bytes: [UInt8]

    /// The document, checked: a JSON text (an optional UTF-8 byte order mark, white space around one
    /// value), with what Foundation's parser also allows: a comma before a closing bracket.
    init(checking bytes: [UInt8]) throws(Malformed) {
        self.bytes = bytes
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        i = try skipValue(from: i)
        i = skipSpace(from: i)
        guard i == bytes.count else { throw Malformed() }
    }

    /// The range of the document's one value (white space and a byte order mark left out).
    var root: Range<Int> {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        start = skipSpace(from: start)
        var end = bytes.count
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// Whether the value at `range` is an object (`{`) or an array (`[`).
    func isObject(_ range: Range<Int>) -> Bool { !range.isEmpty && bytes[range.lowerBound] == .openBrace }
    func isArray(_ range: Range<Int>) -> Bool { !range.isEmpty && bytes[range.lowerBound] == .openBracket }

    /// The members of the (checked) object at `range`, by key; of a key given twice, the last.
    func members(_ range: Range<Int>) -> [String: Range<Int>] {
        var out: [String: Range<Int>] = [:]
        guard isObject(range) else { return out }
        walk(range, keyed: true) { key, value in if let key = key.flatMap(string) { out[key] = value } }
        return out
    }

    /// The ranges of the elements of the (checked) array at `range`, in order.
    func elements(_ range: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        guard isArray(range) else { return out }
        walk(range, keyed: false) { _, value in out.append(value) }
        return out
    }

    /// Each member (`keyed`: its key's string token and its value) or element of the checked
    /// container at `range`, in order. The document was checked: every step stays inside it.
    private func walk(_ range: Range<Int>, keyed: Bool, _ body: (_ key: Range<Int>?, _ value: Range<Int>) -> Void) {
        let closer = keyed ? UInt8.closeBrace : UInt8.closeBracket
        var i = skipSpace(from: range.lowerBound + 1)
        while i < range.upperBound, bytes[i] != closer {
            var key: Range<Int>?
            if keyed {
                let keyStart = i
                i = (try? skipString(from: i)) ?? range.upperBound
                key = keyStart..<i
                i = skipSpace(from: i) + 1  // the colon
            }
            let start = skipSpace(from: i)
            i = (try? skipValue(from: start)) ?? range.upperBound
            body(key, start..<i)
            i = skipSpace(from: i)
            guard i < range.upperBound, bytes[i] == .comma else { return }
            i = skipSpace(from: i + 1)  // a comma before the closer ends the loop, as it ends the container
        }
    }

    /// The value at `range` as Foundation's parser gives it (a dictionary, an array, a string, a
    /// number, `NSNull`), or nil when it refuses it (a string that is not UTF-8, say).
    func value(_ range: Range<Int>) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes[range]), options: .fragmentsAllowed)
    }

    /// The string at `range` (a JSON string token, quotes included), or nil if it is not one.
    func string(_ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == .quote else { return nil }
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        if !inner.contains(UInt8.backslash) { return String(validating: inner, as: UTF8.self) }
        return value(range) as? String
    }

    // MARK: The grammar (RFC 8259), checked without building anything

    static func isSpace(_ b: UInt8) -> Bool { b == .space || b == .newline || b == .carriageReturn || b == .tab }

    func skipSpace(from start: Int) -> Int {
        var i = start
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        return i
    }

    /// The end of the value that starts at `start` (after white space), checked.
    func skipValue(from start: Int) throws(Malformed) -> Int {
        // Open containers: true for an object, false for an array.
        var open: [Bool] = []
        var i = start
        while true {
            // A value is expected at i.
            i = skipSpace(from: i)
            guard i < bytes.count else { throw Malformed() }
            switch bytes[i] {
            case .openBrace:
                i = skipSpace(from: i + 1)
                if i < bytes.count, bytes[i] == .closeBrace { i += 1; break }
                guard open.count < Self.maxDepth else { throw Malformed() }
                open.append(true)
                i = try skipKey(from: i)
                continue
            case .openBracket:
                i = skipSpace(from: i + 1)
                if i < bytes.count, bytes[i] == .closeBracket { i += 1; break }
                guard open.count < Self.maxDepth else { throw Malformed() }
                open.append(false)
                continue
            case .quote:
                i = try skipString(from: i)
            case UInt8(ascii: "t"): i = try skipLiteral("true", from: i)
            case UInt8(ascii: "f"): i = try skipLiteral("false", from: i)
            case UInt8(ascii: "n"): i = try skipLiteral("null", from: i)
            case .hyphen, UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = try skipNumber(from: i)
            default:
                throw Malformed()
            }
            // A value ended at i: close what it ends, or go on to the next member or element.
            while true {
                guard let isObject = open.last else { return i }
                i = skipSpace(from: i)
                guard i < bytes.count else { throw Malformed() }
                let closer = isObject ? UInt8.closeBrace : UInt8.closeBracket
                if bytes[i] == .comma {
                    i = skipSpace(from: i + 1)
                    // One comma before the closing bracket is allowed, as Foundation's parser allows it.
                    if i < bytes.count, bytes[i] == closer { open.removeLast(); i += 1; continue }
                    if isObject { i = try skipKey(from: i) }
                    break
                }
                guard bytes[i] == closer else { throw Malformed() }
                open.removeLast()
                i += 1
            }
        }
    }

    /// A member's key and its colon.
    private func skipKey(from start: Int) throws(Malformed) -> Int {
        var i = try skipString(from: start)
        i = skipSpace(from: i)
        guard i < bytes.count, bytes[i] == .colon else { throw Malformed() }
        return i + 1
    }

    func skipString(from start: Int) throws(Malformed) -> Int {
        guard start < bytes.count, bytes[start] == .quote else { throw Malformed() }
        var i = start + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == .quote { return i + 1 }
            if b < UInt8.space { throw Malformed() }
            if b == .backslash {
                guard i + 1 < bytes.count else { throw Malformed() }
                switch bytes[i + 1] {
                case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= bytes.count, bytes[(i + 2)..<(i + 6)].allSatisfy(\.isHexDigit) else { throw Malformed() }
                    i += 6
                default:
                    throw Malformed()
                }
                continue
            }
            i += 1
        }
        throw Malformed()
    }

    private func skipLiteral(_ word: StaticString, from start: Int) throws(Malformed) -> Int {
        let n = word.utf8CodeUnitCount
        guard start + n <= bytes.count else { throw Malformed() }
        let same = word.withUTF8Buffer { w in bytes[start..<(start + n)].elementsEqual(w) }
        guard same else { throw Malformed() }
        return start + n
    }

    private func skipNumber(from start: Int) throws(Malformed) -> Int {
        var i = start
        func digits() -> Int {
            let from = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - from
        }
        if bytes[i] == .hyphen { i += 1 }
        guard i < bytes.count else { throw Malformed() }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else { guard digits() > 0 else { throw Malformed() } }
        if i < bytes.count, bytes[i] == .dot {
            i += 1
            guard digits() > 0 else { throw Malformed() }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == .plus || bytes[i] == .hyphen { i += 1 }
            guard digits() > 0 else { throw Malformed() }
        }
        return i
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
