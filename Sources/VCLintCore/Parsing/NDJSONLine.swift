#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few top-level fields vclint needs from one `log show/stream --style ndjson` line.
/// A small iterative scanner: nested or huge values are skipped without recursion, so hostile
/// JSON cannot exhaust the stack; anything malformed makes the line plain text.
struct NDJSONLine {
    var timestamp: [UInt8]?
    var processID: Int?
    var threadID: Int?
    var eventMessage: [UInt8]?
    var processImagePath: [UInt8]?
    var process: [UInt8]?

    static func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> NDJSONLine? {
        var s = Scanner(p: p, n: n, i: 0)
        var out = NDJSONLine()
        s.skipWS()
        guard s.eat(UInt8.openBrace) else { return nil }
        s.skipWS()
        if s.eat(UInt8.closeBrace) { return out }
        while true {
            s.skipWS()
            guard let key = s.key() else { return nil }
            s.skipWS()
            guard s.eat(UInt8.colon) else { return nil }
            s.skipWS()
            switch key {
            case .eventMessage:
                if s.peek == .quote { out.eventMessage = s.string() } else { guard s.skipValue() else { return nil } }
            case .timestamp:
                if s.peek == .quote { out.timestamp = s.string() } else { guard s.skipValue() else { return nil } }
            case .processImagePath:
                if s.peek == .quote { out.processImagePath = s.string() } else { guard s.skipValue() else { return nil } }
            case .process:
                if s.peek == .quote { out.process = s.string() } else { guard s.skipValue() else { return nil } }
            case .processID:
                if let v = s.integer() { out.processID = v } else { guard s.skipValue() else { return nil } }
            case .threadID:
                if let v = s.integer() { out.threadID = v } else { guard s.skipValue() else { return nil } }
            case .other:
                guard s.skipValue() else { return nil }
            }
            s.skipWS()
            if s.eat(UInt8.comma) { continue }
            if s.eat(UInt8.closeBrace) { return out }
            return nil
        }
    }

