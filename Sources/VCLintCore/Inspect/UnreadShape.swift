#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shape of a line that mentions a callback without being read, what its words make of it, and
/// the dialect that would read its lines.
///
/// A capture's own format is a lifecycle statement (docs/lifecycle.md#free-form-lifecycle-statements)
/// that the built-in reader does not know: one callback, one label, and around them only what a
/// statement may hold (a separator, decoration, the callback's arguments or outcome). A line with
/// more words than that is a sentence that mentions a callback, noise by the model, however often
/// it repeats: `[Analytics] queued screen event viewDidAppear for HomeViewController` on every
/// screen is still analytics. The words are judged as the free-form reader judges them (`Words`).
/// Whether the shape repeats as a format does (several lines, several callbacks, several labels)
/// is decided over its group, by `InspectRecorder`.
struct UnreadShape {
    /// Why a shape is no lifecycle statement.
    enum Verdict: Equatable {
        case statement
        /// Words a statement does not hold (the first few).
        case sentence([String])
        /// A second callback: a sentence about them (`swizzled viewWillAppear: and dealloc`).
        case callbacks([String])
        /// No word that can name a controller (`override func viewDidLoad() {`).
        case noLabel
    }

    /// `[Nav] {class}@0x# {callback}`: digits as `#`, the label as `{class}`, the callback (with its
    /// signature) as `{callback}`. Lines of one template share the pattern below.
    var template: String
    /// The PCRE2 pattern, with `UnreadShape.events` where the callback alternatives go.
    var pattern: String
    var verdict: Verdict
    /// This line's callback as printed (`viewWillAppear`), and its event; nil when it names none.
    var callback: String?
    var kind: EventKind?
    /// This line's label (a module prefix dropped), as the pattern's `class` group captures it.
    var label: String?

    /// Where the pattern's callback alternatives go.
    static let events = "\u{0}EVENTS\u{0}"

    private enum Token {
        case literal(Range<Int>)
        case digits
        case space
        case hex
        /// The callback's name, and its signature after it (`(_:)`, `:`, `:bundle:`).
        case callback(Range<Int>, signature: Range<Int>)
        case word(Range<Int>)
    }

    static func describe(_ m: UnsafeBufferPointer<UInt8>) -> UnreadShape {
        guard let base = m.baseAddress, !m.isEmpty else { return UnreadShape(template: "", pattern: "^$", verdict: .noLabel) }
        let r = TextScalars.trimmed(base, 0..<m.count)
        let p = base, n = r.upperBound
        // Bracketed regions (`[Nav]`, `[Page 2]`): a tag there is decoration, as the reader has it.
        var brackets: [Range<Int>] = []
        var tokens: [Token] = []
        var i = r.lowerBound
        while i < n {
            let b = p[i]
            if TextScalars.spaceLength(p, i, n) > 0 {
                while i < n, case let k = TextScalars.spaceLength(p, i, n), k > 0 { i += k }
                tokens.append(.space)
                continue
            }
            if b == UInt8(ascii: "0"), i + 2 < n, p[i + 1] | UInt8.caseBit == UInt8(ascii: "x"), ByteCursor.isHex(p[i + 2]) {
                i += 2
                while i < n, ByteCursor.isHex(p[i]) { i += 1 }
                tokens.append(.hex)
                continue
            }
            if ByteCursor.isDigit(b) {
                while i < n, ByteCursor.isDigit(p[i]) { i += 1 }
                tokens.append(.digits)
                continue
            }
            if FreeFormReader.isIdentStart(b) {
                let s = i
                while i < n, FreeFormReader.isIdentByte(p[i]) || (p[i] == .dot && i + 1 < n && FreeFormReader.isIdentStart(p[i + 1])) { i += 1 }
                let w = s..<i
                if !(s > r.lowerBound && FreeFormReader.isIdentByte(p[s - 1])), memchr(p + s, Int32(UInt8.dot), w.count) == nil,
                   FreeFormReader.isCallbackName(p + s, w.count) || Self.isAndroidCallback(p, w) {
                    let sig = signature(p, after: i, n)
                    tokens.append(.callback(w, signature: i..<sig))
                    i = sig
                } else {
                    tokens.append(.word(w))
                }
                continue
            }
            if b == .openBracket, let c = FreeFormReader.closing(p, i, n, open: UInt8.openBracket, close: UInt8.closeBracket) { brackets.append((i + 1)..<c) }
            // Another byte (punctuation, a byte of another script) stays as it is.
            let k = b >= 0x80 ? TextScalars.decode(p, i, n).length : 1
            tokens.append(.literal(i..<(i + k)))
            i += k
        }
        func text(_ w: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(start: p + w.lowerBound, count: w.count), as: UTF8.self) }
        func bracket(_ w: Range<Int>) -> Range<Int>? { brackets.last { $0.contains(w.lowerBound) } }

