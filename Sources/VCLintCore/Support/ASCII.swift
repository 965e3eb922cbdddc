/// Bytes by name. Punctuation and white space are named here (`b == .colon`); letters and digits
/// are written as themselves (`UInt8(ascii: "a")`). Each is a constant a release build folds in.
/// Bytes that are not characters are named too: the ASCII case bit, and the tests for an ASCII byte
/// and a UTF-8 continuation byte.
extension UInt8 {
    @inline(__always) static var tab: UInt8 { UInt8(ascii: "\t") }
    @inline(__always) static var newline: UInt8 { UInt8(ascii: "\n") }
    @inline(__always) static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
    @inline(__always) static var space: UInt8 { UInt8(ascii: " ") }
    @inline(__always) static var bang: UInt8 { UInt8(ascii: "!") }
    @inline(__always) static var quote: UInt8 { UInt8(ascii: "\"") }
    @inline(__always) static var hash: UInt8 { UInt8(ascii: "#") }
    @inline(__always) static var dollar: UInt8 { UInt8(ascii: "$") }
    @inline(__always) static var percent: UInt8 { UInt8(ascii: "%") }
    @inline(__always) static var apostrophe: UInt8 { UInt8(ascii: "'") }
    @inline(__always) static var openParen: UInt8 { UInt8(ascii: "(") }
    @inline(__always) static var closeParen: UInt8 { UInt8(ascii: ")") }
    @inline(__always) static var star: UInt8 { UInt8(ascii: "*") }
    @inline(__always) static var plus: UInt8 { UInt8(ascii: "+") }
    @inline(__always) static var comma: UInt8 { UInt8(ascii: ",") }
    @inline(__always) static var hyphen: UInt8 { UInt8(ascii: "-") }
    @inline(__always) static var dot: UInt8 { UInt8(ascii: ".") }
    @inline(__always) static var slash: UInt8 { UInt8(ascii: "/") }
    @inline(__always) static var zero: UInt8 { UInt8(ascii: "0") }
    @inline(__always) static var colon: UInt8 { UInt8(ascii: ":") }
    @inline(__always) static var semicolon: UInt8 { UInt8(ascii: ";") }
    @inline(__always) static var less: UInt8 { UInt8(ascii: "<") }
    @inline(__always) static var equals: UInt8 { UInt8(ascii: "=") }
    @inline(__always) static var greater: UInt8 { UInt8(ascii: ">") }
    @inline(__always) static var question: UInt8 { UInt8(ascii: "?") }
    @inline(__always) static var openBracket: UInt8 { UInt8(ascii: "[") }
    @inline(__always) static var backslash: UInt8 { UInt8(ascii: "\\") }
    @inline(__always) static var closeBracket: UInt8 { UInt8(ascii: "]") }
    @inline(__always) static var underscore: UInt8 { UInt8(ascii: "_") }
    @inline(__always) static var openBrace: UInt8 { UInt8(ascii: "{") }
    @inline(__always) static var pipe: UInt8 { UInt8(ascii: "|") }
    @inline(__always) static var closeBrace: UInt8 { UInt8(ascii: "}") }
    @inline(__always) static var tilde: UInt8 { UInt8(ascii: "~") }

    /// The bit that tells an ASCII letter's cases apart: `b | caseBit` is the lowercase letter.
    @inline(__always) static var caseBit: UInt8 { 0x20 }
    /// An ASCII byte (below 0x80): not part of a multi-byte scalar.
    @inline(__always) var isASCII: Bool { self & 0x80 == 0 }
    /// A UTF-8 continuation byte (`10xxxxxx`).
    @inline(__always) var isContinuation: Bool { self & 0xC0 == 0x80 }
    /// The byte, if an ASCII letter, in lowercase (other bytes may change too: compare with a letter).
    @inline(__always) var foldedLetter: UInt8 { self | Self.caseBit }
    @inline(__always) var isASCIIUppercase: Bool { self &- UInt8(ascii: "A") < 26 }
    @inline(__always) var isASCIILowercase: Bool { self &- UInt8(ascii: "a") < 26 }
    /// `a`…`z` or `A`…`Z`.
    @inline(__always) var isASCIILetter: Bool { foldedLetter &- UInt8(ascii: "a") < 26 }
    /// The bracket that closes this one (`]` for `[`, `)` for `(`, `}` for `{`, `>` for `<`).
    @inline(__always) var closingBracket: UInt8 {
        switch self {
        case .openParen: return .closeParen
        case .openBrace: return .closeBrace
        case .less: return .greater
        default: return .closeBracket
        }
    }
}