    /// The object with only the members that tell its process, pid, thread and time: what a time
    /// sample of the line reads (`RecentLines.keepHead`), in the few bytes a long line's head keeps.
    var timeCarrier: [UInt8] {
        var out: [UInt8] = [UInt8.openBrace]
        func member(_ name: String, _ value: [UInt8]) {
            if out.count > 1 { out.append(UInt8.comma) }
            out.append(UInt8.quote)
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: [UInt8.quote, UInt8.colon])
            out.append(contentsOf: value)
        }
        func string(_ bytes: [UInt8]) -> [UInt8] {
            var quoted: [UInt8] = [UInt8.quote]
            let hex = Array("0123456789abcdef".utf8)
            for b in bytes {
                switch b {
                case .quote, .backslash: quoted += [UInt8.backslash, b]
                case ..<UInt8.space: quoted += [UInt8.backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 15)]]
                default: quoted.append(b)
                }
            }
            quoted.append(UInt8.quote)
            return quoted
        }
        if let timestamp { member("timestamp", string(timestamp)) }
        if let processID { member("processID", Array(String(processID).utf8)) }
        if let threadID { member("threadID", Array(String(threadID).utf8)) }
        if let processImagePath { member("processImagePath", string(processImagePath)) }
        if let process { member("process", string(process)) }
        member("eventMessage", [UInt8.quote, UInt8.quote])
        out.append(UInt8.closeBrace)
        return out
    }

    /// The members read; every other key is skipped.
    enum Field {
        case eventMessage, timestamp, processImagePath, process, processID, threadID, other

        init(_ p: UnsafePointer<UInt8>, _ n: Int) {
            func isKey(_ name: StaticString) -> Bool { n == name.utf8CodeUnitCount && memcmp(p, name.utf8Start, n) == 0 }
            switch n {
            case 12: self = isKey("eventMessage") ? .eventMessage : .other
            case 9: self = isKey("timestamp") ? .timestamp : isKey("processID") ? .processID : .other
            case 16: self = isKey("processImagePath") ? .processImagePath : .other
            case 7: self = isKey("process") ? .process : .other
            case 8: self = isKey("threadID") ? .threadID : .other
            default: self = .other
            }
        }
    }

    struct Scanner {
        let p: UnsafePointer<UInt8>
        let n: Int
        var i: Int

        var peek: UInt8? { i < n ? p[i] : nil }

        mutating func eat(_ b: UInt8) -> Bool {
            if i < n, p[i] == b { i += 1; return true }
            return false
        }

        mutating func skipWS() {
            while i < n, p[i] == .space || p[i] == .tab || p[i] == .carriageReturn || p[i] == .newline { i += 1 }
        }

        mutating func integer() -> Int? {
            var j = i
            var neg = false
            if j < n, p[j] == .hyphen { neg = true; j += 1 }
            var v = 0, digits = 0
            while j < n, ByteCursor.isDigit(p[j]), digits < 18 { v = v * 10 + Int(p[j] - UInt8(ascii: "0")); j += 1; digits += 1 }
            guard digits > 0, j >= n || !(ByteCursor.isDigit(p[j]) || p[j] == .dot || p[j] == UInt8(ascii: "e") || p[j] == UInt8(ascii: "E")) else { return nil }
            i = j
            return neg ? -v : v
        }

        /// A member's key at the cursor, read in place (a key with an escape is decoded first).
        mutating func key() -> Field? {
            guard i < n, p[i] == .quote else { return nil }
            var j = i + 1
            while j < n, p[j] != .quote, p[j] != .backslash { j += 1 }
            guard j < n else { return nil }
            if p[j] == .quote {
                defer { i = j + 1 }
                return Field(p + i + 1, j - i - 1)
            }
            guard let decoded = string() else { return nil }
            return decoded.withUnsafeBufferPointer { $0.baseAddress.map { Field($0, decoded.count) } ?? .other }
        }

        /// A JSON string at the cursor, unescaped to UTF-8 bytes.
        mutating func string() -> [UInt8]? {
            guard eat(UInt8.quote) else { return nil }
            var out: [UInt8] = []
            while i < n {
                // The bytes up to the next quote or escape, at once.
                var j = i
                while j < n, p[j] != .quote, p[j] != .backslash { j += 1 }
                if j > i {
                    if out.isEmpty, j < n, p[j] == .quote {
                        out = Array(UnsafeBufferPointer(start: p + i, count: j - i))
                    } else {
                        out.append(contentsOf: UnsafeBufferPointer(start: p + i, count: j - i))
                    }
                    i = j
                }
                guard i < n else { break }
                let b = p[i]
                if b == .quote { i += 1; return out }
                if b == .backslash {
                    guard i + 1 < n else { return nil }
                    let e = p[i + 1]
                    i += 2
                    switch e {
                    case .quote, .backslash, .slash: out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(UInt8.newline)
                    case UInt8(ascii: "r"): out.append(UInt8.carriageReturn)
                    case UInt8(ascii: "t"): out.append(UInt8.tab)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar), i + 1 < n, p[i] == .backslash, p[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            guard let low = hex4() else { return nil }
                            if (0xDC00..<0xE000).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            }
                        }
                        appendUTF8(scalar, to: &out)
                    default: return nil
                    }
                    continue
                }
                out.append(b)
                i += 1
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard i + 4 <= n else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 {
                let b = p[i + k]
                let d: UInt8
                if ByteCursor.isDigit(b) { d = b - UInt8(ascii: "0") } else if (b | UInt8.caseBit) &- UInt8(ascii: "a") < 6 { d = (b | UInt8.caseBit) - UInt8(ascii: "a") + 10 } else { return nil }
                v = v << 4 | UInt32(d)
            }
            i += 4
            return v
        }

        private func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
            let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }

        /// Skips any JSON value iteratively (depth is a counter, not recursion).
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                skipWS()
                guard i < n else { return false }
                let b = p[i]
                switch b {
                case .openBrace, .openBracket: depth += 1; i += 1
                case .closeBrace, .closeBracket:
                    guard depth > 0 else { return false }
                    depth -= 1; i += 1
                case .quote:
                    i += 1
                    while i < n, p[i] != .quote { i += p[i] == .backslash ? 2 : 1 }
                    guard i < n else { return false }
                    i += 1
                case .comma, .colon:
                    guard depth > 0 else { return false }
                    i += 1
                default:
                    let start = i
                    while i < n, p[i] != .comma, p[i] != .closeBrace, p[i] != .closeBracket, p[i] != .space, p[i] != .newline, p[i] != .carriageReturn, p[i] != .tab, p[i] != .colon { i += 1 }
                    if i == start { return false }
                }
            } while depth > 0
            return true
        }
    }
}
