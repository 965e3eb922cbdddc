/// `log show --style json` prints the objects `--style ndjson` prints one a line as one
/// pretty-printed JSON array: `[{` on the first line, one `"key" : value` member a line, nested
/// values (`backtrace`) spread over lines of their own, `},{` between objects and `}]` at the end
/// (docs/lifecycle.md#envelopes). The envelope parser reads ndjson lines; this pre-pass, behind
/// `LineEndTranslator` in front of the scanner, turns each object into the one ndjson line it would
/// have been, placed on the physical line of its `eventMessage` member. Every other line of the
/// array is left empty, so the line numbers and the line count are the file's, and a finding points
/// at the `eventMessage` line whatever order the members come in.
///
/// It reads a stream in bounded memory: one object at a time, and of that object only the top-level
/// members with a string, number or literal value, copied as they are (strings stay escaped; the
/// ndjson parser decodes them). Nested objects and arrays are skipped by their depth, never held.
/// An object whose kept members pass `maxObjectBytes` is skipped and counted (`oversized`). Bad
/// input is data: bytes between elements that are not an object are skipped; an object broken by
/// garbage or cut short at the end keeps the members read before the break and is read when its
/// `eventMessage` was among them, else dropped; reading goes on at the next `{`. Objects without an
/// `eventMessage` (none in `log show`'s output) carry no message and are dropped.
///
/// Objects that share a physical line (a compact array, `[{…},{…}]`) cannot each have it: the second
/// one gets a line of its own after it, so only such an input has more lines than the file.
struct JSONArrayReader {
    /// The most an object's kept members may take (its one ndjson line).
    static let maxObjectBytes = 1 << 20

    /// Objects skipped because they were larger than `maxObjectBytes`.
    private(set) var oversized = 0
    /// Bytes taken, and bytes handed on (the difference keeps an input's byte count its file's).
    private(set) var bytesIn = 0
    private(set) var bytesOut = 0

    private enum State: UInt8 {
        /// Before the array's `[`, or after its `]` (another array or object may follow; anything
        /// else is skipped).
        case outside
        /// Between elements: looking for `{` or `]`.
        case array
        case beforeKey, key, keyEscape, beforeColon, beforeValue
        /// A kept string value, copied escaped as it is.
        case string, stringEscape
        /// A kept number or literal.
        case scalar
        case afterValue
        /// A nested object or array, skipped by its depth.
        case nested, nestedString, nestedEscape
    }
    private var state = State.outside
    private var depth = 0
    /// The current object as one ndjson line, and its length up to its last complete member.
    private var text: [UInt8] = []
    private var committed = 0
    private var members = 0
    private var key: [UInt8] = []
    private var keyIsMessage = false
    private var hasMessage = false
    private var tooBig = false
    /// Line ends inside the current object, and how many came before its `eventMessage` key.
    private var newlines = 0
    private var messageNewlines = 0
    /// The output's current line holds an object already.
    private var lineHasText = false
    private var lastWasLF = true
    private var out: [UInt8] = []
    private static let eventMessage = Array("eventMessage".utf8)

    init() {}

    /// The line for stderr when objects were skipped as too large.
    static func oversizedWarning(_ count: Int, path: String) -> String {
        "vclint: warning: \(path): \(count) JSON object\(count == 1 ? "" : "s") larger than \(maxObjectBytes >> 20) MiB skipped (not linted)"
    }

    /// The storage held between reads: the current object and the output buffer.
    var heldBytes: Int { text.capacity + out.capacity + key.capacity }

    private var inObject: Bool { state != .outside && state != .array }

