#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lifecycle statement in the app's own words, beyond the known dialects: one callback name
/// and, at most, one label, a separator, decoration and arguments.
/// `vc1 – viewDidLoad`, `[Main] viewWillAppear`, `FirstViewController :loadView`,
/// `111-[ViewController viewDidLoad]`, `One ViewWillDisappear`, `🔵 HomeVC.swift:42 viewDidLoad()`,
/// a bare `viewDidLoad`. Byte ranges are relative to the message.
struct FreeFormStatement {
    /// Whether the statement announces the callback's start or its end (`viewDidLoad begin` …
    /// `viewDidLoad end`, `>>> viewDidLoad` … `<<< viewDidLoad`): an end that follows its start is
    /// the same callback logged twice.
    enum Phase: UInt8 { case none, enter, exit }

    /// Where the label came from (its spelling in the message).
    enum LabelSource: UInt8 { case none, word, bracket, object, file, objc, dotted, title, mask }

    var kind: EventKind
    /// The label's bytes; nil: an unlabeled statement, the session's `(unnamed)` controller.
    var label: Range<Int>?
    var labelSource: LabelSource = .none
    /// Bytes of a class name to normalise (`Shop.HomeViewController` → `HomeViewController`).
    var labelIsClass = false
    var address: UInt64?
    var parent: ParentArgument = .unknown
    /// The parent's class of a move-to-parent statement, when the message names it.
    var parentClass: Range<Int>?
    var phase: Phase = .none
    /// The callback name with its signature (`viewWillAppear(_:)`, `initWithNibName:bundle:`).
    var callback: Range<Int>
    /// A printed value after the callback of an unlabeled statement (`viewWillAppear: 2
    /// UIDeviceRGBColorSpace 1 0.5 0 1`): the capture decides whether it names the controller
    /// (`LabelLearner`).
    var value: Range<Int>?
    /// A title of two to six words (`Home Screen | viewDidLoad`), or a word a sentence would use alone
    /// (`About viewDidLoad`): a label only when the capture repeats it with other callbacks
    /// (docs/lifecycle.md#labels); seen once, a sentence.
    var title = false
    /// The label was redacted by the unified log (`<private> viewDidLoad`): the statement names no
    /// class and is the unnamed controller's (docs/lifecycle.md#redacted-labels).
    var redacted = false
}

/// What `FreeFormReader` made of a message.
enum FreeFormResult {
    /// No callback name stands in it as a word: noise, and not worth counting.
    case none
    /// It mentions a callback name but is not a lifecycle statement (a sentence, two callbacks, code).
    case mention
    case statement(FreeFormStatement)
}

/// Reads free-form lifecycle statements from message bytes, without allocating.
enum FreeFormReader {
    static func read(_ p: UnsafePointer<UInt8>, _ count: Int) -> FreeFormResult {
        let whole = TextScalars.trimmed(p, 0..<count)
        let start = whole.lowerBound
        let n = statementEnd(p, whole)
        guard n > start else { return .none }
        // The callback: the first callback name standing as a word (a second one, further on, makes
        // the message a sentence about them).
        guard let cb = nextCallback(p, from: start, to: n, lineStart: start) else { return .none }
        let sigEnd = signatureEnd(p, cb.end, n)
        guard let kind = MethodTable.kind(UnsafeBufferPointer(start: p + cb.start, count: cb.end - cb.start),
                                          signature: UnsafeBufferPointer(start: p + cb.end, count: sigEnd - cb.end),
                                          foldCase: true) else { return .mention }
        var st = FreeFormStatement(kind: kind, callback: cb.start..<sigEnd)
        guard let unit = attachedLabel(p, start, n, callback: cb.start, sigEnd: sigEnd, into: &st) else { return .mention }
        if sigEnd < n, !p[sigEnd].isASCII, !unit.attached || unit.rightStart == sigEnd, isLetter(p, sigEnd, n) { return .mention }
        // The words before the callback reject most sentences (`[Analytics] queued screen event …`)
        // before the rest of the line is read.
        guard readSide(LeftGrammar(attached: unit.attached), p, start..<unit.leftEnd, &st) else { return .mention }
        if nextCallback(p, from: unit.rightStart, to: n, lineStart: start) != nil { return .mention }
        guard readSide(RightGrammar(kind: kind), p, unit.rightStart..<n, &st) else { return .mention }
        return .statement(st)
    }

