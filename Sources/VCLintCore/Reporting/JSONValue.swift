/// A JSON value with ordered object keys, so that reports keep the documented key order. Not
/// `indirect`: arrays and objects already hold their elements out of line, and an indirect enum's
/// boxes are referenced through tagged pointers, which LeakSanitizer does not recognise (a run that
/// exits 2 while its recorded configuration is alive looked like it leaked every value).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.serialized() == b.serialized() }

    /// Pretty-printed with two-space indentation; scalars-only arrays and small objects stay on one line.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(&out, indent: 0, pretty: pretty)
        return out
    }

    /// Appends the value as it stands at `indent` levels (pretty) in an enclosing document.
    func write(_ out: inout String, indent: Int, pretty: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite { out += d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) } else { out += "null" }
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            if !pretty || items.allSatisfy(\.isScalar) {
                out += "["
                for (i, v) in items.enumerated() {
                    if i > 0 { out += pretty ? ", " : "," }
                    v.write(&out, indent: indent, pretty: pretty)
                }
                out += "]"
                return
            }
            out += "[\n"
            for (i, v) in items.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                v.write(&out, indent: indent + 1, pretty: pretty)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            if !pretty || pairs.allSatisfy({ $0.1.isScalar }) && pairs.count <= 3 {
                out += "{"
                for (i, (k, v)) in pairs.enumerated() {
                    if i > 0 { out += pretty ? ", " : "," }
                    JSONValue.escape(k, into: &out)
                    out += pretty ? ": " : ":"
                    v.write(&out, indent: indent, pretty: pretty)
                }
                out += "}"
                return
            }
            out += "{\n"
            for (i, (k, v)) in pairs.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                JSONValue.escape(k, into: &out)
                out += ": "
                v.write(&out, indent: indent + 1, pretty: pretty)
                out += i + 1 < pairs.count ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    /// A JSON string. Beyond what JSON requires, what a terminal or a CI runner would act on when the
    /// document is printed is written as a `\u` escape, which a parser reads back as the character
    /// itself: DEL, the C1 controls, the bidirectional controls and U+2028/U+2029 (as
    /// `TerminalText` escapes them), and the `[` of `##[`, which GitHub's runner would take for a
    /// command anywhere on a line.
    static func escape(_ s: String, into out: inout String) {
        out += "\""
        if isPlain(s) {
            // Nothing to escape (most keys, labels and class names): appended whole.
            out += s
            out += "\""
            return
        }
        var hashes = 0
        for u in s.unicodeScalars {
            defer { hashes = u == "#" ? hashes + 1 : 0 }
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "[" where hashes >= 2: out += "\\u005b"
            default:
                if TerminalText.escaped(u) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// Whether `escape` would copy `s` as it is: no `"`, `\\`, `[`, control character or scalar
    /// that `TerminalText` escapes.
    static func isPlain(_ s: String) -> Bool {
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22, 0x5C, 0x5B: return false  // " \ [
            case 0x20...0x7E: continue
            case 0x80...: if TerminalText.escaped(u) { return false }
            default: return false
            }
        }
        return true
    }
}

/// A pretty-printed JSON document written as it is produced, with the bytes `serialized()` gives
/// the whole tree: a report's arrays of findings are opened, given one small `JSONValue` per
/// finding, and closed, and never exist whole. A streamed container takes the multi-line form,
/// the one `serialized()` gives a container that holds a container: stream only those.
final class JSONStream {
    private let out: ReportWriter
    /// The containers open, innermost last.
    private var open: [(closer: String, members: Int, holdsContainer: Bool)] = []
    /// One member's text, its storage reused from member to member.
    private var scratch = ""

    init(_ out: ReportWriter) { self.out = out }

    /// Opens an object as the next member (`key` in an object).
    func openObject(_ key: String? = nil) throws(ReportWriteError) {
        try member(key, "{", isContainer: true)
        open.append(("}", 0, false))
    }

    /// Opens an array as the next member (`key` in an object).
    func openArray(_ key: String? = nil) throws(ReportWriteError) {
        try member(key, "[", isContainer: true)
        open.append(("]", 0, false))
    }

    /// One member, written at once.
    func value(_ v: JSONValue, key: String? = nil) throws(ReportWriteError) {
        scratch.removeAll(keepingCapacity: true)
        v.write(&scratch, indent: open.count, pretty: true)
        try member(key, scratch, isContainer: !v.isScalar)
    }

    func close() throws(ReportWriteError) {
        let c = open.removeLast()
        assert(c.members == 0 || c.holdsContainer || (c.closer == "}" && c.members > 3), "serialized() would put this container on one line")
        try out.write(c.members == 0 ? c.closer : "\n" + String(repeating: "  ", count: open.count) + c.closer)
    }

    private func member(_ key: String?, _ text: String, isContainer: Bool) throws(ReportWriteError) {
        var head = ""
        if let last = open.indices.last {
            head = open[last].members == 0 ? "\n" : ",\n"
            open[last].members += 1
            if isContainer { open[last].holdsContainer = true }
            head += String(repeating: "  ", count: open.count)
        }
        if let key {
            JSONValue.escape(key, into: &head)
            head += ": "
        }
        try out.write(head)
        try out.write(text)
    }
}
