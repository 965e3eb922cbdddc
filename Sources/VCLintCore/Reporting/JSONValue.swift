/// A JSON value with ordered object keys, so that reports keep the documented key order.
public indirect enum JSONValue: Sendable, Equatable {
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

    private func write(_ out: inout String, indent: Int, pretty: Bool) {
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

    static func escape(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if u.value < 0x20 || u.value == 0x7F {
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