        // The callback: the first one. A second makes the line a sentence about them.
        let callbacks = tokens.indices.filter { if case .callback = tokens[$0] { return true }; return false }
        // The label: a class's name (`HomeViewController`, `Shop.CartVC`), else the first word that can
        // name a screen (`vc1`, `mainViewCtrl`): never a callback, a common word, a level or an outcome.
        var labelIndex: Int? = nil
        for (k, t) in tokens.enumerated() {
            guard case .word(let w) = t, isClassLike(p, w), !Words.isSourceFile(p, w) else { continue }
            labelIndex = k
            break
        }
        if labelIndex == nil {
            for (k, t) in tokens.enumerated() {
                guard case .word(let w) = t, canName(p, w) else { continue }
                labelIndex = k
                break
            }
        }

        // The verdict: every word but the label and the callback must be one a statement holds.
        var verdict = UnreadShape.Verdict.statement
        if callbacks.count > 1 {
            verdict = .callbacks(callbacks.prefix(3).compactMap { if case .callback(let w, _) = tokens[$0] { return text(w) }; return nil })
        } else if callbacks.isEmpty {
            verdict = .noLabel
        } else {
            var extra: [String] = []
            var connectives = 0
            for (k, t) in tokens.enumerated() where k != labelIndex {
                guard case .word(let w) = t else { continue }
                if let inner = bracket(w) {
                    // `[Analytics]` is a tag; `[the cached screen]` a sentence.
                    if Words.bracketContent(p, TextScalars.trimmed(p, inner)) == .sentence { extra.append(text(w)) }
                    continue
                }
                if holdsStatement(p, w) { continue }
                // `viewDidLoad() was called on HomeVC`: one small word that joins the callback to its label.
                if connectives == 0, isConnective(p, w), labelIndex.map({ adjacent(tokens, k, $0) }) == true || adjacent(tokens, k, callbacks[0]) {
                    connectives += 1
                    continue
                }
                extra.append(text(w))
            }
            if !extra.isEmpty { verdict = .sentence(Array(extra.prefix(3))) } else if labelIndex == nil { verdict = .noLabel }
        }