    /// Reads `bytes` (any split) and hands what it made of them to `emit`.
    mutating func pass(_ bytes: UnsafeRawBufferPointer, to emit: (UnsafeRawBufferPointer) -> Void) {
        guard !bytes.isEmpty else { return }
        bytesIn += bytes.count
        lastWasLF = bytes[bytes.count - 1] == .newline
        let p = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let n = bytes.count
        var i = 0
        while i < n {
            let b = p[i]
            if b == .newline {
                switch state {
                case .outside, .array:
                    out.append(UInt8.newline)
                    lineHasText = false
                case .string:
                    newlines += 1
                    add(UInt8.backslash, UInt8(ascii: "n"))  // a raw line end in a string: `\n`, so the object stays one line
                case .stringEscape:
                    newlines += 1
                    add(UInt8(ascii: "n"))
                    state = .string
                case .nestedEscape:
                    newlines += 1
                    state = .nestedString
                default:
                    newlines += 1
                }
                i += 1
                continue
            }
            switch state {
            case .outside:
                // Another array may follow; an object after a stray `]` is still read.
                if b == .openBracket { state = .array } else if b == .openBrace { begin() }
            case .array:
                if b == .openBrace { begin() } else if b == .closeBracket { state = .outside }
            case .beforeKey:
                if b == .quote {
                    key.removeAll(keepingCapacity: true)
                    state = .key
                } else if b == .closeBrace {
                    close()
                } else if !Self.isSpace(b) && b != .comma {
                    broken(); continue
                }
            case .key:
                if b == .quote {
                    keyIsMessage = key == Self.eventMessage
                    if keyIsMessage { messageNewlines = newlines }
                    state = .beforeColon
                } else if key.count > 1024 {
                    broken(); continue
                } else {
                    key.append(b)
                    if b == .backslash { state = .keyEscape }
                }
            case .keyEscape:
                key.append(b)
                state = .key
            case .beforeColon:
                if b == .colon { state = .beforeValue } else if !Self.isSpace(b) { broken(); continue }
            case .beforeValue:
                if Self.isSpace(b) { break }
                switch b {
                case .quote:
                    startMember()
                    add(UInt8.quote)
                    state = .string
                case .openBrace, .openBracket:
                    depth = 1
                    state = .nested
                case .comma, .closeBrace, .closeBracket, .colon:
                    broken(); continue
                default:
                    startMember()
                    add(b)
                    state = .scalar
                }
            case .string:
                // Copies the run up to the next quote, backslash or line end at once.
                var j = i
                while j < n, p[j] != .quote, p[j] != .backslash, p[j] != .newline, p[j] != .carriageReturn { j += 1 }
                if j > i { add(UnsafeBufferPointer(start: p + i, count: j - i)); i = j; continue }
                switch b {
                case .quote:
                    add(UInt8.quote)
                    memberDone()
                    if keyIsMessage { hasMessage = true }
                case .backslash:
                    add(UInt8.backslash)
                    state = .stringEscape
                default:
                    add(UInt8.backslash, UInt8(ascii: "r"))  // a raw CR: `\r`
                }
            case .stringEscape:
                add(b)
                state = .string
            case .scalar:
                if Self.isSpace(b) || b == .comma || b == .closeBrace || b == .closeBracket {
                    memberDone()
                    continue
                }
                add(b)
            case .afterValue:
                if b == .comma {
                    state = .beforeKey
                } else if b == .closeBrace {
                    close()
                } else if !Self.isSpace(b) {
                    broken(); continue
                }
            case .nested:
                if b == .quote {
                    state = .nestedString
                } else if b == .openBrace || b == .openBracket {
                    depth += 1
                } else if b == .closeBrace || b == .closeBracket {
                    depth -= 1
                    if depth == 0 { state = .afterValue }
                }
            case .nestedString:
                var j = i
                while j < n, p[j] != .quote, p[j] != .backslash, p[j] != .newline { j += 1 }
                if j > i { i = j; continue }
                state = b == .quote ? .nested : .nestedEscape
            case .nestedEscape:
                state = .nestedString
            }
            i += 1
        }
        flush(to: emit)
    }

