/// One lexeme of a free-form line (docs/lifecycle.md#free-form-lifecycle-statements): its kind and its
/// bytes, relative to the message.
struct FreeFormToken: Equatable {
    enum Kind: UInt8 {
        /// A name: letters, digits, `_`, `$`, dotted (`Shop.Home`) or a letter of any script; `words`
        /// holds its classes (`Words.Kind`: a stop word, an outcome, an argument).
        case word
        /// A word of the level list (`DEBUG`, `info`, `lifecycle`): `words` holds its classes too.
        case level
        /// A source file's name (`HomeVC.swift`; before the callback only).
        case file
        /// A word that starts with a digit (`111behind`, `2x`; before the callback only).
        case numbered
        /// `0D2C7F77-A822-4EF7-A0DA-D4C91F71B118` (before the callback; after it, a word).
        case uuid
        /// Before the callback digits with `.`, `:`, `,` (`12:00:01.5`, `42`); after it a word without
        /// a letter (`0.5`).
        case number
        /// `0x7f8a…` (after the callback only).
        case address
        /// A bracketed group, nesting counted, `opener` says which: `[…]` (and after the callback `(…)`, `{…}`).
        case bracket
        /// `<Shop.Home: 0x7f…>`, `<Home>`, `<null>`: a described object.
        case object
        /// `<private>`: a label the unified log redacted.
        case redacted
        /// `<mask.hash: '…'>`: a label the unified log hashed.
        case mask
        /// A quoted value (after the callback only).
        case quoted
        /// An id cut short (`C86...`, `0x6000…`): it names nothing.
        case truncatedID
        /// `->`, `=>`, `>>>`, `→`: a start.
        case arrowEnter
        /// `<-`, `<<<`, `←`: an end.
        case arrowExit
        /// Separators and decoration: `-`, `|`, `:`, `•`, an emoji.
        case punctuation
        /// A byte no statement holds on this side (a quote before the callback, `@`, `&`, an unclosed
        /// bracket): the line is not a statement, and the tokenizer stops after it.
        case code
    }

    var kind: Kind
    var range: Range<Int>
    /// The bracket's opening byte (`[`, `(`, `{`), for a `.bracket`.
    var opener: UInt8 = 0
    /// The word's classes, for a `.word` and a `.level`.
    var words: Words.Kind = []
}

/// Splits one side of a free-form line (the bytes before the callback, or after it) into tokens, in
/// one pass and without allocating: `fill` writes up to a buffer's capacity and the next call goes on
/// where it stopped, so a line of any length reads as one token stream.
///
/// The two sides lex a few bytes differently, as the readers always did: before the callback `12:30`
/// is one number, `<-` an arrow, `(` decoration and a quote code; after it `12`, `:`, `30`, a lone
/// `<` decoration, `(…)` a printed value and a quote a value.
struct FreeFormTokenizer {
    enum Side { case beforeCallback, afterCallback }

    /// Tokens a reader holds at once (an inline buffer on the stack); longer lines are read in turns.
    static let capacity = 16

    let p: UnsafePointer<UInt8>
    let end: Int
    let side: Side
    private(set) var position: Int
    /// The tokenizer stopped: the side's bytes are all read, or a `.code` token ended them.
    private(set) var done = false

    init(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, side: Side) {
        self.p = p
        self.end = range.upperBound
        self.side = side
        self.position = range.lowerBound
        self.done = range.isEmpty
    }

    /// Writes the next tokens into `buffer` (at most its count); how many.
    mutating func fill(_ buffer: UnsafeMutableBufferPointer<FreeFormToken>) -> Int {
        var n = 0
        while n < buffer.count, let t = next() {
            buffer[n] = t
            n += 1
            if t.kind == .code { done = true; break }
        }
        return n
    }

    /// The next token, nil at the side's end.
    private mutating func next() -> FreeFormToken? {
        while position < end {
            let i = position
            let b = p[i]
            if !b.isASCII {
                let (v, k) = TextScalars.decode(p, i, end)
                switch TextScalars.classify(v) {
                case .space: position += k; continue
                case .arrowRight: return take(.arrowEnter, i + k)
                case .arrowLeft: return take(.arrowExit, i + k)
                case .dash, .symbol: return take(.punctuation, i + k)
                case .letter: return word(at: i)  // a word in another script
                }
            }
            if b == .space || b == .tab { position += 1; continue }
            if let e = FreeFormReader.truncatedIDEnd(p, i, end) { return take(.truncatedID, e) }
            if FreeFormReader.isIdentStart(b) || b == .dollar { return word(at: i) }
            if ByteCursor.isDigit(b) { return side == .beforeCallback ? number(at: i) : word(at: i) }
            return symbol(b, at: i)
        }
        done = true
        return nil
    }

    @inline(__always)
    private mutating func take(_ kind: Kind, _ e: Int, opener: UInt8 = 0, words: Words.Kind = []) -> FreeFormToken {
        let t = FreeFormToken(kind: kind, range: position..<e, opener: opener, words: words)
        position = e
        return t
    }

    typealias Kind = FreeFormToken.Kind

