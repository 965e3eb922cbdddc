#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The words of free-form statements: levels, outcomes, arguments, and the words that make a
/// message a sentence rather than a statement.
enum Words {
    static func equalsFolded(_ p: UnsafePointer<UInt8>, _ n: Int, _ s: StaticString) -> Bool {
        guard n == s.utf8CodeUnitCount else { return false }
        let q = s.utf8Start
        for k in 0..<n {
            let a = p[k], b = q[k]
            if a == b { continue }
            if a.isASCIIUppercase, a.foldedLetter == b { continue }
            if a.isASCIILowercase, b.isASCIIUppercase, a == b.foldedLetter { continue }
            return false
        }
        return true
    }

    /// A word's class bits, looked up by a hash of its lowercased ASCII bytes (no allocation: this
    /// runs on every word of every line that mentions a callback).
    struct Kind: OptionSet {
        let rawValue: UInt16
        static let level = Kind(rawValue: 1 << 0)
        static let enter = Kind(rawValue: 1 << 1)
        static let exit = Kind(rawValue: 1 << 2)
        static let called = Kind(rawValue: 1 << 3)
        static let stop = Kind(rawValue: 1 << 4)
        static let flag = Kind(rawValue: 1 << 5)
        static let none = Kind(rawValue: 1 << 6)
        static let parent = Kind(rawValue: 1 << 7)
        static let source = Kind(rawValue: 1 << 8)
        /// The stop words that stay a sentence's even when capitalised (`The`, `When`, `My`): a title
        /// may hold the others (`Home Screen`, `Test Results`).
        static let function = Kind(rawValue: 1 << 9)
        /// The stop words a capture may still use as a label, alone, once it repeats one as the subject
        /// of two callbacks (`About viewDidLoad`, `Screen viewDidAppear`); the others (`The`, `Before`,
        /// `Skipping`, `Override`) only a sentence or code holds.
        static let name = Kind(rawValue: 1 << 10)
    }