    /// Where the statement ends: before trailing sentence punctuation (`.`, `!`, `;`), unless the
    /// dots cut an id short (`deinit DetailViewModel C86...`: they belong to it).
    private static func statementEnd(_ p: UnsafePointer<UInt8>, _ whole: Range<Int>) -> Int {
        var n = whole.upperBound
        // `……dealloc……` keeps its dots for the named grammar; here they are decoration anyway.
        while n > whole.lowerBound, p[n - 1] == .dot || p[n - 1] == .bang || p[n - 1] == .semicolon { n -= 1 }
        if n < whole.upperBound, p[n] == .dot, let idEnd = truncatedIDEnd(p, idStart(p, n, whole.lowerBound), whole.upperBound) {
            n = max(n, idEnd)
        }
        return n
    }

    /// The end of the callback's signature: `(_:)`, `(animated:)`, `()`, or ObjC selector pieces
    /// `:bundle:`; `end` when it has none.
    private static func signatureEnd(_ p: UnsafePointer<UInt8>, _ end: Int, _ n: Int) -> Int {
        var sigEnd = end
        if sigEnd < n, p[sigEnd] == .openParen {
            var k = sigEnd + 1
            while k < n, k - sigEnd < 80, isSignatureByte(p[k]) { k += 1 }
            if k < n, p[k] == .closeParen { sigEnd = k + 1 }
        } else if sigEnd < n, p[sigEnd] == .colon {
            sigEnd += 1
            // `initWithNibName:bundle:`: further pieces are words followed by a colon.
            while true {
                var k = sigEnd
                while k < n, isIdentByte(p[k]) { k += 1 }
                guard k > sigEnd, k < n, p[k] == .colon else { break }
                sigEnd = k + 1
            }
        }
        return sigEnd
    }

    /// A label attached to the callback: `-[Class method]` (ObjC, maybe after a number), or
    /// `Class.method` / `Shop.Class.method()` (Swift); where the words before and after it are.
    /// Nil: the callback is part of something else (a block, a sentence, a word of another script).
    private static func attachedLabel(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int, callback: Int, sigEnd: Int,
                                      into st: inout FreeFormStatement) -> (leftEnd: Int, rightStart: Int, attached: Bool)? {
        if let objc = objcUnit(p, start: start, n: n, callback: callback, sigEnd: sigEnd) {
            if objc.invalid { return nil }
            st.label = objc.cls
            st.labelSource = .objc
            st.labelIsClass = true
            return (objc.start, objc.end, true)
        }
        if callback > start, p[callback - 1] == .dot {
            guard let word = dottedLabel(p, start, callback) else { return (callback, sigEnd, false) }
            if !isLoneCapital(p, word), Words.isStopWord(p, word) || Words.isStopWord(p, lastComponent(p, word)) { return nil }
            st.label = word
            st.labelSource = .dotted
            st.labelIsClass = true
            return (word.lowerBound, sigEnd, true)
        }
        // Glued to a letter of another script (`调用viewDidLoad方法`): part of a sentence.
        if callback > start, !p[callback - 1].isASCII, isLetter(p, scalarStart(p, callback - 1, start), n) { return nil }
        return (callback, sigEnd, false)
    }

    /// `Shop.Home` in `Shop.Home.viewDidLoad`: the dotted name before the callback's dot. Dots only
    /// between words (`..viewDidLoad` and `HomeVC. viewDidLoad` are decoration).
    private static func dottedLabel(_ p: UnsafePointer<UInt8>, _ start: Int, _ callback: Int) -> Range<Int>? {
        var k = callback - 1
        while k > start, isIdentByte(p[k - 1]) || p[k - 1] == .dot || !p[k - 1].isASCII { k -= 1 }
        guard k < callback - 1, isIdentStart(p[k]) || !p[k].isASCII else { return nil }
        return k..<(callback - 1)
    }

    /// Whether the scalar at `p[i]` is a letter (of any script, or an invalid byte).
    @inline(__always) private static func isLetter(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        TextScalars.classify(TextScalars.decode(p, i, n).scalar) == .letter
    }

    /// `A`, `I`: a capital letter alone, a label (`A: viewDidLoad()`) though English uses it too.
    @inline(__always) static func isLoneCapital(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        r.count == 1 && (p[r.lowerBound] == UInt8(ascii: "A") || p[r.lowerBound] == UInt8(ascii: "I"))
    }

    /// Reads one side of the callback with its grammar, the tokens a buffer's worth at a time.
    private static func readSide<G: FreeFormGrammar>(_ grammar: G, _ p: UnsafePointer<UInt8>, _ r: Range<Int>,
                                                     _ st: inout FreeFormStatement) -> Bool {
        var g = grammar
        var tokenizer = FreeFormTokenizer(p, r, side: G.side)
        let read = withUnsafeTemporaryAllocation(of: FreeFormToken.self, capacity: FreeFormTokenizer.capacity) { buffer -> Bool in
            while !tokenizer.done {
                let count = tokenizer.fill(buffer)
                for k in 0..<count where !g.take(buffer[k], p, &st) { return false }
            }
            return true
        }
        return read && g.finish(p, &st)
    }