    /// A word: a name, a file, a level; after the callback also a number or an address.
    private mutating func word(at i: Int) -> FreeFormToken {
        let (e, letters) = wordEnd(i)
        let r = i..<e
        if side == .afterCallback {
            if !letters { return take(.number, e) }
            if FreeFormReader.isHexNumber(p, r) { return take(.address, e) }
        } else if memchr(p + i, Int32(UInt8.dot), r.count) != nil, Words.isSourceFile(p, r) {
            return take(.file, e)
        }
        let k = Words.kind(p, r)
        return take(k.contains(.level) ? .level : .word, e, words: k)
    }

    /// The end of the word at `i`: identifier bytes, dots between them (`Shop.Home`, `HomeVC.swift`),
    /// the dashes of a UUID and letters of any script; whether it holds a letter.
    private func wordEnd(_ i: Int) -> (Int, letters: Bool) {
        var e = i
        var letters = false
        while e < end {
            let c = p[e]
            if FreeFormReader.isIdentByte(c) { if !ByteCursor.isDigit(c) { letters = true }; e += 1; continue }
            if c == .dot, e + 1 < end, FreeFormReader.isIdentByte(p[e + 1]) || !p[e + 1].isASCII { e += 1; continue }
            if c == .hyphen, e + 1 < end, FreeFormReader.isIdentByte(p[e + 1]), Self.isUUIDSoFar(p, i, e) { e += 1; continue }
            if !c.isASCII {
                let (v, k) = TextScalars.decode(p, e, end)
                if TextScalars.classify(v) == .letter { letters = true; e += k; continue }
            }
            break
        }
        return (e, letters)
    }

    /// Before the callback: digits with `.`, `:`, `,`, or a word that starts with a digit (`111behind`,
    /// `2x`, a UUID).
    private mutating func number(at i: Int) -> FreeFormToken {
        var e = i
        while e < end, ByteCursor.isDigit(p[e]) || p[e] == .dot || p[e] == .colon || p[e] == .comma { e += 1 }
        if e < end, FreeFormReader.isIdentStart(p[e]) || p[e] == .hyphen && Self.isUUIDStart(p, i, end) {
            var w = e
            while w < end, FreeFormReader.isIdentByte(p[w]) || p[w] == .hyphen && Self.isUUIDSoFar(p, i, w) { w += 1 }
            if FreeFormReader.isUUID(p, i..<w) { return take(.uuid, w) }
            if p[e] != .hyphen { return take(.numbered, w) }
        }
        return take(.number, e)
    }

    /// Brackets, arrows, separators; anything else is code.
    private mutating func symbol(_ b: UInt8, at i: Int) -> FreeFormToken {
        switch b {
        case .openBracket, .openParen, .openBrace:
            guard b == .openBracket || side == .afterCallback else { return take(b == .openParen ? .punctuation : .code, i + 1) }
            guard let c = FreeFormReader.closing(p, i, end, open: b, close: b.closingBracket) else { return take(.code, i + 1) }
            return take(.bracket, c + 1, opener: b)
        case .less:
            guard let c = FreeFormReader.closing(p, i, end, open: .less, close: .greater) else { return lessWithoutClose(at: i) }
            switch FreeFormReader.redaction(p, i..<(c + 1)) {
            case .redacted: return take(.redacted, c + 1)
            case .mask: return take(.mask, c + 1)
            case nil: return take(.object, c + 1)
            }
        case .greater:
            return take(.arrowEnter, i + 1)
        case .hyphen, .equals:  // runs, and the arrows `->`, `=>`
            var e = i
            while e < end, p[e] == b { e += 1 }
            if e < end, p[e] == .greater { return take(.arrowEnter, e + 1) }
            return take(.punctuation, e)
        case .quote, .apostrophe:
            guard side == .afterCallback else { return take(.code, i + 1) }
            var e = i + 1
            while e < end, p[e] != b { e += 1 }
            return e < end ? take(.quoted, e + 1) : take(.code, i + 1)
        case .star, .dot, .hash, .tilde, .plus, .pipe, .colon, .comma, .slash, .closeParen, .bang:
            return take(.punctuation, i + 1)
        case .backslash:
            return take(side == .beforeCallback ? .punctuation : .code, i + 1)
        case .closeBracket, .semicolon, .question, .percent:
            return take(side == .afterCallback ? .punctuation : .code, i + 1)
        default:
            // Braces, `@`, `&`: a printed structure or code, not a statement.
            return take(.code, i + 1)
        }
    }

    /// A `<` nothing closes: before the callback the exit arrows `<<<`, `<-`, `<=`; after it decoration.
    private mutating func lessWithoutClose(at i: Int) -> FreeFormToken {
        guard side == .beforeCallback else { return take(.punctuation, i + 1) }
        var e = i
        while e < end, p[e] == .less || p[e] == .hyphen || p[e] == .equals { e += 1 }
        return take(.arrowExit, e)
    }

    /// Whether `p[s..<dash]` (before a `-`) can be the start of a UUID.
    @inline(__always) static func isUUIDSoFar(_ p: UnsafePointer<UInt8>, _ s: Int, _ dash: Int) -> Bool {
        let k = dash - s
        guard k == 8 || k == 13 || k == 18 || k == 23 else { return false }
        for j in s..<dash where !ByteCursor.isHex(p[j]) && p[j] != .hyphen { return false }
        return true
    }

    /// Whether a UUID starts at `p[s]`.
    static func isUUIDStart(_ p: UnsafePointer<UInt8>, _ s: Int, _ end: Int) -> Bool {
        s + 36 <= end && FreeFormReader.isUUID(p, s..<(s + 36))
    }
}
