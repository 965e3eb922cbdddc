import Testing
@testable import VCLintCore

/// The tokenizer under the free-form readers (docs/ARCHITECTURE.md, Parsing): the kinds and bytes of the
/// tokens of each side of the callback, and lines longer than its buffer read in turns.
@Suite struct FreeFormTokenizerTests {
    typealias Kind = FreeFormToken.Kind
    typealias Side = FreeFormTokenizer.Side

    /// The tokens of the whole of `text` read as one side, `capacity` at a time: kind and text.
    static func tokens(_ text: String, _ side: Side, capacity: Int = FreeFormTokenizer.capacity) -> [Token] {
        var copy = text
        return copy.withUTF8 { b -> [Token] in
            let p = b.baseAddress!
            var tokenizer = FreeFormTokenizer(p, 0..<b.count, side: side)
            var out: [Token] = []
            let buffer = UnsafeMutableBufferPointer<FreeFormToken>.allocate(capacity: capacity)
            defer { buffer.deallocate() }
            while !tokenizer.done {
                let n = tokenizer.fill(buffer)
                #expect(n <= capacity)
                for t in buffer[0..<n] {
                    out.append(Token(t.kind, String(decoding: UnsafeBufferPointer(rebasing: b[t.range]), as: UTF8.self), opener: t.opener))
                }
            }
            return out
        }
    }

    struct Token: Equatable, CustomStringConvertible {
        let kind: Kind
        let text: String
        var opener: UInt8 = 0
        init(_ kind: Kind, _ text: String, opener: UInt8 = 0) {
            self.kind = kind
            self.text = text
            self.opener = opener
        }
        var description: String { "\(kind) \"\(text)\"" }
    }