    /// The input ended: an object cut short is read when its `eventMessage` was complete; a last
    /// line without a line end stays a line.
    mutating func finish(to emit: (UnsafeRawBufferPointer) -> Void) {
        if inObject { end() }
        state = .outside
        if !lastWasLF { out.append(UInt8.newline); lastWasLF = true }
        flush(to: emit)
    }

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == .space || b == .tab || b == .carriageReturn || b == .newline }

    private mutating func begin() {
        text.removeAll(keepingCapacity: true)
        text.append(UInt8.openBrace)
        committed = 1
        members = 0
        hasMessage = false
        keyIsMessage = false
        tooBig = false
        newlines = 0
        messageNewlines = 0
        state = .beforeKey
    }

    /// A member with a value worth keeping starts: its separator and key.
    private mutating func startMember() {
        if members > 0 { add(UInt8.comma) }
        add(UInt8.quote)
        key.withUnsafeBufferPointer { add($0) }
        add(UInt8.quote, UInt8.colon)
    }

    private mutating func memberDone() {
        members += 1
        committed = text.count
        state = .afterValue
    }

    /// The object's closing brace.
    private mutating func close() {
        end()
        state = .array
    }

    /// Garbage where the object needed something else: the object ends before it (its complete
    /// members kept), and the byte is read again between elements (a `{` starts the next object).
    private mutating func broken() {
        end()
        state = .array
    }

    /// Hands the object on: its line (when it has a message and is not too big) on the line of its
    /// `eventMessage`, and as many line ends as it spanned.
    private mutating func end() {
        if tooBig { oversized += 1 }
        if hasMessage && !tooBig {
            text.removeSubrange(committed...)
            text.append(UInt8.closeBrace)
            if messageNewlines == 0 && lineHasText { out.append(UInt8.newline) }
            out.append(contentsOf: repeatElement(UInt8.newline, count: messageNewlines))
            out.append(contentsOf: text)
            let after = newlines - messageNewlines
            out.append(contentsOf: repeatElement(UInt8.newline, count: after))
            lineHasText = after == 0
        } else if newlines > 0 {
            out.append(contentsOf: repeatElement(UInt8.newline, count: newlines))
            lineHasText = false
        }
        newlines = 0
        hasMessage = false
        text.removeAll(keepingCapacity: text.capacity <= 64 * 1024)
    }

    private mutating func add(_ b: UInt8) {
        guard !tooBig else { return }
        if text.count >= Self.maxObjectBytes { tooBig = true; return }
        text.append(b)
    }

    private mutating func add(_ a: UInt8, _ b: UInt8) {
        add(a)
        add(b)
    }

    private mutating func add(_ run: UnsafeBufferPointer<UInt8>) {
        guard !tooBig else { return }
        if text.count + run.count > Self.maxObjectBytes { tooBig = true; return }
        text.append(contentsOf: run)
    }

    private mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        guard !out.isEmpty else { return }
        bytesOut += out.count
        out.withUnsafeBytes { emit($0) }
        out.removeAll(keepingCapacity: out.capacity <= 1 << 20)
    }
}

/// Whether an input starts as `log show --style json` does: its first non-blank bytes are `[`, then
/// `{`, then a member (`"key" :`). Fed the input's first bytes in any split; a byte-order mark
/// before them is allowed.
struct JSONArraySniff {
    enum Verdict: Equatable { case undecided, json, other }
    private(set) var verdict = Verdict.undecided
    private enum Step { case start, bracket, brace, key, keyEscape, colon }
    private var step = Step.start
    private var seen = 0
    private var keyLength = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        for b in bytes {
            guard verdict == .undecided else { return }
            defer { seen += 1 }
            let space = b == .space || b == .tab || b == .carriageReturn || b == .newline
            switch step {
            case .start:
                if seen < 3 && b == Self.byteOrderMark[seen] { continue }  // a byte-order mark (after nothing else)
                if space { continue }
                if b == .openBracket { step = .bracket } else { verdict = .other }
            case .bracket:
                if space { continue }
                if b == .openBrace { step = .brace } else { verdict = .other }
            case .brace:
                if space { continue }
                if b == .quote { step = .key } else { verdict = .other }
            case .key:
                keyLength += 1
                if b == .quote { step = .colon } else if b == .newline || keyLength > 256 { verdict = .other } else if b == .backslash { step = .keyEscape }
            case .keyEscape:
                step = .key
            case .colon:
                if b == .space || b == .tab { continue }
                verdict = b == .colon ? .json : .other
            }
        }
    }

    /// A folder walk's test for a `.json` file: an array of objects (as above) whose first bytes
    /// hold a log's keys (`eventMessage`, `timestamp`), not a package manifest or a lint report.
    static func isLogArray(_ head: [UInt8]) -> Bool {
        var sniff = JSONArraySniff()
        head.withUnsafeBytes { sniff.feed($0) }
        guard sniff.verdict == .json else { return false }
        return head.withUnsafeBufferPointer { h in
            hasKey(h, Array(#""eventMessage""#.utf8)) || hasKey(h, Array(#""timestamp""#.utf8))
        }
    }

    /// `"key"` followed by blanks and a colon, somewhere in `h`.
    private static func hasKey(_ h: UnsafeBufferPointer<UInt8>, _ key: [UInt8]) -> Bool {
        guard h.count >= key.count else { return false }
        var i = 0
        while i + key.count <= h.count {
            if h[i] == .quote, key.indices.allSatisfy({ h[i + $0] == key[$0] }) {
                var j = i + key.count
                while j < h.count, h[j] == .space || h[j] == .tab { j += 1 }
                if j < h.count, h[j] == .colon { return true }
            }
            i += 1
        }
        return false
    }
}