    /// FNV-1a of the word's bytes, ASCII letters lowercased; nil for a long or non-ASCII word.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> UInt64? {
        guard r.count <= 24 else { return nil }
        var h = fnvOffsetBasis
        for k in r {
            var b = p[k]
            guard b.isASCII else { return nil }
            if b.isASCIIUppercase { b = b.foldedLetter }
            h = (h ^ UInt64(b)) &* fnvPrime
        }
        return h
    }

    static func key(_ s: String) -> UInt64 {
        var h = fnvOffsetBasis
        for b in s.utf8 { h = (h ^ UInt64(b.isASCIIUppercase ? b.foldedLetter : b)) &* fnvPrime }
        return h
    }

    /// FNV-1a's 64-bit offset basis and prime.
    @inline(__always) static var fnvOffsetBasis: UInt64 { 0xcbf29ce484222325 }
    @inline(__always) static var fnvPrime: UInt64 { 0x100000001b3 }

    /// Open addressing over the FNV hash (already computed; no SipHash per word): keys and kinds.
    private static let tableSize = 1024
    nonisolated(unsafe) private static let table: (keys: UnsafeMutablePointer<UInt64>, kinds: UnsafeMutablePointer<UInt16>) = {
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: tableSize)
        let kinds = UnsafeMutablePointer<UInt16>.allocate(capacity: tableSize)
        keys.initialize(repeating: 0, count: tableSize)
        kinds.initialize(repeating: 0, count: tableSize)
        for (h, kind) in words {
            var i = Int(truncatingIfNeeded: h) & (tableSize - 1)
            while keys[i] != 0, keys[i] != h { i = (i + 1) & (tableSize - 1) }
            keys[i] = h
            kinds[i] |= kind.rawValue
        }
        return (keys, kinds)
    }()

    private static let words: [UInt64: Kind] = {
        var t: [UInt64: Kind] = [:]
        func add(_ kind: Kind, _ words: [String]) { for w in words { t[key(w), default: []].insert(kind) } }
        add(.level, ["debug", "info", "information", "warn", "warning", "error", "err", "trace", "verbose", "notice",
                     "fault", "fatal", "critical", "log", "default", "dbg", "inf", "wrn", "lifecycle", "life", "vc"])
        add(.enter, ["begin", "beginning", "begins", "start", "started", "starting", "starts", "enter", "entered",
                     "entering", "enters"])
        add(.exit, ["end", "ended", "ending", "ends", "exit", "exited", "exiting", "exits", "finish", "finished",
                    "finishing", "done", "complete", "completed", "leave", "leaving", "left", "return", "returned", "returning"])
        add(.called, ["called", "call", "calling", "invoke", "invoked", "invoking", "fired", "triggered", "executed",
                      "executing", "running", "method", "callback", "is", "was", "get", "got", "being"])
        // Words that make a message a sentence when they stand where a label would.
        add(.stop, ["a", "an", "the", "and", "or", "but", "not", "no", "nor", "in", "inside", "into", "on", "onto", "at",
                    "after", "before", "from", "to", "for", "of", "by", "with", "without", "within", "during", "since",
                    "until", "till", "when", "whenever", "while", "if", "then", "than", "as", "via", "per", "about",
                    "that", "which", "who", "whom", "where", "why", "how", "what", "this", "these", "those", "there",
                    "all", "any", "each", "every", "some", "my", "our", "your", "its", "their", "his", "her", "i",
                    "we", "you", "he", "she", "it", "they", "me", "us", "them", "super", "self", "will", "did", "do", "does",
                    "func", "function", "has", "have", "had", "are", "were", "be", "been", "should", "would", "could", "can",
                    "may", "might", "must", "shall", "override", "void", "let", "var", "class", "struct", "static", "public",
                    "private", "internal", "open", "final", "objc", "re", "de", "pre", "post", "un", "non", "sub",
                    "also", "again", "still", "just", "only", "never", "always", "twice", "once", "too", "very",
                    "here", "now", "skip", "skipped", "skipping", "swizzle", "swizzled", "swizzling", "hook", "hooked",
                    "track", "tracked", "tracking", "queue", "queued", "send", "sent", "sending", "event", "events",
                    "screen", "screens", "test", "testing", "missing", "missed", "expected", "expect", "unexpected"])
        add(.function, ["a", "an", "the", "and", "or", "but", "not", "no", "nor", "in", "inside", "into", "on", "onto", "at",
                        "after", "before", "from", "to", "for", "of", "by", "with", "without", "within", "during", "since",
                        "until", "till", "when", "whenever", "while", "if", "then", "than", "as", "via", "per", "about",
                        "that", "which", "who", "whom", "where", "why", "how", "what", "this", "these", "those", "there",
                        "all", "any", "each", "every", "some", "my", "our", "your", "its", "their", "his", "her", "i",
                        "we", "you", "he", "she", "it", "they", "me", "us", "them", "self", "will", "did", "do", "does",
                        "func", "function", "has", "have", "had", "are", "were", "be", "been", "should", "would", "could",
                        "can", "may", "might", "must", "shall", "override", "void", "let", "var", "class", "struct", "static",
                        "public", "private", "internal", "open", "final", "also", "again", "still", "just", "only", "never",
                        "always", "twice", "once", "too", "very", "here", "now"])
        add(.name, ["about", "screen", "screens", "test", "testing", "event", "events", "here", "now"])
        add(.flag, ["animated", "true", "false", "yes", "no", "optional", "some", "bool", "flag", "value", "self",
                    "object", "instance", "vc", "controller", "viewcontroller"])
        add(.none, ["nil", "null", "none"])
        add(.parent, ["parent", "toparent", "parentviewcontroller", "toparentviewcontroller", "to", "from", "with"])
        add(.source, ["swift", "m", "mm", "h", "c", "cpp", "cs", "kt"])
        return t
    }()

    /// The longest word of the table (`toparentviewcontroller`): a longer word is none of them.
    static let longestWord = 22

    @inline(__always)
    static func kind(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Kind {
        guard r.count <= longestWord, let h = key(p, r) else { return [] }
        let t = table
        var i = Int(truncatingIfNeeded: h) & (tableSize - 1)
        while true {
            let k = t.keys[i]
            if k == h { return Kind(rawValue: t.kinds[i]) }
            if k == 0 { return [] }
            i = (i + 1) & (tableSize - 1)
        }
    }

    static func isLevel(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool { kind(p, r).contains(.level) }

    /// An outcome word (`begin`, `end`, `called`): nil when the word is not one.
    static func phase(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> FreeFormStatement.Phase? { phase(kind(p, r)) }

    @inline(__always)
    static func phase(_ k: Kind) -> FreeFormStatement.Phase? {
        if k.contains(.called) { return FreeFormStatement.Phase.none }
        if k.contains(.enter) { return .enter }
        if k.contains(.exit) { return .exit }
        return nil
    }

    static func isStopWord(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool { kind(p, r).contains(.stop) }

    /// A lowercase English verb form (`loading`, `skipped`): not a label. (A capitalised one can be
    /// a screen's name: `Onboarding viewDidLoad`.)
    static func isLowercaseVerb(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 5, isPlainLowercase(p, r) else { return false }
        let e = r.upperBound
        return (p[e - 3] == UInt8(ascii: "i") && p[e - 2] == UInt8(ascii: "n") && p[e - 1] == UInt8(ascii: "g"))
            || (p[e - 2] == UInt8(ascii: "e") && p[e - 1] == UInt8(ascii: "d"))
    }

    /// Only lowercase ASCII letters, two or more: an English word (a sentence when it follows the
    /// callback and is not one of its arguments).
    static func isPlainLowercase(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 2 else { return false }
        for k in r where !p[k].isASCIILowercase { return false }
        return true
    }

    enum Argument { case flag, none, parentWord, other }
    static func argument(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Argument { argument(kind(p, r)) }

    @inline(__always)
    static func argument(_ k: Kind) -> Argument {
        if k.contains(.flag) { return .flag }
        if k.contains(.none) { return .none }
        if k.contains(.parent) { return .parentWord }
        return .other
    }

    static func isNullWord(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool { kind(p, r).contains(.none) }

    /// Whether a name holds a letter of some script (a run of symbols is no name).
    static func hasLetter(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            let b = p[i]
            if b.isASCII {
                if b.isASCIILetter || b == .underscore { return true }
                i += 1
                continue
            }
            let (v, k) = TextScalars.decode(p, i, r.upperBound)
            if TextScalars.classify(v) == .letter { return true }
            i += k
        }
        return false
    }

    /// Whether a region holds only arguments: numbers, flags (`animated`, `true`, `YES`), `nil`,
    /// separators and nested parentheses.
    static func onlyArguments(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            let b = p[i]
            if FreeFormReader.isIdentStart(b) {
                var e = i + 1
                while e < r.upperBound, FreeFormReader.isIdentByte(p[e]) { e += 1 }
                let k = kind(p, i..<e)
                guard k.contains(.flag) || k.contains(.none) || k.contains(.called) else { return false }
                i = e
                continue
            }
            guard ByteCursor.isDigit(b) || b == .space || b == .dot || b == .comma || b == .colon || b == .openParen || b == .closeParen
                || b == .hyphen || b == .equals || b == .underscore else { return false }
            i += 1
        }
        return true
    }

    /// Whether a region holds a plain lowercase word that is not an argument: a sentence.
    static func hasSentence(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            guard FreeFormReader.isIdentStart(p[i]) else { i += 1; continue }
            var e = i + 1
            while e < r.upperBound, FreeFormReader.isIdentByte(p[e]) { e += 1 }
            let w = i..<e
            if (i == r.lowerBound || !FreeFormReader.isIdentByte(p[i - 1])), isPlainLowercase(p, w), w.count > 2,
               argument(p, w) == .other, phase(p, w) == nil {
                return true
            }
            i = e
        }
        return false
    }

    /// `HomeVC.swift`: a source file's name.
    static func isSourceFile(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        var k = r.upperBound
        while k > r.lowerBound, p[k - 1] != .dot { k -= 1 }
        guard k > r.lowerBound + 1, k < r.upperBound else { return false }
        return kind(p, k..<r.upperBound).contains(.source)
    }

    /// `HomeVC.swift:42` → `HomeVC` (the stem names the controller when nothing else does).
    static func sourceFileRange(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int>? {
        var i = r.lowerBound
        while i < r.upperBound {
            guard FreeFormReader.isIdentStart(p[i]) else { i += 1; continue }
            var e = i
            while e < r.upperBound, FreeFormReader.isIdentByte(p[e]) || p[e] == .dot { e += 1 }
            if isSourceFile(p, i..<e) {
                var dot = e
                while dot > i, p[dot - 1] != .dot { dot -= 1 }
                return i..<(dot - 1)
            }
            i = e
        }
        return nil
    }

    enum BracketContent { case label, file, decoration, sentence }
    /// `[Main]` names a controller; `[INFO]`, `[7397:f803]`, `[12:00:01]` are decoration; `[HomeVC.swift:42]`
    /// a source location; `[some words here]` a tag too, unless it reads as a sentence.
    static func bracketContent(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> BracketContent {
        guard !r.isEmpty else { return .decoration }
        if memchr(p + r.lowerBound, Int32(UInt8.dot), r.count) != nil, sourceFileRange(p, r) != nil { return .file }
        var hasLetter = false, hasSpace = false, ident = true
        for k in r {
            let b = p[k]
            if b == .space { hasSpace = true; ident = false; continue }
            if b.isASCIILetter || !b.isASCII { hasLetter = true; continue }
            if ByteCursor.isDigit(b) || b == .underscore || b == .dot || b == .hyphen || b == .dollar { continue }
            ident = false
        }
        guard hasLetter else { return .decoration }  // [7397:f803], [12:00:01.000], [1]
        if ident {
            let first = p[r.lowerBound]
            guard FreeFormReader.isIdentStart(first) || !first.isASCII else { return .decoration }
            let k = kind(p, r)
            if k.contains(.level) { return .decoration }
            return k.contains(.stop) ? .sentence : .label
        }
        // `[Page 2]`: a word and a number.
        if hasSpace {
            var words = 0
            var i = r.lowerBound
            while i < r.upperBound {
                if p[i] == .space { i += 1; continue }
                var e = i
                while e < r.upperBound, p[e] != .space { e += 1 }
                words += 1
                if words == 2 {
                    var digits = true
                    for k in i..<e where !ByteCursor.isDigit(p[k]) { digits = false }
                    if digits, e == r.upperBound { return .label }
                }
                i = e
            }
        }
        return .decoration
    }

    /// Whether a described object's class is the label's (module prefixes aside).
    static func sameClass(_ p: UnsafePointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let x = FreeFormReader.lastComponent(p, a), y = FreeFormReader.lastComponent(p, b)
        return x.count == y.count && memcmp(p + x.lowerBound, p + y.lowerBound, x.count) == 0
    }
}