        // The template, and the pattern.
        let hexes = tokens.filter { if case .hex = $0 { return true }; return false }.count
        var template = ""
        var pattern = "^"
        var callback: String? = nil, kind: EventKind? = nil, label: String? = nil
        for (k, t) in tokens.enumerated() {
            switch t {
            case .space:
                template += " "
                pattern += #"\s+"#
            case .digits:
                template += "#"
                pattern += #"\d+"#
            case .hex:
                template += "0x#"
                // The only address of a labelled statement tells its instances apart.
                pattern += hexes == 1 && labelIndex != nil && verdict == .statement ? "(?<address>0x[0-9a-fA-F]+)" : "0x[0-9a-fA-F]+"
            case .literal(let w):
                template += text(w)
                pattern += escape(p, w)
            case .callback(let w, let sig):
                if k == callbacks.first {
                    template += "{callback}"
                    callback = text(w)
                    kind = MethodTable.kind(UnsafeBufferPointer(start: p + w.lowerBound, count: w.count),
                                            signature: UnsafeBufferPointer(start: p + sig.lowerBound, count: sig.count), foldCase: true)
                        ?? MethodTable.kind(UnsafeBufferPointer(start: p + w.lowerBound, count: w.count), signature: UnsafeBufferPointer(start: nil, count: 0), foldCase: true)
                        ?? LogcatStatement.callbacks[text(w)]
                    pattern += "(?<event>\(events))" + #"(?:\([\w\s:,]*\)|:(?:[A-Za-z_]\w*:)*)?"#
                } else {
                    template += text(w.lowerBound..<sig.upperBound)
                    pattern += escape(p, w.lowerBound..<sig.upperBound)
                }
            case .word(let w):
                if k == labelIndex {
                    template += "{class}"
                    label = text(FreeFormReader.lastComponent(p, w))
                    // A module prefix is not part of the class (`Shop.HomeViewController`), and the class
                    // is never a callback's name or a common word.
                    pattern += #"(?:[A-Za-z_$][\w$]*\.)*(?<class>(?!(?i:"# + events + #"|the|an?|this|that|self|super|it|nil|null|none)(?![\w$]))[A-Za-z_$][\w$]*)"#
                } else {
                    template += text(w)
                    pattern += escape(p, w)
                }
            }
        }
        pattern += #"[.!,;]*$"#
        return UnreadShape(template: template, pattern: pattern, verdict: verdict, callback: callback, kind: kind, label: label)
    }

    /// The signature after a callback's name, as the free-form reader takes it: `(_:)`, `()`,
    /// `(animated:)`, or ObjC selector pieces `:`, `:bundle:`. Returns where it ends.
    private static func signature(_ p: UnsafePointer<UInt8>, after e: Int, _ n: Int) -> Int {
        guard e < n else { return e }
        if p[e] == .openParen {
            var k = e + 1
            while k < n, k - e < 80, FreeFormReader.isIdentByte(p[k]) || p[k] == .colon || p[k] == .space || p[k] == .comma { k += 1 }
            return k < n && p[k] == .closeParen ? k + 1 : e
        }
        guard p[e] == .colon else { return e }
        var end = e + 1
        while true {
            var k = end
            while k < n, FreeFormReader.isIdentByte(p[k]) { k += 1 }
            guard k > end, k < n, p[k] == .colon else { break }
            end = k + 1
        }
        return end
    }

    /// A word a lifecycle statement holds beside its label and callback: a level (`DEBUG`), an
    /// outcome (`called`, `begin`, `end`), an argument (`animated`, `true`, `nil`, `toParent`), a
    /// source file (`HomeVC.swift`).
    private static func holdsStatement(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        let k = Words.kind(p, w)
        if k.contains(.level) || Words.phase(k) != nil || Words.argument(k) != .other { return true }
        return memchr(p + w.lowerBound, Int32(UInt8.dot), w.count) != nil && Words.isSourceFile(p, w)
    }

    /// `on`, `for`, `of`, `in`, `at`, `by`: a word that joins a callback to the controller it ran on.
    private static func isConnective(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        Words.equalsFolded(p + w.lowerBound, w.count, "on") || Words.equalsFolded(p + w.lowerBound, w.count, "for")
            || Words.equalsFolded(p + w.lowerBound, w.count, "of") || Words.equalsFolded(p + w.lowerBound, w.count, "in")
            || Words.equalsFolded(p + w.lowerBound, w.count, "at") || Words.equalsFolded(p + w.lowerBound, w.count, "by")
    }

    /// Whether only white space and punctuation stand between tokens `a` and `b`.
    private static func adjacent(_ tokens: [Token], _ a: Int, _ b: Int) -> Bool {
        let (lo, hi) = a < b ? (a, b) : (b, a)
        for k in (lo + 1)..<hi {
            switch tokens[k] {
            case .space, .literal: continue
            default: return false
            }
        }
        return true
    }

    /// A word that can name a screen when no class name does (`vc1`, `mainViewCtrl`, `Main`): not a
    /// common word, a level, an outcome or an argument, and not an English word in lowercase.
    private static func canName(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        let k = Words.kind(p, w)
        if k.contains(.stop) || k.contains(.level) || Words.phase(k) != nil || Words.argument(k) != .other { return false }
        if Words.isPlainLowercase(p, w) || Words.isLowercaseVerb(p, w) || w.count < 2 && p[w.lowerBound] != UInt8(ascii: "A") && p[w.lowerBound] != UInt8(ascii: "I") { return false }
        if memchr(p + w.lowerBound, Int32(UInt8.dot), w.count) != nil, Words.isSourceFile(p, w) { return false }
        return !FreeFormReader.isCallbackName(p + FreeFormReader.lastComponent(p, w).lowerBound, FreeFormReader.lastComponent(p, w).count)
    }

    /// A controller's class, as apps name them: `HomeViewController`, `SettingsVC`, `Shop.HomeView`.
    static func isClassLike(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        guard w.count >= 3, p[w.lowerBound] &- UInt8(ascii: "A") < 26 else { return false }
        var uppers = 0, lowers = 0
        for k in w {
            if p[k] &- UInt8(ascii: "A") < 26 { uppers += 1 } else if p[k] &- UInt8(ascii: "a") < 26 { lowers += 1 }
        }
        let lastWord = FreeFormReader.lastComponent(p, w)
        if FreeFormReader.isCallbackName(p + lastWord.lowerBound, lastWord.count) { return false }
        let name = String(decoding: UnsafeBufferPointer(start: p + lastWord.lowerBound, count: lastWord.count), as: UTF8.self)
        return uppers >= 2 && lowers >= 1 || name.hasSuffix("Controller") || name.hasSuffix("VC")
    }

    /// An Activity's or Fragment's callback (`onCreate`, `ON_RESUME`; docs/lifecycle.md#android-statements).
    static func isAndroidCallback(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        w.count >= 6 && w.count <= 24 && (p[w.lowerBound] == UInt8(ascii: "o") || p[w.lowerBound] == UInt8(ascii: "O"))
            && LogcatStatement.callbacks[String(decoding: UnsafeBufferPointer(start: p + w.lowerBound, count: w.count), as: UTF8.self)] != nil
    }

    /// The dialect that reads the group's lines: the callbacks seen, then the usual ones in the same
    /// spelling, as the `event` alternatives (Android's when the callbacks seen are an Activity's or Fragment's).
    func dialect(callbacks seen: [String]) -> Inspection.SuggestedDialect {
        if let first = seen.first, let _ = LogcatStatement.callbacks[first] {
            var events: [(String, EventKind)] = []
            let usual = first.hasPrefix("ON_") ? ["ON_CREATE", "ON_START", "ON_RESUME", "ON_PAUSE", "ON_STOP", "ON_DESTROY"]
                : ["onCreate", "onStart", "onResume", "onPause", "onStop", "onDestroy"]
            for t in seen + usual where !events.contains(where: { $0.0 == t }) {
                if let kind = LogcatStatement.callbacks[t] { events.append((t, kind)) }
            }
            let alternatives = events.map { Self.escapeText($0.0) }.joined(separator: "|")
            return Inspection.SuggestedDialect(pattern: pattern.replacingOccurrences(of: Self.events, with: alternatives),
                                               events: events.map { (text: $0.0, kind: $0.1) })
        }
        let capital = seen.first.map { $0.first?.isUppercase == true } ?? false
        var events: [(String, EventKind)] = []
        func add(_ text: String) {
            let t = capital ? text.prefix(1).uppercased() + text.dropFirst() : text
            guard !events.contains(where: { $0.0 == t }) else { return }
            var copy = t
            let kind = copy.withUTF8 { MethodTable.kind($0, signature: UnsafeBufferPointer(start: nil, count: 0), foldCase: true) }
            if let kind { events.append((t, kind)) }
        }
        for t in seen { add(t) }
        for t in ["viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "dealloc", "deinit"] { add(t) }
        let alternatives = events.map { Self.escapeText($0.0) }.joined(separator: "|")
        return Inspection.SuggestedDialect(pattern: pattern.replacingOccurrences(of: Self.events, with: alternatives),
                                           events: events.map { (text: $0.0, kind: $0.1) })
    }

    private static func escape(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> String {
        var out = ""
        for k in w {
            let b = p[k]
            if b >= 0x80 || b < UInt8.space {
                out += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
            } else if (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || ByteCursor.isDigit(b) || b == .underscore || b == .space {
                out.append(Character(UnicodeScalar(b)))
            } else {
                out += "\\" + String(Character(UnicodeScalar(b)))
            }
        }
        return out
    }

    private static func escapeText(_ s: String) -> String {
        var copy = s
        return copy.withUTF8 { escape($0.baseAddress!, 0..<$0.count) }
    }
}
