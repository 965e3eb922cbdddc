import Foundation
import Testing
@testable import VCLintCore

/// The views' fast paths (decimal text without the formatter, strings appended whole when nothing
/// in them needs escaping, a time's ISO text written as bytes) give the general code's bytes.
@Suite struct ViewFastPathTests {
    /// `%.1f` without the formatter: the formatter's bytes, ties to even included.
    @Test func oneDecimalIsTheFormattersText() {
        var values: [Double] = [0, 0.04, 0.05, 0.05000001, 0.15, 0.25, 0.35, 0.45, 0.75, 1.05, 2.5, 9.95, 9.96, 99.95, 1234.45,
                                220.0, 1070.0, 26.0 / 3, 840.0 / 7, 1e14 + 0.25, 0.001, 0.0099, 0.01, -0.0, -1.25, 1e16, .infinity]
        for k in 0...4000 { values.append(Double(k) / 40) }
        for k in 0...2000 { values.append(Double(k) * 0.1) }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5000 { values.append(Double.random(in: 0..<2000, using: &rng)) }
        for v in values { #expect(DecimalText.oneDecimal(v) == String(format: "%.1f", v), "\(v)") }
    }

    /// Strings appended whole are those the escaping would give back unchanged.
    @Test func plainStringsAreTheOnesEscapingKeeps() {
        let samples = ["HomeViewController#1", "T1 push", "line 12 rule: message", ": leading", "  :: twice", "a&b", "<x>", "\"q\"", "it's",
                       "##[group]", "[x]", "tab\there", "new\nline", "é", "\u{202E}rtl", "", " ", "x:", "DEL\u{7F}", "back\\slash",
                       "Session 1: Shop [1], lines 1–4", "A#1 → B#1", "é:", "\u{00A0}: nbsp", "x\u{00A0}: y", "c1 \u{85} next", "\u{2028}", "日本語: ok", "e\u{301}"]
            + [0xFDD0, 0xFFFE, 0x1FFFF].map { "x" + String(Unicode.Scalar(UInt32($0))!) }
        for s in samples {
            if HTMLText.isPlain(s) { #expect(MarkupText.escape(s, apostrophe: "&#39;") { u, out in out.unicodeScalars.append(u) } == s) }
            #expect(HTMLText.escape(s) == MarkupText.escape(s, apostrophe: "&#39;") { u, out in
                switch u {
                case "\t", "\n": out.unicodeScalars.append(u)
                default: if HTMLText.isAllowed(u) { out.unicodeScalars.append(u) } else { out += "\u{FFFD}" }
                }
            })
            var fast = "", slow = "\""
            JSONValue.escape(s, into: &fast)
            var hashes = 0
            for u in s.unicodeScalars {
                defer { hashes = u == "#" ? hashes + 1 : 0 }
                switch u {
                case "\"": slow += "\\\""
                case "\\": slow += "\\\\"
                case "\n": slow += "\\n"
                case "\r": slow += "\\r"
                case "\t": slow += "\\t"
                case "[" where hashes >= 2: slow += "\\u005b"
                default:
                    if TerminalText.escaped(u) {
                        let hex = String(u.value, radix: 16)
                        slow += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        slow.unicodeScalars.append(u)
                    }
                }
            }
            slow += "\""
            #expect(fast == slow, "\(s)")
        }
        #expect(HTMLText.isPlain("HomeViewController#1") && JSONValue.isPlain("HomeViewController#1"))
        #expect(!HTMLText.isPlain(": x") && !HTMLText.isPlain("a<b") && !JSONValue.isPlain("a\"b") && !JSONValue.isPlain("\u{202E}"))
        #expect(HTMLText.isPlain("lines 1–4") && JSONValue.isPlain("A#1 → B#1") && !HTMLText.isPlain("\u{00A0}:"))
    }

    /// A time's ISO text written as bytes: as the padded fields read.
    @Test func isoTextOfEveryShape() {
        func reference(_ t: LogTime) -> String {
            func pad(_ v: Int, _ width: Int) -> String {
                let s = String(v)
                return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
            }
            var out = t.year == 0 ? "--" : pad(Int(t.year), 4) + "-"
            out += pad(Int(t.month), 2) + "-" + pad(Int(t.day), 2) + "T" + pad(Int(t.hour), 2) + ":" + pad(Int(t.minute), 2) + ":" + pad(Int(t.second), 2)
            if t.fractionDigits > 0 { out += "." + pad(Int(t.fraction), Int(t.fractionDigits)) }
            if let o = t.offsetMinutes {
                if o == Int16.min { out += "Z" } else {
                    let a = abs(Int(o))
                    out += (o < 0 ? "-" : "+") + pad(a / 60, 2) + ":" + pad(a % 60, 2)
                }
            }
            return out
        }
        let offsets: [Int16?] = [nil, Int16.min, 0, 480, -330, 59, -5999]
        for (k, offset) in offsets.enumerated() {
            for (year, fraction, digits) in [(0, 0, 0), (2024, 5, 3), (7, 123_456, 6), (12345, 4_000_000_000, 2), (2017, 9, 1)] {
                let t = LogTime(seconds: 0, year: year, month: 1 + k, day: 9 + k, hour: k, minute: 7 * k, second: 59 - k,
                                fraction: UInt32(fraction), fractionDigits: digits, offsetMinutes: offset)
                #expect(t.iso == reference(t))
            }
        }
    }
}