    @Test func beforeTheCallback() {
        #expect(Self.tokens("[INFO] HomeVC.swift:42 Shop.Home 2 -> ", .beforeCallback) == [
            Token(.bracket, "[INFO]", opener: .openBracket), Token(.file, "HomeVC.swift"), Token(.punctuation, ":"),
            Token(.number, "42"), Token(.word, "Shop.Home"), Token(.number, "2"), Token(.arrowEnter, "->"),
        ])
        #expect(Self.tokens("DEBUG <Shop.Home: 0x7f00> <private> <mask.hash: 'x=='> <<< ", .beforeCallback) == [
            Token(.level, "DEBUG"), Token(.object, "<Shop.Home: 0x7f00>"), Token(.redacted, "<private>"),
            Token(.mask, "<mask.hash: 'x=='>"), Token(.arrowExit, "<<<"),
        ])
        #expect(Self.tokens("12:00:01.5 111behind 0D2C7F77-A822-4EF7-A0DA-D4C91F71B118 C86... \u{2192} \u{2022} (x) ", .beforeCallback) == [
            Token(.number, "12:00:01.5"), Token(.numbered, "111behind"), Token(.uuid, "0D2C7F77-A822-4EF7-A0DA-D4C91F71B118"),
            Token(.truncatedID, "C86..."), Token(.arrowEnter, "\u{2192}"), Token(.punctuation, "\u{2022}"),
            Token(.punctuation, "("), Token(.word, "x"), Token(.punctuation, ")"),
        ])
    }

    @Test func afterTheCallback() {
        #expect(Self.tokens(": 12:30 0x7f00 (animated: true) {a} [Main] \"Home\" % Screen", .afterCallback) == [
            Token(.punctuation, ":"), Token(.number, "12"), Token(.punctuation, ":"), Token(.number, "30"),
            Token(.address, "0x7f00"), Token(.bracket, "(animated: true)", opener: .openParen),
            Token(.bracket, "{a}", opener: .openBrace), Token(.bracket, "[Main]", opener: .openBracket),
            Token(.quoted, "\"Home\""), Token(.punctuation, "%"), Token(.word, "Screen"),
        ])
        // A `<` nothing closes is decoration, and the next one may open an object.
        #expect(Self.tokens("<<Home>", .afterCallback) == [Token(.punctuation, "<"), Token(.object, "<Home>")])
        #expect(Self.tokens("<<Home>", .beforeCallback) == [Token(.arrowExit, "<<"), Token(.word, "Home"), Token(.arrowEnter, ">")])
        // A level word is a word to the grammar after the callback, but still lexed as a level.
        #expect(Self.tokens("info HomeVC.swift", .afterCallback) == [Token(.level, "info"), Token(.word, "HomeVC.swift")])
    }

    @Test func sidesDisagreeOnQuotesBracesAndPercent() {
        #expect(Self.tokens("\"Home\" x", .beforeCallback) == [Token(.code, "\"")])
        #expect(Self.tokens("{a} x", .beforeCallback) == [Token(.code, "{")])
        #expect(Self.tokens("50% x", .beforeCallback) == [Token(.number, "50"), Token(.code, "%")])
        #expect(Self.tokens("a \\ b", .afterCallback) == [Token(.word, "a"), Token(.code, "\\")])
        #expect(Self.tokens("a \\ b", .beforeCallback) == [Token(.word, "a"), Token(.punctuation, "\\"), Token(.word, "b")])
    }

    @Test func codeEndsTheTokens() {
        #expect(Self.tokens("Home @ Screen", .beforeCallback) == [Token(.word, "Home"), Token(.code, "@")])
        #expect(Self.tokens("[Home Screen", .beforeCallback) == [Token(.code, "[")])
        #expect(Self.tokens("(unclosed value", .afterCallback) == [Token(.code, "(")])
        #expect(Self.tokens("\"unclosed", .afterCallback) == [Token(.code, "\"")])
    }

    @Test func wordsCarryTheirClasses() {
        var text = "The begin Home"
        text.withUTF8 { b in
            var tokenizer = FreeFormTokenizer(b.baseAddress!, 0..<b.count, side: .beforeCallback)
            withUnsafeTemporaryAllocation(of: FreeFormToken.self, capacity: 4) { buffer in
                #expect(tokenizer.fill(buffer) == 3)
                #expect(buffer[0].words.contains(.stop) && buffer[0].words.contains(.function))
                #expect(Words.phase(buffer[1].words) == .enter)
                #expect(buffer[2].words.isEmpty)
            }
            #expect(tokenizer.done)
        }
    }

    static let longLines = [
        String(repeating: "- ", count: 40) + "[Feed] 12 | Home 2 : ",
        "a 1 b 2 [c] <d> e 3 f 4 g 5 h 6 i 7 j 8 k 9 l 10 m 11 n 12 o 13 p 14",
        String(repeating: "0.5 ", count: 50) + "\"end\"",
    ]

    /// A line with more tokens than the buffer holds reads in turns, the same tokens as in one.
    @Test(arguments: longLines)
    func turnsGiveTheSameTokens(_ line: String) {
        for side in [Side.beforeCallback, .afterCallback] {
            let whole = Self.tokens(line, side, capacity: 256)
            #expect(whole.count > FreeFormTokenizer.capacity)
            for capacity in [1, 2, 3, 7, FreeFormTokenizer.capacity] {
                #expect(Self.tokens(line, side, capacity: capacity) == whole)
            }
        }
    }

    static func read(_ text: String) -> FreeFormResult {
        var copy = text
        return copy.withUTF8 { FreeFormReader.read($0.baseAddress!, $0.count) }
    }

    static func label(_ text: String, _ st: FreeFormStatement) -> String? {
        guard let r = st.label else { return nil }
        return String(decoding: Array(text.utf8)[r], as: UTF8.self)
    }

    /// Lines longer than the buffer on either side of the callback read as the readers of one pass
    /// read them: the decisions are the grammar's, not the buffer's.
    @Test func linesLongerThanTheBufferAreReadWhole() throws {
        let left = String(repeating: "- ", count: 30) + "[INFO] Home -> viewDidLoad"
        guard case .statement(let st) = Self.read(left) else { Issue.record("not a statement: \(left)"); return }
        #expect(Self.label(left, st) == "Home" && st.labelSource == .word && st.phase == .enter)

        // A second label past the buffer's end still makes two labels: not a statement.
        let twoLabels = String(repeating: "* ", count: 30) + "Home <Cart: 0x1> viewDidLoad"
        guard case .mention = Self.read(twoLabels) else { Issue.record("read as a statement: \(twoLabels)"); return }

        // Printed values after the callback, 40 of them: one value from the first to the last.
        let values = "viewWillAppear: " + (1...40).map(String.init).joined(separator: " ")
        guard case .statement(let v) = Self.read(values) else { Issue.record("not a statement: \(values)"); return }
        let bytes = Array(values.utf8)
        let value = try #require(v.value)
        #expect(String(decoding: bytes[value], as: UTF8.self) == (1...40).map(String.init).joined(separator: " "))

        // A sentence word past the buffer's end still makes the line a sentence.
        let sentence = "viewDidLoad " + String(repeating: "1 ", count: 30) + "was skipped here"
        guard case .mention = Self.read(sentence) else { Issue.record("read as a statement: \(sentence)"); return }
    }
}
