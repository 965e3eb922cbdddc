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
    /// A title of two or three words (`Home Screen | viewDidLoad`): a label only when the capture
    /// repeats it with other callbacks (docs/lifecycle.md#labels); seen once, a sentence.
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
        var n = whole.upperBound
        // Trailing sentence punctuation (`.`, `!`, `;`) is not part of a statement.
        while n > whole.lowerBound, p[n - 1] == 0x2E || p[n - 1] == 0x21 || p[n - 1] == 0x3B {
            // `……dealloc……` keeps its dots for the named grammar; here they are decoration anyway.
            n -= 1
        }
        // `deinit DetailViewModel C86...`: the dots belong to the id they cut short.
        if n < whole.upperBound, p[n] == 0x2E, let idEnd = truncatedIDEnd(p, idStart(p, n, whole.lowerBound), whole.upperBound) {
            n = max(n, idEnd)
        }
        let start = whole.lowerBound
        guard n > start else { return .none }
        // The callback: the first callback name standing as a word (a second one, further on, makes
        // the message a sentence about them).
        guard let cb = nextCallback(p, from: start, to: n, lineStart: start) else { return .none }
        // The signature: `(_:)`, `(animated:)`, `()`, or ObjC selector pieces `:bundle:`.
        var sigEnd = cb.end
        var objcSignature = false
        if sigEnd < n, p[sigEnd] == 0x28 {  // (
            var k = sigEnd + 1
            while k < n, k - sigEnd < 80, isSignatureByte(p[k]) { k += 1 }
            if k < n, p[k] == 0x29 { sigEnd = k + 1 }
        } else if sigEnd < n, p[sigEnd] == 0x3A {  // :
            sigEnd += 1
            objcSignature = true
            // `initWithNibName:bundle:`: further pieces are words followed by a colon.
            while true {
                var k = sigEnd
                while k < n, isIdentByte(p[k]) { k += 1 }
                guard k > sigEnd, k < n, p[k] == 0x3A else { break }
                sigEnd = k + 1
            }
        }
        guard let kind = MethodTable.kind(UnsafeBufferPointer(start: p + cb.start, count: cb.end - cb.start),
                                          signature: UnsafeBufferPointer(start: p + cb.end, count: sigEnd - cb.end),
                                          foldCase: true) else { return .mention }
        var st = FreeFormStatement(kind: kind, callback: cb.start..<sigEnd)

        // A label attached to the callback: `-[Class method]` (ObjC, maybe after a number), or
        // `Class.method` / `Shop.Class.method()` (Swift).
        var leftEnd = cb.start
        var rightStart = sigEnd
        var attached = false
        if let objc = objcUnit(p, start: start, n: n, callback: cb.start, sigEnd: sigEnd) {
            if objc.invalid { return .mention }
            st.label = objc.cls
            st.labelSource = .objc
            st.labelIsClass = true
            leftEnd = objc.start
            rightStart = objc.end
            attached = true
        } else if cb.start > start, p[cb.start - 1] == 0x2E {  // .
            var k = cb.start - 1
            while k > start, isIdentByte(p[k - 1]) || p[k - 1] == 0x2E || p[k - 1] >= 0x80 { k -= 1 }
            // Dots only between words (`..viewDidLoad` and `HomeVC. viewDidLoad` are decoration).
            if k < cb.start - 1, isIdentStart(p[k]) || p[k] >= 0x80 {
                let word = k..<(cb.start - 1)
                let letter = word.count == 1 && (p[word.lowerBound] == 0x41 || p[word.lowerBound] == 0x49)  // `A.viewDidLoad`
                if !letter, Words.isStopWord(p, word) || Words.isStopWord(p, lastComponent(p, word)) { return .mention }
                st.label = word
                st.labelSource = .dotted
                st.labelIsClass = true
                leftEnd = k
                attached = true
            }
        } else if cb.start > start, p[cb.start - 1] >= 0x80 {
            // Glued to a letter of another script (`调用viewDidLoad方法`): part of a sentence.
            let (v, _) = TextScalars.decode(p, scalarStart(p, cb.start - 1, start), n)
            if TextScalars.classify(v) == .letter { return .mention }
        }
        if sigEnd < n, p[sigEnd] >= 0x80, !attached || rightStart == sigEnd {
            let (v, _) = TextScalars.decode(p, sigEnd, n)
            if TextScalars.classify(v) == .letter { return .mention }
        }
        // The words before the callback reject most sentences (`[Analytics] queued screen event …`)
        // before the rest of the line is read.
        guard readLeft(p, start, leftEnd, attached: attached, into: &st) else { return .mention }
        if nextCallback(p, from: rightStart, to: n, lineStart: start) != nil { return .mention }
        guard readRight(p, rightStart, n, objcSignature: objcSignature, into: &st) else { return .mention }
        return .statement(st)
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
            if (c | 0x20) &- 0x61 < 26 || c == 0x5F { t[b] = 3 } else if ByteCursor.isDigit(c) || c == 0x24 { t[b] = 2 }
        }
        return t
    }()
    @inline(__always) static func isIdentStart(_ b: UInt8) -> Bool { classes[Int(b)] & 1 != 0 }
    @inline(__always) static func isIdentByte(_ b: UInt8) -> Bool { classes[Int(b)] & 2 != 0 }
    @inline(__always) private static func isSignatureByte(_ b: UInt8) -> Bool { isIdentByte(b) || b == 0x3A || b == 0x20 || b == 0x2C }
    /// First letters of callback names (any case): i(nit) a(wake) l(oadView) v(iew…) w(illMove) d(idMove, dealloc, deinit, didReceive)
    /// o(nAppear, onDisappear).
    @inline(__always) private static func couldBeCallback(_ b: UInt8) -> Bool {
        let f = b | 0x20
        return f == 0x69 || f == 0x61 || f == 0x6C || f == 0x76 || f == 0x77 || f == 0x64 || f == 0x6F
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
        if n == 8 { return p[0] | 0x20 == 0x77 && memcmp(p + 1, "illMove", 7) == 0 }
        if n == 7 { return p[0] | 0x20 == 0x64 && memcmp(p + 1, "idMove", 6) == 0 }
        return false
    }

    /// `-[Class method…]`/`+[…]` around the callback: the class, and the unit's bounds. `invalid`
    /// when the unit is part of something else (`__26-[VC viewDidLoad]_block_invoke`: a block).
    private static func objcUnit(_ p: UnsafePointer<UInt8>, start: Int, n: Int, callback: Int, sigEnd: Int)
        -> (cls: Range<Int>, start: Int, end: Int, invalid: Bool)? {
        var k = callback
        guard k > start, p[k - 1] == 0x20 else { return nil }
        while k > start, p[k - 1] == 0x20 { k -= 1 }
        let clsEnd = k
        // A category: `-[Class(Name) method]`.
        if k > start, p[k - 1] == 0x29 {
            while k > start, p[k - 1] != 0x28 { k -= 1 }
            guard k > start else { return nil }
            k -= 1
        }
        let nameEnd = k
        while k > start, isIdentByte(p[k - 1]) || p[k - 1] == 0x2E || p[k - 1] >= 0x80 { k -= 1 }
        guard k < nameEnd, k >= start + 2, p[k - 1] == 0x5B, p[k - 2] == 0x2D || p[k - 2] == 0x2B else { return nil }
        let unitStart = k - 2
        var e = sigEnd
        while e < n, p[e] == 0x20 { e += 1 }
        guard e < n, p[e] == 0x5D else { return nil }
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
        while s > start, i - s < 3, p[s] & 0xC0 == 0x80 { s -= 1 }
        return s
    }

    /// `Shop.HomeViewController` → `HomeViewController`'s range.
    static func lastComponent(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        var k = r.upperBound
        while k > r.lowerBound, p[k - 1] != 0x2E { k -= 1 }
        return k < r.upperBound ? k..<r.upperBound : r
    }

    // MARK: - Before the callback: decoration and at most one label

    /// Label candidates: a word (with a number: `AMKMethodSwizzlingDemo 2`), a bracketed tag
    /// (`[Main]`), a described object (`<Shop.Home: 0x7f…>`), a UUID. False: not a statement.
    private static func readLeft(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, attached: Bool, into st: inout FreeFormStatement) -> Bool {
        var word: Range<Int>? = nil, words = 0
        var bracket: Range<Int>? = nil
        var object: (Range<Int>, UInt64?)? = nil
        var file: Range<Int>? = nil
        /// A redacted label (`<private>`) and a hashed one (`<mask.hash: '…'>`).
        var redacted = false
        var mask: Range<Int>? = nil
        /// Where the words start; whether something other than spaces stands between two of them;
        /// how many are a lone `A`/`I`, and how many would be stop words in lowercase (`Screen`).
        var firstWord = 0, scattered = false, letters = 0, soft = 0
        /// The last token was a word label (a number right after it belongs to it).
        var afterWord = false
        var i = start
        while i < end {
            let b = p[i]
            if b >= 0x80 {
                let (v, k) = TextScalars.decode(p, i, end)
                switch TextScalars.classify(v) {
                case .space: i += k; continue
                case .arrowRight: if st.phase == .none { st.phase = .enter }; i += k; afterWord = false; continue
                case .arrowLeft: if st.phase == .none { st.phase = .exit }; i += k; afterWord = false; continue
                case .dash, .symbol: i += k; afterWord = false; continue
                case .letter: break  // a word in another script
                }
            }
            if b == 0x20 || b == 0x09 { i += 1; continue }
            if let e = truncatedIDEnd(p, i, end) {
                // `DetailViewModel C86... deinit`: an id cut short names nothing (neither label nor address).
                i = e
                afterWord = false
                continue
            }
            if isIdentStart(b) || b >= 0x80 || b == 0x24 {
                var e = i
                while e < end {
                    let c = p[e]
                    if isIdentByte(c) { e += 1; continue }
                    if c == 0x2E, e + 1 < end, isIdentByte(p[e + 1]) || p[e + 1] >= 0x80 { e += 1; continue }  // Shop.Home, HomeVC.swift
                    if c == 0x2D, e + 1 < end, isIdentByte(p[e + 1]), isUUIDSoFar(p, i, e) { e += 1; continue }  // UUID
                    if c >= 0x80 {
                        let (v, k) = TextScalars.decode(p, e, end)
                        if TextScalars.classify(v) == .letter { e += k; continue }
                    }
                    break
                }
                let r = i..<e
                i = e
                afterWord = false
                if memchr(p + r.lowerBound, 0x2E, r.count) != nil, Words.isSourceFile(p, r) { file = Words.sourceFileRange(p, r); continue }
                let k = Words.kind(p, r)
                if k.contains(.level) { continue }
                if let ph = Words.phase(k) {
                    if st.phase == .none { st.phase = ph }
                    continue
                }
                let letter = r.count == 1 && (p[r.lowerBound] == 0x41 || p[r.lowerBound] == 0x49)
                if k.contains(.stop) || Words.isLowercaseVerb(p, r) {
                    // A capital letter alone (`A: viewDidLoad()`) or a capitalised word of a title
                    // (`Home Screen | viewDidLoad`) may still be a label: the words decide together.
                    guard letter || !k.contains(.function) && !Words.isPlainLowercase(p, r) else { return false }
                    if letter { letters += 1 } else { soft += 1 }
                }
                if words == 0 {
                    firstWord = r.lowerBound
                } else if let w = word, !Self.onlySpaces(p, w.upperBound, r.lowerBound) || Words.isPlainLowercase(p, r) || Words.isPlainLowercase(p, w) {
                    scattered = true
                }
                words += 1
                word = r
                afterWord = true
                continue
            }
            if ByteCursor.isDigit(b) {
                var e = i
                while e < end, ByteCursor.isDigit(p[e]) || p[e] == 0x2E || p[e] == 0x3A || p[e] == 0x2C { e += 1 }
                if e < end, isIdentStart(p[e]) || p[e] == 0x2D && isUUIDStart(p, i, end) {
                    // `111behind`, `2x`, a UUID: a word that starts with a digit.
                    var w = e
                    while w < end, isIdentByte(p[w]) || p[w] == 0x2D && isUUIDSoFar(p, i, w) { w += 1 }
                    if isUUID(p, i..<w) || p[e] != 0x2D {
                        words += 1
                        word = i..<w
                        i = w
                        afterWord = true
                        continue
                    }
                }
                // A number right after a word names it with the word (`Demo 2`, `Page 3`);
                // elsewhere it is a numbered prefix, a time, a line number: decoration.
                if afterWord, let w = word, p[e - 1] != 0x2E, p[e - 1] != 0x3A, p[e - 1] != 0x2C {
                    word = w.lowerBound..<e
                }
                afterWord = false
                i = e
                continue
            }
            afterWord = false
            switch b {
            case 0x5B:  // [
                guard let close = closing(p, i, end, open: 0x5B, close: 0x5D) else { return false }
                let inner = TextScalars.trimmed(p, (i + 1)..<close)
                switch Words.bracketContent(p, inner) {
                case .label: bracket = inner
                case .file: file = Words.sourceFileRange(p, inner)
                case .decoration: break
                case .sentence: return false
                }
                i = close + 1
            case 0x3C:  // <
                guard let close = closing(p, i, end, open: 0x3C, close: 0x3E) else {
                    // `<<<` / `<-`: an exit arrow.
                    var e = i
                    while e < end, p[e] == 0x3C || p[e] == 0x2D || p[e] == 0x3D { e += 1 }
                    if st.phase == .none { st.phase = .exit }
                    i = e
                    continue
                }
                switch redaction(p, i..<(close + 1)) {
                case .redacted: redacted = true
                case .mask: mask = i..<(close + 1)
                case nil:
                    guard let o = describedObject(p, i..<(close + 1)) else { return false }
                    object = o
                }
                i = close + 1
            case 0x3E:  // > ->, >>>
                if st.phase == .none { st.phase = .enter }
                i += 1
            case 0x2D, 0x3D:  // - = (runs, and arrows -> =>)
                var e = i
                while e < end, p[e] == b { e += 1 }
                if e < end, p[e] == 0x3E { if st.phase == .none { st.phase = .enter }; e += 1 }
                i = e
            case 0x2A, 0x2E, 0x23, 0x7E, 0x2B, 0x7C, 0x3A, 0x2C, 0x2F, 0x5C, 0x28, 0x29, 0x21:
                // * . # ~ + | : , / \ ( ) !: decoration and separators.
                i += 1
            default:
                // Quotes, braces, @, %, &: a printed structure or code, not a statement.
                return false
            }
        }
        // At most one label. A tag in brackets is decoration when there is another label.
        if attached {
            if words > 0 || object != nil || redacted || mask != nil { return false }
            return true
        }
        let objects = (object != nil ? 1 : 0) + (mask != nil ? 1 : 0) + (redacted ? 1 : 0)
        if objects > 1 || (words > 0 && objects > 0) { return false }
        if words > 1 {
            // A title: two or three capitalised words side by side, none a lone letter.
            guard words <= 3, !scattered, letters == 0, let w = word else { return false }
            st.label = firstWord..<w.upperBound
            st.labelSource = .title
            st.labelIsClass = false
            st.title = true
            return true
        }
        if words == 1, soft > 0 { return false }
        if redacted {
            st.redacted = true
            return true
        }
        if let r = mask {
            st.label = r
            st.labelSource = .mask
            st.labelIsClass = false
            return true
        }
        if let w = word {
            st.label = w
            st.labelSource = .word
            st.labelIsClass = true
        } else if let (r, addr) = object {
            st.label = r
            st.labelSource = .object
            st.labelIsClass = true
            st.address = addr
        } else if let r = bracket {
            st.label = r
            st.labelSource = .bracket
            st.labelIsClass = false
        } else if let r = file {
            // `HomeVC.swift:42 viewDidLoad()`: the file names the controller when nothing else does.
            st.label = r
            st.labelSource = .file
            st.labelIsClass = false
        }
        return true
    }

    // MARK: - After the callback: arguments, an outcome, or the label

    private enum RightToken { case label(Range<Int>, FreeFormStatement.LabelSource, UInt64?), value }

    private static func readRight(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, objcSignature: Bool, into st: inout FreeFormStatement) -> Bool {
        let isMove = st.kind == .willMoveToParent || st.kind == .didMoveToParent
        var tokens = 0
        var first: RightToken? = nil
        var valueStart = -1, valueEnd = -1
        var sawParentWord = false
        // A title after the callback (`viewDidLoad | Home Screen`): capitalised words side by side,
        // some of them words a sentence would use (`Home`, `Screen`), which alone would make it one.
        var soft = 0, titleWords = 0, titleStart = -1, titleEnd = -1, titleBroken = false
        @inline(__always) func content(_ t: RightToken, _ r: Range<Int>) {
            if case .label(_, .word, _) = t {} else { titleBroken = true }
            tokens += 1
            if tokens == 1 { first = t }
            if valueStart < 0 { valueStart = r.lowerBound }
            valueEnd = r.upperBound
        }
        var i = start
        while i < end {
            let b = p[i]
            if b >= 0x80 {
                let (v, k) = TextScalars.decode(p, i, end)
                let c = TextScalars.classify(v)
                if c != .letter { i += k; continue }
            }
            if b == 0x20 || b == 0x09 { i += 1; continue }
            if let e = truncatedIDEnd(p, i, end) {
                // `deinit DetailViewModel C86...`: an id cut short names nothing.
                i = e
                continue
            }
            if isIdentStart(b) || b >= 0x80 || b == 0x24 || ByteCursor.isDigit(b) {
                var e = i
                var letters = false
                while e < end {
                    let c = p[e]
                    if isIdentByte(c) { if !ByteCursor.isDigit(c) { letters = true }; e += 1; continue }
                    if c == 0x2E, e + 1 < end, isIdentByte(p[e + 1]) || p[e + 1] >= 0x80 { e += 1; continue }
                    if c == 0x2D, e + 1 < end, isIdentByte(p[e + 1]), isUUIDSoFar(p, i, e) { e += 1; continue }
                    if c >= 0x80 {
                        let (v, k) = TextScalars.decode(p, e, end)
                        if TextScalars.classify(v) == .letter { letters = true; e += k; continue }
                    }
                    break
                }
                let r = i..<e
                i = e
                if !letters || isHexNumber(p, r) {
                    // A number (`1`, `0.5`) is an argument; an address names the instance.
                    if let a = isHexNumber(p, r) ? MessageParser.hexValue(UnsafeBufferPointer(start: p + r.lowerBound, count: r.count)) : nil, st.address == nil {
                        st.address = a
                        continue
                    }
                    content(.value, r)
                    continue
                }
                let k = Words.kind(p, r)
                if let ph = Words.phase(k) {
                    if st.phase == .none { st.phase = ph }
                    continue
                }
                switch Words.argument(k) {
                case .flag: continue
                case .none:
                    if isMove { st.parent = .none }
                    continue
                case .parentWord:
                    guard isMove else { return false }
                    sawParentWord = true
                    continue
                case .other: break
                }
                let letter = r.count == 1 && (p[r.lowerBound] == 0x41 || p[r.lowerBound] == 0x49)
                if Words.isPlainLowercase(p, r) { return false }  // a sentence
                if k.contains(.stop) && !letter {
                    // A sentence, unless it is a word of a title (decided with the others below).
                    guard !k.contains(.function), st.label == nil, !st.redacted, !sawParentWord else { return false }
                    soft += 1
                }
                if titleWords == 0 { titleStart = r.lowerBound }
                if letter || titleWords > 0 && !Self.onlySpaces(p, titleEnd, r.lowerBound) { titleBroken = true }
                titleWords += 1
                titleEnd = r.upperBound
                if isMove && (st.label != nil || sawParentWord) {
                    // `ChildVC willMove(toParent:) ContainerVC`, `willMove to parent ContainerVC`: what
                    // follows a labelled move, or a parent word, is its parent. A bare name after an
                    // unlabelled move is its label (`print(#function, type(of: self))`): a parent
                    // prints as an object (`<Container: 0x…>`, `Optional(…)`) or `nil`.
                    st.parent = .parent(nil)
                    st.parentClass = r
                    continue
                }
                content(.label(r, .word, nil), r)
                continue
            }
            switch b {
            case 0x28, 0x7B, 0x5B:  // ( { [: a printed value (`Optional((162.0, 308.0))`, `(null)`)
                let close: UInt8 = b == 0x28 ? 0x29 : b == 0x7B ? 0x7D : 0x5D
                guard let c = closing(p, i, end, open: b, close: close) else { return false }
                let inner = (i + 1)..<c
                if Words.hasSentence(p, inner) { return false }
                let trimmed = TextScalars.trimmed(p, inner)
                if b == 0x28, !trimmed.isEmpty, truncatedIDEnd(p, trimmed.lowerBound, trimmed.upperBound) == trimmed.upperBound {
                    // `deinit DetailViewModel (C86...)`: an id cut short names nothing.
                } else if b == 0x28, Words.isNullWord(p, TextScalars.trimmed(p, inner)) {
                    if isMove { st.parent = .none }
                } else if b == 0x28, Words.onlyArguments(p, inner) {
                    // `(animated: true)`, `(0.0, 0.0, 320.0, 568.0)`: the callback's arguments.
                } else if b == 0x5B, case .label = Words.bracketContent(p, TextScalars.trimmed(p, inner)) {
                    content(.label(TextScalars.trimmed(p, inner), .bracket, nil), i..<(c + 1))
                } else {
                    content(.value, i..<(c + 1))
                }
                i = c + 1
            case 0x3C:  // <Class: 0x…>, <null>
                guard let c = closing(p, i, end, open: 0x3C, close: 0x3E) else { i += 1; continue }
                let r = i..<(c + 1)
                i = c + 1
                let inner = TextScalars.trimmed(p, (r.lowerBound + 1)..<(r.upperBound - 1))
                if Words.isNullWord(p, inner) {
                    if isMove { st.parent = .none }
                    continue
                }
                switch redaction(p, r) {
                case .redacted:
                    // `viewDidLoad <private>`: the label, redacted (a redacted parent says nothing).
                    if !isMove, st.label == nil { st.redacted = true }
                    continue
                case .mask:
                    if !isMove {
                        if st.label == nil { content(.label(r, .mask, nil), r) }
                        continue
                    }
                case nil: break
                }
                guard let (cls, addr) = describedObject(p, r) else { return false }
                if isMove {
                    st.parent = .parent(nil)
                    st.parentClass = cls
                    continue
                }
                if let label = st.label, Words.sameClass(p, label, cls) {
                    if st.address == nil { st.address = addr }
                    continue
                }
                content(.label(cls, .object, addr), r)
            case 0x22, 0x27:  // a quoted value
                var e = i + 1
                while e < end, p[e] != b { e += 1 }
                guard e < end else { return false }
                content(.value, i..<(e + 1))
                i = e + 1
            case 0x2D, 0x3D, 0x3A, 0x2C, 0x7C, 0x3E, 0x2E, 0x2F, 0x29, 0x5D, 0x2B, 0x2A, 0x23, 0x7E, 0x3B, 0x21, 0x3F:
                // - = : , | > . / ) ] + * # ~ ; ! ?: separators and decoration.
                i += 1
            case 0x25:  // % (a percentage in a printed value)
                i += 1
            default:
                return false
            }
        }
        guard tokens > 0 else { return true }
        if soft > 0 || (2...3).contains(titleWords) && tokens == titleWords && !titleBroken && st.label == nil && !st.redacted && !sawParentWord {
            // Two or three capitalised words and nothing else: a title, a label once the capture
            // repeats it with two callbacks (`LabelLearner`); else a sentence.
            guard (2...3).contains(titleWords), tokens == titleWords, !titleBroken else { return false }
            st.label = titleStart..<titleEnd
            st.labelSource = .title
            st.labelIsClass = false
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
            st.label = r
            st.labelSource = source
            st.labelIsClass = source == .object || source != .mask && !isUUID(p, r)
            if st.address == nil { st.address = addr }
            return true
        }
        if tokens == 1 { return true }  // one number or printed value: an argument
        st.value = valueStart..<valueEnd
        return true
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
                out.append(0x23)
                continue
            }
            let sp = TextScalars.spaceLength(p, i, r.upperBound)
            if sp > 0 {
                if out.last != 0x20 { out.append(0x20) }
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
        guard r.count >= 9, p[r.lowerBound] == 0x3C, p[r.upperBound - 1] == 0x3E else { return nil }
        let inner = TextScalars.trimmed(p, (r.lowerBound + 1)..<(r.upperBound - 1))
        if inner.count == 7, memcmp(p + inner.lowerBound, "private", 7) == 0 { return .redacted }
        if inner.count > 10, memcmp(p + inner.lowerBound, "mask.hash:", 10) == 0 { return .mask }
        return nil
    }

    @inline(__always) static func onlySpaces(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        var k = from
        while k < to { if p[k] != 0x20 { return false }; k += 1 }
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
        while i < end, p[i] == 0x20 { i += 1 }
        let s = i
        while i < end, p[i] != 0x3A, p[i] != 0x3C, p[i] != 0x3E, p[i] != 0x20, p[i] != 0x09 { i += 1 }
        guard i > s else { return nil }
        let cls = s..<i
        // Generic arguments: `<Host<Content>: 0x…>`.
        if i < end, p[i] == 0x3C, let c = closing(p, i, end, open: 0x3C, close: 0x3E) { i = c + 1 }
        var addr: UInt64? = nil
        if i < end, p[i] == 0x3A {
            i += 1
            while i < end, p[i] == 0x20 { i += 1 }
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
        if i > 0, isIdentByte(p[i - 1]) || p[i - 1] == 0x2E { return nil }  // inside a word or a dotted name
        var k = i
        var decimal = false
        while k < end, isIDByte(p[k]) {
            if ByteCursor.isDigit(p[k]) { decimal = true }
            k += 1
        }
        guard decimal else { return nil }
        if k + 2 <= end, p[k] == 0x2E, p[k + 1] == 0x2E {
            k += 2
            while k < end, p[k] == 0x2E { k += 1 }
        } else if k + 3 <= end, p[k] == 0xE2, p[k + 1] == 0x80, p[k + 2] == 0xA6 {
            k += 3
        } else {
            return nil
        }
        return k == end || !isIdentByte(p[k]) ? k : nil
    }

    @inline(__always) private static func isIDByte(_ b: UInt8) -> Bool { ByteCursor.isHex(b) || b | 0x20 == 0x78 }

    /// Where the run of an id's bytes (`truncatedIDEnd`) that ends at `n` starts.
    private static func idStart(_ p: UnsafePointer<UInt8>, _ n: Int, _ start: Int) -> Int {
        var k = n
        while k > start, isIDByte(p[k - 1]) { k -= 1 }
        return k
    }

    static func isHexNumber(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count > 2, p[r.lowerBound] == 0x30, p[r.lowerBound + 1] | 0x20 == 0x78 else { return false }
        for k in (r.lowerBound + 2)..<r.upperBound where !ByteCursor.isHex(p[k]) { return false }
        return true
    }

    /// `0D2C7F77-A822-4EF7-A0DA-D4C91F71B118`.
    static func isUUID(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count == 36 else { return false }
        for k in 0..<36 {
            let b = p[r.lowerBound + k]
            if k == 8 || k == 13 || k == 18 || k == 23 { if b != 0x2D { return false } } else if !ByteCursor.isHex(b) { return false }
        }
        return true
    }

    /// Whether `p[s..<dash]` (before a `-`) can be the start of a UUID.
    @inline(__always) private static func isUUIDSoFar(_ p: UnsafePointer<UInt8>, _ s: Int, _ dash: Int) -> Bool {
        let k = dash - s
        guard k == 8 || k == 13 || k == 18 || k == 23 else { return false }
        for j in s..<dash where !ByteCursor.isHex(p[j]) && p[j] != 0x2D { return false }
        return true
    }

    private static func isUUIDStart(_ p: UnsafePointer<UInt8>, _ s: Int, _ end: Int) -> Bool {
        s + 36 <= end && isUUID(p, s..<(s + 36))
    }
}
