#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built-in grammars' common shapes read without PCRE2: the described object
/// (`<Home: 0x7f…> viewDidLoad`), the method and its class (`viewDidLoad: Home`), the named invoke
/// (`Home invoke viewDidLoad`), the completion marker (`Home present end`) and the dotted dealloc
/// (`Home.......dealloc`). Each reading takes what the regex's first choice takes and answers nil (the
/// regex decides) wherever that choice could fail and the regex would backtrack into another, so a
/// reading that succeeds gives the regex's groups (`ParserFastPathTests` compares them on mutated lines).
extension MessageParser {
    /// A grammar's groups, as its regex would give them.
    struct Groups4 {
        var cls: Range<Int>, method: Range<Int>, signature: Range<Int>, rest: Range<Int>
    }

    /// PCRE2's `\s` without UCP: space, \t, \n, \v, \f, \r.
    @inline(__always) static func isRegexSpace(_ b: UInt8) -> Bool { b == .space || b &- UInt8.tab < 5 }
    /// `[A-Za-z_$\x80-\xff]`: where a class name may start.
    @inline(__always) static func isClassStart(_ b: UInt8) -> Bool { (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore || b == .dollar || b >= 0x80 }
    /// `[\w$\x80-\xff]`: what a class name's run holds.
    @inline(__always) static func isClassByte(_ b: UInt8) -> Bool { ByteCursor.isWord(b) || b == .dollar || b >= 0x80 }
    /// `[A-Za-z_]`: where a method name starts.
    @inline(__always) static func isMethodStart(_ b: UInt8) -> Bool { (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore }
    /// `[^\s\[\]<>()]`: what a label holds.
    @inline(__always) static func isLabelByte(_ b: UInt8) -> Bool {
        !isRegexSpace(b) && b != .openBracket && b != .closeBracket && b != .less && b != .greater && b != .openParen && b != .closeParen
    }

    /// The end of `[A-Za-z_]\w*` (greedy) starting at `i`, which holds a method start.
    @inline(__always) static func methodEnd(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: Int) -> Int {
        var k = i + 1
        while k < n, ByteCursor.isWord(p[k]) { k += 1 }
        return k
    }

    /// The end of the `sig` group at `s` (`\((?:[\w ]*:)*[\w ]*\)|(?::\w*)*`): the `(…)` when only word
    /// bytes, spaces and colons come before its `)`, else the colon-led words (the second alternative,
    /// which may match nothing). The rest (`.*`) matches whatever follows, so the first choice stands.
    @inline(__always) static func signatureEnd(_ p: UnsafePointer<UInt8>, _ n: Int, _ s: Int) -> Int {
        var s = s
        if s < n, p[s] == .openParen {
            var t = s + 1
            while t < n, ByteCursor.isWord(p[t]) || p[t] == .space || p[t] == .colon { t += 1 }
            if t < n, p[t] == .closeParen { s = t + 1 }
        } else {
            while s < n, p[s] == .colon {
                s += 1
                while s < n, ByteCursor.isWord(p[s]) { s += 1 }
            }
        }
        return s
    }

    /// The end of the longest run of label bytes at 0 (`[^\s\[\]<>()]+`, greedy), 0 when none.
    @inline(__always) static func labelEnd(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var i = 0
        while i < n, isLabelByte(p[i]) { i += 1 }
        return i
    }

    /// A described object's head, `<Class: 0x…>` (`describedShape` reads on from its `>`): the class's bytes and the
    /// address with its `0x`, which the `>` follows. nil: not that head (a dotted class, a description after `;`).
    @inline(__always)
    static func describedHead(_ p: UnsafePointer<UInt8>, _ n: Int) -> (cls: Range<Int>, address: Range<Int>)? {
        guard n > 4, p[0] == .less, isClassStart(p[1]) else { return nil }
        var i = 2
        while i < n, isClassByte(p[i]) { i += 1 }
        // A dotted class (`MyApp.Home`) or another byte: the regex.
        guard i < n, p[i] == .colon else { return nil }
        var j = i + 1
        while j < n, isRegexSpace(p[j]) { j += 1 }
        guard j + 2 < n, p[j] == .zero, p[j + 1] == UInt8(ascii: "x"), ByteCursor.isHex(p[j + 2]) else { return nil }
        var h = j + 3
        while h < n, ByteCursor.isHex(p[h]) { h += 1 }
        // `0x…;description>`: the regex.
        guard h < n, p[h] == .greater else { return nil }
        return (1..<i, j..<h)
    }

    /// `<Class: 0x…> method(sig) rest` (the `described` grammar) with a plain class, no `;`-led
    /// description and a method after the `>`: its groups and the address's. nil: the regex decides.
    static func describedShape(_ m: Message) -> (Groups4, address: Range<Int>)? {
        let p = m.base, n = m.count
        guard let (cls, address) = describedHead(p, n) else { return nil }
        var k = address.upperBound + 1
        while k < n, isRegexSpace(p[k]) { k += 1 }
        if k < n, p[k] == .hyphen || p[k] == .colon {
            k += 1
            while k < n, isRegexSpace(p[k]) { k += 1 }
        }
        guard k < n, isMethodStart(p[k]) else { return nil }
        let e = methodEnd(p, n, k)
        let s = signatureEnd(p, n, e)
        return (Groups4(cls: cls, method: k..<e, signature: e..<s, rest: s..<n), address)
    }

    /// `method(sig): Class rest` (the `methodClass` grammar: `viewDidLoad: Home`, `init:Home`). nil: the regex decides.
    static func methodClassShape(_ m: Message) -> Groups4? {
        let p = m.base, n = m.count
        guard n > 2, isMethodStart(p[0]) else { return nil }
        let e = methodEnd(p, n, 0)
        var s = e
        if s < n, p[s] == .openParen {
            // `\((?:\w*:)*\)`: word bytes and colons, the last before the `)` a colon (or none at all).
            var t = s + 1
            while t < n, ByteCursor.isWord(p[t]) || p[t] == .colon { t += 1 }
            guard t < n, p[t] == .closeParen, t == s + 1 || p[t - 1] == .colon else { return nil }
            s = t + 1
        }
        var k = s
        while k < n, isRegexSpace(p[k]) { k += 1 }
        guard k < n, p[k] == .colon else { return nil }
        k += 1
        while k < n, isRegexSpace(p[k]) { k += 1 }
        guard k < n, isClassStart(p[k]) else { return nil }
        // The class and its dotted components (`MyApp.Home`), each taken while a class start follows the dot.
        var c = k + 1
        while true {
            while c < n, isClassByte(p[c]) { c += 1 }
            guard c + 1 < n, p[c] == .dot, isClassStart(p[c + 1]) else { break }
            c += 2
        }
        return Groups4(cls: k..<c, method: 0..<e, signature: e..<s, rest: c..<n)
    }

    /// `Label invoke method(sig) rest` (the named dialect's invoke). nil: the regex decides.
    static func invokeShape(_ m: Message) -> Groups4? {
        let p = m.base, n = m.count
        let l = labelEnd(p, n)
        guard l > 0 else { return nil }
        var k = l
        while k < n, isRegexSpace(p[k]) { k += 1 }
        guard k > l, k + 7 < n, memcmp(p + k, "invoke", 6) == 0, isRegexSpace(p[k + 6]) else { return nil }
        k += 7
        while k < n, isRegexSpace(p[k]) { k += 1 }
        guard k < n, isMethodStart(p[k]) else { return nil }
        let e = methodEnd(p, n, k)
        let s = signatureEnd(p, n, e)
        return Groups4(cls: 0..<l, method: k..<e, signature: e..<s, rest: s..<n)
    }

    /// A completion marker's words at the message's end: `… (present|dismiss)\s+(phase)` after white
    /// space, where both marker grammars end. nil: neither regex can match.
    static func markerTail(_ m: Message) -> (verb: Range<Int>, phase: Range<Int>)? {
        let p = m.base, n = m.count
        guard n >= 13 else { return nil }
        // (The phase's last byte: `begin`, `done`, `start`, `finished`, `end`, `complete`, `completed`.)
        let last = p[n - 1]
        guard last == UInt8(ascii: "n") || last == UInt8(ascii: "t") || last == UInt8(ascii: "d") || last == UInt8(ascii: "e") else { return nil }
        var ph = -1
        for word: StaticString in ["begin", "start", "end", "done", "finished", "complete", "completed"] {
            let k = word.utf8CodeUnitCount
            if n > k, memcmp(p + n - k, word.utf8Start, k) == 0, isRegexSpace(p[n - k - 1]) { ph = n - k; break }
        }
        guard ph > 0 else { return nil }
        var v = ph - 1
        while v > 0, isRegexSpace(p[v - 1]) { v -= 1 }
        guard v >= 8, memcmp(p + v - 7, "present", 7) == 0 || memcmp(p + v - 7, "dismiss", 7) == 0, isRegexSpace(p[v - 8]) else { return nil }
        return (v - 7..<v, ph..<n)
    }

    /// `Label (present|dismiss) phase` (the `marker` grammar) given its tail: the label is the run of
    /// label bytes at the start, and only white space may stand between it and the verb. nil: no match.
    static func markerLabel(_ m: Message, verb: Range<Int>) -> Range<Int>? {
        let p = m.base
        let l = labelEnd(p, verb.lowerBound)
        guard l > 0 else { return nil }
        var k = l
        while k < verb.lowerBound, isRegexSpace(p[k]) { k += 1 }
        return k > l && k == verb.lowerBound ? 0..<l : nil
    }

    /// The `dots` grammar, `^(Label+?)\s*(?:\.|…){2,}\s*(dealloc|deinit)\s*(?:\.|…)*$` (seed 000's
    /// `.......dealloc.......`): the label is lazy, so it is the shortest run of label bytes after which
    /// the rest has that shape; that rest holds no letter before the method, so the method is the first
    /// letter after the label. The class's range, or nil when the regex cannot match either.
    static func dotsShape(_ m: Message) -> Range<Int>? {
        let p = m.base, n = m.count
        // The method and what follows it: only white space and dots or ellipses to the end.
        @inline(__always) func dot(_ i: Int, _ end: Int) -> Int {
            if p[i] == .dot { return 1 }
            return i + 2 < end && p[i] == 0xE2 && p[i + 1] == 0x80 && p[i + 2] == 0xA6 ? 3 : 0
        }
        var e = 1
        while e < n, isLabelByte(p[e - 1]) {
            // The rest after a label of `e` bytes: \s* (dots){2,} \s* method \s* (dots)* $.
            var k = e
            while k < n, isRegexSpace(p[k]) { k += 1 }
            var dots = 0
            while k < n, case let d = dot(k, n), d > 0 { k += d; dots += 1 }
            if dots >= 2 {
                while k < n, isRegexSpace(p[k]) { k += 1 }
                var after = -1
                if k + 7 <= n, memcmp(p + k, "dealloc", 7) == 0 { after = k + 7 } else if k + 6 <= n, memcmp(p + k, "deinit", 6) == 0 { after = k + 6 }
                if after >= 0 {
                    var t = after
                    while t < n, isRegexSpace(p[t]) { t += 1 }
                    while t < n, case let d = dot(t, n), d > 0 { t += d }
                    if t == n { return 0..<e }
                }
            }
            e += 1
        }
        return nil
    }
}