    /// The next callback name standing as a word in `p[from..<to]`.
    @inline(__always)
    private static func nextCallback(_ p: UnsafePointer<UInt8>, from: Int, to n: Int, lineStart: Int) -> (start: Int, end: Int)? {
        var i = from
        while i < n {
            guard isIdentStart(p[i]) else { i += 1; continue }
            // A word run: letters, digits, `_`, `$`.
            let s = i
            i += 1
            while i < n, isIdentByte(p[i]) { i += 1 }
            // A callback name starts a word: not glued to a word character before it.
            if s > lineStart, isIdentByte(p[s - 1]) { continue }
            guard i - s >= 4, i - s <= 40, couldBeCallback(p[s]), isCallbackName(p + s, i - s) else { continue }
            return (s, i)
        }
        return nil
    }

    // MARK: - The callback

    /// Byte classes: 1 a word's first byte (a letter, `_`), 2 a word's byte (and digits, `$`).
    nonisolated(unsafe) private static let classes: UnsafeMutablePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        t.initialize(repeating: 0, count: 256)
        for b in 0..<256 {
            let c = UInt8(b)
            if c.isASCIILetter || c == .underscore { t[b] = 3 } else if ByteCursor.isDigit(c) || c == .dollar { t[b] = 2 }
        }
        return t
    }()
    @inline(__always) static func isIdentStart(_ b: UInt8) -> Bool { classes[Int(b)] & 1 != 0 }
    @inline(__always) static func isIdentByte(_ b: UInt8) -> Bool { classes[Int(b)] & 2 != 0 }
    @inline(__always) private static func isSignatureByte(_ b: UInt8) -> Bool { isIdentByte(b) || b == .colon || b == .space || b == .comma }
    /// First letters of callback names (any case): i(nit) a(wake) l(oadView) v(iew…) w(illMove) d(idMove, dealloc, deinit, didReceive)
    /// o(nAppear, onDisappear).
    @inline(__always) private static func couldBeCallback(_ b: UInt8) -> Bool {
        let f = b.foldedLetter
        return f == UInt8(ascii: "i") || f == UInt8(ascii: "a") || f == UInt8(ascii: "l") || f == UInt8(ascii: "v")
            || f == UInt8(ascii: "w") || f == UInt8(ascii: "d") || f == UInt8(ascii: "o")
    }

    /// Whether `p[0..<n]` is a callback name in any of the spellings apps print (ObjC, Swift, bare,
    /// capitalised): the word's own name, before any signature.
    @inline(__always)
    static func isCallbackName(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        MethodTable.kind(UnsafeBufferPointer(start: p, count: n), signature: UnsafeBufferPointer(start: nil, count: 0), foldCase: true) != nil
            || isMoveName(p, n)
    }

    /// `willMove` / `didMove` alone (Swift's `willMove(toParent:)` before its signature), capitalised
    /// or not, as every callback name: only the first letter's case is free (`diDMove` is no spelling,
    /// and the candidate search, which looks for `illMove` and `idMove`, would not see it).
    private static func isMoveName(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        if n == 8 { return p[0].foldedLetter == UInt8(ascii: "w") && memcmp(p + 1, "illMove", 7) == 0 }
        if n == 7 { return p[0].foldedLetter == UInt8(ascii: "d") && memcmp(p + 1, "idMove", 6) == 0 }
        return false
    }

    /// `-[Class method…]`/`+[…]` around the callback: the class, and the unit's bounds. `invalid`
    /// when the unit is part of something else (`__26-[VC viewDidLoad]_block_invoke`: a block).
    private static func objcUnit(_ p: UnsafePointer<UInt8>, start: Int, n: Int, callback: Int, sigEnd: Int)
        -> (cls: Range<Int>, start: Int, end: Int, invalid: Bool)? {
        var k = callback
        guard k > start, p[k - 1] == .space else { return nil }
        while k > start, p[k - 1] == .space { k -= 1 }
        let clsEnd = k
        // A category: `-[Class(Name) method]`.
        if k > start, p[k - 1] == .closeParen {
            while k > start, p[k - 1] != .openParen { k -= 1 }
            guard k > start else { return nil }
            k -= 1
        }
        let nameEnd = k
        while k > start, isIdentByte(p[k - 1]) || p[k - 1] == .dot || !p[k - 1].isASCII { k -= 1 }
        guard k < nameEnd, k >= start + 2, p[k - 1] == .openBracket, p[k - 2] == .hyphen || p[k - 2] == .plus else { return nil }
        let unitStart = k - 2
        var e = sigEnd
        while e < n, p[e] == .space { e += 1 }
        guard e < n, p[e] == .closeBracket else { return nil }
        e += 1
        // Glued to a word on either side: a block or a symbol name, not the callback itself.
        // (A number glued in front is the app's numbered prefix: `111-[ViewController viewDidLoad]`.)
        var invalid = e < n && isIdentByte(p[e])
        if unitStart > start, isIdentByte(p[unitStart - 1]) {
            var q = unitStart
            while q > start, isIdentByte(p[q - 1]) { q -= 1 }
            for j in q..<unitStart where !ByteCursor.isDigit(p[j]) { invalid = true }
        }
        let cls = k..<(nameEnd == clsEnd ? clsEnd : nameEnd)
        return (cls, unitStart, e, invalid)
    }

    @inline(__always) private static func scalarStart(_ p: UnsafePointer<UInt8>, _ i: Int, _ start: Int) -> Int {
        var s = i
        while s > start, i - s < 3, p[s].isContinuation { s -= 1 }
        return s
    }

    /// `Shop.HomeViewController` → `HomeViewController`'s range.
    static func lastComponent(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        var k = r.upperBound
        while k > r.lowerBound, p[k - 1] != .dot { k -= 1 }
        return k < r.upperBound ? k..<r.upperBound : r
    }

    // MARK: - Shapes

    /// The statement's shape: its message with the label, the callback and any printed value
    /// replaced by placeholders and numbers by `#` (`{label} – {callback}`, `[{label}] {callback}`).
    /// Lines that share a shape are one dialect of the capture (`vclint inspect` lists them).
    static func template(_ p: UnsafePointer<UInt8>, _ count: Int, _ st: FreeFormStatement) -> String {
        let r = TextScalars.trimmed(p, 0..<count)
        var holes: [(Range<Int>, StaticString)] = [(st.callback, "{callback}")]
        if let l = st.label { holes.append((l, "{label}")) }
        if let v = st.value { holes.append((v, "{value}")) }
        holes.sort { $0.0.lowerBound < $1.0.lowerBound }
        var out = [UInt8]()
        var i = r.lowerBound
        var h = 0
        while i < r.upperBound {
            if h < holes.count, i >= holes[h].0.lowerBound {
                if i == holes[h].0.lowerBound {
                    let t = holes[h].1
                    out.append(contentsOf: UnsafeBufferPointer(start: t.utf8Start, count: t.utf8CodeUnitCount))
                    i = max(i, holes[h].0.upperBound)
                }
                h += 1
                continue
            }
            let b = p[i]
            if ByteCursor.isDigit(b) {
                while i < r.upperBound, ByteCursor.isDigit(p[i]) { i += 1 }
                out.append(.hash)
                continue
            }
            let sp = TextScalars.spaceLength(p, i, r.upperBound)
            if sp > 0 {
                if out.last != .space { out.append(.space) }
                i += sp
                continue
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Pieces

    /// What the unified log left of a label it redacted: `<private>` (a dynamic string not marked
    /// public), or `<mask.hash: '…'>` (`privacy: .private(mask: .hash)`, stable for one value).
    enum Redaction { case redacted, mask }

    static func redaction(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Redaction? {
        guard r.count >= 9, p[r.lowerBound] == .less, p[r.upperBound - 1] == .greater else { return nil }
        let inner = TextScalars.trimmed(p, (r.lowerBound + 1)..<(r.upperBound - 1))
        if inner.count == 7, memcmp(p + inner.lowerBound, "private", 7) == 0 { return .redacted }
        if inner.count > 10, memcmp(p + inner.lowerBound, "mask.hash:", 10) == 0 { return .mask }
        return nil
    }

    @inline(__always) static func onlySpaces(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        var k = from
        while k < to { if p[k] != .space { return false }; k += 1 }
        return true
    }

    /// The index of the bracket closing the one at `p[i]` (nesting counted), within 300 bytes.
    static func closing(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int, open: UInt8, close: UInt8) -> Int? {
        var depth = 0
        var k = i
        while k < end, k - i <= 300 {
            if p[k] == open { depth += 1 } else if p[k] == close {
                depth -= 1
                if depth == 0 { return k }
            }
            k += 1
        }
        return nil
    }

    /// `<Shop.Home: 0x7f…>`, `<Home>`, `<UIHostingController<ModifiedContent<…>>: 0x…>`: the class's
    /// range (module kept: the caller normalises) and the address.
    static func describedObject(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> (Range<Int>, UInt64?)? {
        var i = r.lowerBound + 1
        let end = r.upperBound - 1
        while i < end, p[i] == .space { i += 1 }
        let s = i
        while i < end, p[i] != .colon, p[i] != .less, p[i] != .greater, p[i] != .space, p[i] != .tab { i += 1 }
        guard i > s else { return nil }
        let cls = s..<i
        // Generic arguments: `<Host<Content>: 0x…>`.
        if i < end, p[i] == .less, let c = closing(p, i, end, open: .less, close: .greater) { i = c + 1 }
        var addr: UInt64? = nil
        if i < end, p[i] == .colon {
            i += 1
            while i < end, p[i] == .space { i += 1 }
            var e = i
            while e < end, isIdentByte(p[e]) { e += 1 }
            if isHexNumber(p, i..<e) { addr = MessageParser.hexValue(UnsafeBufferPointer(start: p + i, count: e - i)) }
        }
        return (cls, addr)
    }

    /// The end of an id cut short at `p[i]` (`C86...`, `0x6000…`: hex digits and `x`, at least one of
    /// them a decimal digit, then two dots or more or an ellipsis), else nil. It is neither an
    /// address nor a label (docs/lifecycle.md#class-names): the statement is read as if it were not
    /// there. (No length counts: `ShapeRoutes` takes a run of digits of any length for another.)
    static func truncatedIDEnd(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        guard i < end, isIDByte(p[i]) else { return nil }
        if i > 0, isIdentByte(p[i - 1]) || p[i - 1] == .dot { return nil }  // inside a word or a dotted name
        var k = i
        var decimal = false
        while k < end, isIDByte(p[k]) {
            if ByteCursor.isDigit(p[k]) { decimal = true }
            k += 1
        }
        guard decimal else { return nil }
        if k + 2 <= end, p[k] == .dot, p[k + 1] == .dot {
            k += 2
            while k < end, p[k] == .dot { k += 1 }
        } else if k + 3 <= end, memcmp(p + k, "…", 3) == 0 {
            k += 3
        } else {
            return nil
        }
        return k == end || !isIdentByte(p[k]) ? k : nil
    }

    @inline(__always) private static func isIDByte(_ b: UInt8) -> Bool { ByteCursor.isHex(b) || b.foldedLetter == UInt8(ascii: "x") }

    /// Where the run of an id's bytes (`truncatedIDEnd`) that ends at `n` starts.
    private static func idStart(_ p: UnsafePointer<UInt8>, _ n: Int, _ start: Int) -> Int {
        var k = n
        while k > start, isIDByte(p[k - 1]) { k -= 1 }
        return k
    }

    static func isHexNumber(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count > 2, p[r.lowerBound] == .zero, p[r.lowerBound + 1].foldedLetter == UInt8(ascii: "x") else { return false }
        for k in (r.lowerBound + 2)..<r.upperBound where !ByteCursor.isHex(p[k]) { return false }
        return true
    }

    /// `0D2C7F77-A822-4EF7-A0DA-D4C91F71B118`.
    static func isUUID(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count == 36 else { return false }
        for k in 0..<36 {
            let b = p[r.lowerBound + k]
            if k == 8 || k == 13 || k == 18 || k == 23 { if b != .hyphen { return false } } else if !ByteCursor.isHex(b) { return false }
        }
        return true
    }
}

/// A reader of one side of the callback: it takes the side's tokens in order (false: not a
/// statement) and then decides what they make of the statement.
protocol FreeFormGrammar {
    static var side: FreeFormTokenizer.Side { get }
    mutating func take(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool
    func finish(_ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool
}

extension FreeFormStatement {
    /// An outcome word or an arrow marks the phase; the first one counts.
    @inline(__always) mutating func mark(_ ph: Phase) {
        if phase == .none { phase = ph }
    }

    @inline(__always) mutating func setLabel(_ r: Range<Int>, _ source: LabelSource, isClass: Bool) {
        label = r
        labelSource = source
        labelIsClass = isClass
    }
}

extension FreeFormReader {
    // MARK: - Before the callback: decoration and at most one label

    /// Label candidates: a word (with a number: `AMKMethodSwizzlingDemo 2`), a bracketed tag
    /// (`[Main]`), a described object (`<Shop.Home: 0x7f…>`), a UUID, a source file. Arrows and outcome
    /// words mark the phase; levels, numbers and separators are decoration.
    struct LeftGrammar: FreeFormGrammar {
        static var side: FreeFormTokenizer.Side { .beforeCallback }
        /// The callback carries its label (`-[Home viewDidLoad]`, `Home.viewDidLoad`): no other may stand.
        let attached: Bool
        var word: Range<Int>? = nil, words = 0
        var bracket: Range<Int>? = nil
        var object: (Range<Int>, UInt64?)? = nil
        var file: Range<Int>? = nil
        /// A redacted label (`<private>`) and a hashed one (`<mask.hash: '…'>`).
        var redacted = false
        var mask: Range<Int>? = nil
        /// Where the words start; whether something other than spaces stands between two of them;
        /// how many are a lone `A`/`I` (and whether the first is), how many would be stop words in
        /// lowercase (`Screen`), and how many of those only a sentence holds (`The`, `When`).
        var firstWord = 0, scattered = false, letters = 0, letterFirst = false, soft = 0, functionWords = 0, sentenceWords = 0
        /// The last token was a word label (a number right after it belongs to it).
        var afterWord = false

        init(attached: Bool) { self.attached = attached }

        mutating func take(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            let wasAfterWord = afterWord
            afterWord = false
            switch t.kind {
            case .word: return takeWord(t, p, &st)
            case .uuid, .numbered:  // `111behind`, `2x`, a UUID: a word that starts with a digit
                words += 1
                word = t.range
                afterWord = true
            case .number:
                // A number right after a word names it with the word (`Demo 2`, `Page 3`);
                // elsewhere it is a numbered prefix, a time, a line number: decoration.
                if wasAfterWord, let w = word, !FreeFormReader.endsWithSeparator(p, t.range) { word = w.lowerBound..<t.range.upperBound }
            case .file: file = Words.sourceFileRange(p, t.range)
            case .bracket: return takeBracket(t, p)
            case .object:
                guard let o = FreeFormReader.describedObject(p, t.range) else { return false }
                object = o
            case .redacted: redacted = true
            case .mask: mask = t.range
            case .arrowEnter: st.mark(.enter)
            case .arrowExit: st.mark(.exit)
            case .level, .truncatedID, .punctuation: break
            case .code, .address, .quoted: return false  // (the last two are only lexed after the callback)
            }
            return true
        }

        private mutating func takeWord(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            if let ph = Words.phase(t.words) {
                st.mark(ph)
                return true
            }
            let r = t.range
            let letter = FreeFormReader.isLoneCapital(p, r)
            if t.words.contains(.stop) || Words.isLowercaseVerb(p, r) {
                // A capital letter alone (`A: viewDidLoad()`), a capitalised word of a title
                // (`Home Screen | viewDidLoad`) or a capitalised word alone (`About viewDidLoad`) may
                // still be a label: the words decide together, and the capture decides a title.
                guard letter || !Words.isPlainLowercase(p, r) else { return false }
                if letter {
                    letters += 1
                    if words == 0 { letterFirst = true }
                } else {
                    if t.words.contains(.function) {
                        guard FreeFormReader.isCapitalised(p, r) else { return false }
                        functionWords += 1
                    }
                    soft += 1
                    if !t.words.contains(.name) { sentenceWords += 1 }
                }
            }
            if words == 0 {
                firstWord = r.lowerBound
            } else if let w = word, !FreeFormReader.isTitleRun(p, w, r) {
                scattered = true
            }
            words += 1
            word = r
            afterWord = true
            return true
        }

        private mutating func takeBracket(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>) -> Bool {
            let inner = FreeFormReader.inside(p, t.range)
            switch Words.bracketContent(p, inner) {
            case .label: bracket = inner
            case .file: file = Words.sourceFileRange(p, inner)
            case .decoration: break
            case .sentence: return false
            }
            return true
        }

        /// At most one label. A tag in brackets is decoration when there is another label.
        func finish(_ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            let objects = (object != nil ? 1 : 0) + (mask != nil ? 1 : 0) + (redacted ? 1 : 0)
            if attached { return words == 0 && objects == 0 }
            if objects > 1 || (words > 0 && objects > 0) { return false }
            if words > 1 {
                // A title: two to six capitalised words side by side, none a word only a sentence
                // holds (`The`, `When`), none a lone letter but the first of two (`A ViewController`).
                guard words <= FreeFormReader.titleWords, !scattered, functionWords == 0, let w = word,
                      letters == 0 || letters == 1 && letterFirst && words == 2 && soft == 0 else { return false }
                st.setLabel(firstWord..<w.upperBound, .title, isClass: false)
                st.title = true
                return true
            }
            if words == 1, soft > 0 {
                // A word a sentence would use (`About`, `Screen`), alone: a title of one word, a label
                // once the capture repeats it with two callbacks; one only a sentence holds never is.
                guard sentenceWords == 0, let w = word else { return false }
                st.setLabel(w, .title, isClass: false)
                st.title = true
                return true
            }
            if redacted {
                st.redacted = true
            } else if let r = mask {
                st.setLabel(r, .mask, isClass: false)
            } else if let w = word {
                st.setLabel(w, .word, isClass: true)
            } else if let (r, addr) = object {
                st.setLabel(r, .object, isClass: true)
                st.address = addr
            } else if let r = bracket {
                st.setLabel(r, .bracket, isClass: false)
            } else if let r = file {
                // `HomeVC.swift:42 viewDidLoad()`: the file names the controller when nothing else does.
                st.setLabel(r, .file, isClass: false)
            }
            return true
        }
    }

    // MARK: - After the callback: arguments, an outcome, or the label

    /// Arguments (numbers, flags, `nil`, `(animated: true)`), an outcome word, the parent of a move,
    /// an address, and at most one label (a word, a tag, a described object) or a printed value;
    /// two to six capitalised words side by side, or a word a sentence would use alone, are a title.
    struct RightGrammar: FreeFormGrammar {
        static var side: FreeFormTokenizer.Side { .afterCallback }
        private enum Content { case label(Range<Int>, FreeFormStatement.LabelSource, UInt64?), value }

        let isMove: Bool
        private var tokens = 0
        private var first: Content? = nil
        private var valueStart = -1, valueEnd = -1
        private var sawParentWord = false
        // A title after the callback (`viewDidLoad | Home Screen`): capitalised words side by side,
        // some of them words a sentence would use (`Home`, `Screen`), which alone would make it one.
        // `functionWords` and `sentenceWords` count those only a sentence holds in a title (`The`) and alone (`Before`).
        private var soft = 0, functionWords = 0, sentenceWords = 0, titleWords = 0, titleStart = -1, titleEnd = -1, titleBroken = false

        init(kind: EventKind) { isMove = kind == .willMoveToParent || kind == .didMoveToParent }

        private mutating func content(_ t: Content, _ r: Range<Int>) {
            if case .label(_, .word, _) = t {} else { titleBroken = true }
            tokens += 1
            if tokens == 1 { first = t }
            if valueStart < 0 { valueStart = r.lowerBound }
            valueEnd = r.upperBound
        }

        mutating func take(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            switch t.kind {
            case .word, .level: return takeWord(t, p, &st)
            case .number, .quoted: content(.value, t.range)  // `1`, `0.5`, `"Home"`: an argument
            case .address:  // an address names the instance
                let a = MessageParser.hexValue(UnsafeBufferPointer(start: p + t.range.lowerBound, count: t.range.count))
                if let a, st.address == nil { st.address = a } else { content(.value, t.range) }
            case .bracket: return takeBracket(t, p, &st)
            case .object, .redacted, .mask: return takeObject(t, p, &st)
            case .code: return false
            case .truncatedID, .arrowEnter, .arrowExit, .punctuation: break
            case .file, .numbered, .uuid: break  // only lexed before the callback
            }
            return true
        }

        private mutating func takeWord(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            let k = t.words, r = t.range
            if let ph = Words.phase(k) {
                st.mark(ph)
                return true
            }
            switch Words.argument(k) {
            case .flag: return true
            case .none:
                if isMove { st.parent = .none }
                return true
            case .parentWord:
                sawParentWord = true
                return isMove
            case .other: break
            }
            let letter = FreeFormReader.isLoneCapital(p, r)
            if Words.isPlainLowercase(p, r) { return false }  // a sentence
            if k.contains(.stop) && !letter {
                // A sentence, unless it is a word of a title (decided with the others in `finish`).
                guard !k.contains(.function) || FreeFormReader.isCapitalised(p, r), st.label == nil, !st.redacted, !sawParentWord else { return false }
                soft += 1
                if k.contains(.function) { functionWords += 1 }
                if !k.contains(.name) { sentenceWords += 1 }
            }
            if titleWords == 0 { titleStart = r.lowerBound }
            if letter || titleWords > 0 && !FreeFormReader.onlySpaces(p, titleEnd, r.lowerBound) { titleBroken = true }
            titleWords += 1
            titleEnd = r.upperBound
            if isMove && (st.label != nil || sawParentWord) {
                // `ChildVC willMove(toParent:) ContainerVC`, `willMove to parent ContainerVC`: what
                // follows a labelled move, or a parent word, is its parent. A bare name after an
                // unlabelled move is its label (`print(#function, type(of: self))`): a parent
                // prints as an object (`<Container: 0x…>`, `Optional(…)`) or `nil`.
                st.parent = .parent(nil)
                st.parentClass = r
                return true
            }
            content(.label(r, .word, nil), r)
            return true
        }

        /// `( { [`: a printed value (`Optional((162.0, 308.0))`, `(null)`), the callback's arguments, a tag.
        private mutating func takeBracket(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            let inner = (t.range.lowerBound + 1)..<(t.range.upperBound - 1)
            if Words.hasSentence(p, inner) { return false }
            let trimmed = TextScalars.trimmed(p, inner)
            let paren = t.opener == .openParen
            if paren, !trimmed.isEmpty, FreeFormReader.truncatedIDEnd(p, trimmed.lowerBound, trimmed.upperBound) == trimmed.upperBound {
                // `deinit DetailViewModel (C86...)`: an id cut short names nothing.
            } else if paren, Words.isNullWord(p, trimmed) {
                if isMove { st.parent = .none }
            } else if paren, Words.onlyArguments(p, inner) {
                // `(animated: true)`, `(0.0, 0.0, 320.0, 568.0)`: the callback's arguments.
            } else if t.opener == .openBracket, case .label = Words.bracketContent(p, trimmed) {
                content(.label(trimmed, .bracket, nil), t.range)
            } else {
                content(.value, t.range)
            }
            return true
        }

        /// `<Class: 0x…>`, `<null>`, `<private>`, `<mask.hash: '…'>`.
        private mutating func takeObject(_ t: FreeFormToken, _ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            let r = t.range
            if Words.isNullWord(p, FreeFormReader.inside(p, r)) {
                if isMove { st.parent = .none }
                return true
            }
            if t.kind == .redacted {
                // `viewDidLoad <private>`: the label, redacted (a redacted parent says nothing).
                if !isMove, st.label == nil { st.redacted = true }
                return true
            }
            if t.kind == .mask, !isMove {
                if st.label == nil { content(.label(r, .mask, nil), r) }
                return true
            }
            guard let (cls, addr) = FreeFormReader.describedObject(p, r) else { return false }
            if isMove {
                st.parent = .parent(nil)
                st.parentClass = cls
            } else if let label = st.label, Words.sameClass(p, label, cls) {
                if st.address == nil { st.address = addr }
            } else {
                content(.label(cls, .object, addr), r)
            }
            return true
        }

        func finish(_ p: UnsafePointer<UInt8>, _ st: inout FreeFormStatement) -> Bool {
            guard tokens > 0 else { return true }
            if soft > 0 || isTitle(st) {
                // Two to six capitalised words and nothing else, or one a sentence would use (`Screen`):
                // a title, a label once the capture repeats it with two callbacks (`LabelLearner`); else
                // a sentence.
                let alone = titleWords == 1 && sentenceWords == 0
                guard alone || (2...FreeFormReader.titleWords).contains(titleWords) && functionWords == 0,
                      tokens == titleWords, !titleBroken else { return false }
                st.setLabel(titleStart..<titleEnd, .title, isClass: false)
                st.title = true
                return true
            }
            if st.redacted, tokens == 1, case .label? = first { return false }  // two labels
            if st.label != nil || st.redacted {
                // A labeled statement: what follows is the callback's arguments or printed values.
                return true
            }
            if tokens == 1, case .label(let r, let source, let addr)? = first {
                // `viewDidLoad:ViewController2`, `viewDidLoad 0D2C7F77-…`, `viewDidLoad <Home: 0x…>`.
                st.setLabel(r, source, isClass: source == .object || source != .mask && !FreeFormReader.isUUID(p, r))
                if st.address == nil { st.address = addr }
                return true
            }
            if tokens == 1 { return true }  // one number or printed value: an argument
            st.value = valueStart..<valueEnd
            return true
        }

        /// Capitalised words side by side and nothing else, in a statement with no label yet.
        private func isTitle(_ st: FreeFormStatement) -> Bool {
            (2...FreeFormReader.titleWords).contains(titleWords) && tokens == titleWords && !titleBroken && st.label == nil && !st.redacted && !sawParentWord
        }
    }

    // MARK: - Predicates of the grammars

    /// Two words of a title: side by side (only spaces between), neither a plain lowercase word.
    static func isTitleRun(_ p: UnsafePointer<UInt8>, _ previous: Range<Int>, _ r: Range<Int>) -> Bool {
        onlySpaces(p, previous.upperBound, r.lowerBound) && !Words.isPlainLowercase(p, r) && !Words.isPlainLowercase(p, previous)
    }

    /// The most words a title holds (`Account Settings Privacy Data Export Screen`).
    static let titleWords = 6

    /// A word that starts with a capital letter (`About`, not `about`).
    @inline(__always) static func isCapitalised(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        p[r.lowerBound].isASCIIUppercase
    }

    /// A number that ends in `.`, `:` or `,` (`12:`, `3.`): a numbered prefix, not part of a name.
    @inline(__always) static func endsWithSeparator(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        let b = p[r.upperBound - 1]
        return b == .dot || b == .colon || b == .comma
    }

    /// A bracketed group's content without its brackets and the spaces inside them.
    @inline(__always) static func inside(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        TextScalars.trimmed(p, (r.lowerBound + 1)..<(r.upperBound - 1))
    }
}
