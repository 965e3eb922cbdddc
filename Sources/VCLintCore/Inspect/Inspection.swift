#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What vclint understood of one capture (`vclint inspect`): the envelopes and dialects it found
/// (each free-form shape with an example line and how many lines it read), the sessions, what each
/// class logs (the instrumentation that decides which rules apply to it), and the lines that
/// mention callbacks without being read, grouped by shape, each group with a `.vclint.yml` dialect
/// that reads it. It answers "why did vclint say nothing about my log?".
public struct Inspection: Sendable {
    public struct Example: Sendable, Equatable {
        public var line: Int
        public var text: String
    }

    public struct Envelope: Sendable {
        /// nil: lines without an envelope of their own (bare lines, continuations).
        public var format: EnvelopeFormat?
        public var lines: Int
        public var example: Example?
    }

    /// A built-in dialect, or one shape of the capture's free-form statements.
    public struct Shape: Sendable {
        public var dialect: Dialect
        /// The free-form shape (`{label} – {callback}`); nil for the built-in dialects.
        public var template: String?
        public var lines: Int
        public var callbacks: [EventKind]
        /// Distinct labels (classes) seen with it, counted up to `Inspection.labelLimit`.
        public var labels: Int
        public var example: Example
    }

    public struct Session: Sendable {
        public var id: Int
        public var process: String
        public var pid: Int?
        public var firstLine: Int
        public var lastLine: Int
        public var events: Int
        public var controllers: Int
        public var start: LogTime?
        public var end: LogTime?
    }

    public struct ClassInfo: Sendable {
        public var name: String
        public var dialects: [Dialect]
        public var instances: Int
        public var callbacks: [EventKind]
        /// Whether a missing dealloc of it is judged (it, or every class of its dialect, logs dealloc).
        public var deallocJudged: Bool
    }

    /// A `.vclint.yml` dialect (a PCRE2 pattern, named groups `class` and `event`:
    /// docs/configuration.md#your-apps-own-log-format-dialects).
    public struct SuggestedDialect: Sendable, Equatable {
        public var pattern: String
        /// Captured event text → event kind, in the order of the pattern's alternatives.
        public var events: [(text: String, kind: EventKind)]

        public static func == (a: SuggestedDialect, b: SuggestedDialect) -> Bool {
            a.pattern == b.pattern && a.events.map(\.text) == b.events.map(\.text) && a.events.map(\.kind) == b.events.map(\.kind)
        }

        /// The entry of the configuration's `dialects:` list.
        public var yaml: String {
            let quoted = "'" + pattern.replacingOccurrences(of: "'", with: "''") + "'"
            let map = events.map { "\(Self.yamlKey($0.text)): \($0.kind.rawValue)" }.joined(separator: ", ")
            return "- pattern: \(quoted)\n  events: {\(map)}"
        }

        private static func yamlKey(_ s: String) -> String {
            s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? s : "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    public struct UnreadGroup: Sendable {
        /// The lines' shape: digits as `#`, the callback as `{callback}`, a class-like name as `{class}`.
        public var template: String
        public var lines: Int
        public var example: Example
        public var dialect: SuggestedDialect
    }

    public var path: String
    public var lines: Int
    public var events: Int
    public var unread: Int
    /// Events whose label the unified log redacted (`<private> viewDidLoad`), and the first of them.
    public var redacted = 0
    public var firstRedacted: Int?
    public var envelopes: [Envelope]
    public var shapes: [Shape]
    /// Lines of shapes past `shapeLimit`, not listed.
    public var otherShapeLines: Int
    public var sessions: [Session]
    public var classes: [ClassInfo]
    public var unreadGroups: [UnreadGroup]
    /// Unread lines of groups past `groupLimit`, not listed.
    public var otherUnreadLines: Int

    static let shapeLimit = 64
    static let groupLimit = 64
    static let labelLimit = 64
}

/// Sees the candidate lines of one input as the stage reads them (`LineObserver`), and the first
/// line of each envelope format; bounded by `Inspection.shapeLimit` and `groupLimit`.
final class InspectRecorder: LineObserver {
    private struct ShapeKey: Hashable {
        var dialect: Dialect
        var template: String?
    }
    private struct ShapeStats {
        var lines = 0
        var callbacks = Instrumentation.EventKinds()
        var labels: Set<String> = []
        var example: Inspection.Example
        var order: Int
    }
    private struct GroupStats {
        var lines = 0
        var example: Inspection.Example
        var dialect: Inspection.SuggestedDialect
        var order: Int
    }
    private var shapes: [ShapeKey: ShapeStats] = [:]
    private var otherShapeLines = 0
    private var groups: [String: GroupStats] = [:]
    private var otherUnreadLines = 0
    private(set) var envelopeExamples: [EnvelopeFormat: Inspection.Example] = [:]

    func envelope(_ format: EnvelopeFormat, line: Int, _ bytes: UnsafeBufferPointer<UInt8>) {
        if envelopeExamples[format] == nil { envelopeExamples[format] = Inspection.Example(line: line, text: Self.text(bytes)) }
    }

    /// The input's lines were read as another format's (a JSON array's objects as ndjson lines).
    func renameEnvelope(_ format: EnvelopeFormat, to name: EnvelopeFormat) {
        if let example = envelopeExamples.removeValue(forKey: format) { envelopeExamples[name] = example }
    }

    func line(_ number: Int, _ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch parsed.kind {
        case .none, .runner:
            return
        case .enveloped, .bare:
            let key = ShapeKey(dialect: parsed.event.dialect, template: parsed.event.dialect == .freeForm ? parsed.template : nil)
            if var s = shapes[key] {
                s.lines += 1
                s.callbacks.insert(parsed.event.kind)
                if s.labels.count < Inspection.labelLimit { s.labels.insert(parsed.value ?? parsed.event.className) }
                shapes[key] = s
            } else if shapes.count < Inspection.shapeLimit {
                var s = ShapeStats(example: Inspection.Example(line: number, text: message(parsed, bytes) { Self.text($0) }), order: shapes.count)
                s.lines = 1
                s.callbacks.insert(parsed.event.kind)
                s.labels.insert(parsed.value ?? parsed.event.className)
                shapes[key] = s
            } else {
                otherShapeLines += 1
            }
        case .unread:
            message(parsed, bytes) { m in
                let (template, dialect) = UnreadShape.describe(m)
                if var g = groups[template] {
                    g.lines += 1
                    groups[template] = g
                } else if groups.count < Inspection.groupLimit {
                    groups[template] = GroupStats(lines: 1, example: Inspection.Example(line: number, text: Self.text(m)), dialect: dialect, order: groups.count)
                } else {
                    otherUnreadLines += 1
                }
            }
        }
    }

    /// The line's message (what the dialects read): past the envelope, or the decoded ndjson message.
    private func message<T>(_ parsed: ParsedLine, _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        if let d = parsed.decoded { return d.withUnsafeBufferPointer(body) }
        if parsed.kind != .bare, !parsed.message.isEmpty, parsed.message.upperBound <= bytes.count {
            return body(UnsafeBufferPointer(rebasing: bytes[parsed.message]))
        }
        return body(bytes)
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let r = TextScalars.trimmed(bytes.baseAddress!, 0..<min(bytes.count, 300))
        return String(decoding: UnsafeBufferPointer(start: bytes.baseAddress! + r.lowerBound, count: r.count), as: UTF8.self)
    }

    func inspection(stats: InputStats, recording: TimelineRecording?) -> Inspection {
        var envelopes: [Inspection.Envelope] = stats.formats.sorted { $0.value > $1.value }.map {
            Inspection.Envelope(format: $0.key, lines: $0.value, example: envelopeExamples[$0.key])
        }
        let enveloped = stats.formats.filter { $0.key != .bare }.values.reduce(0, +)
        if stats.formats.isEmpty && stats.lines > 0 || stats.lines > enveloped + (stats.formats[.bare] ?? 0) {
            envelopes.append(Inspection.Envelope(format: nil, lines: stats.lines - enveloped - (stats.formats[.bare] ?? 0), example: nil))
        }
        let listed = shapes.sorted { $0.value.lines != $1.value.lines ? $0.value.lines > $1.value.lines : $0.value.order < $1.value.order }.map { k, s in
            Inspection.Shape(dialect: k.dialect, template: k.template, lines: s.lines, callbacks: EventKind.allCases.filter { s.callbacks.contains($0) },
                             labels: s.labels.count, example: s.example)
        }
        let unread = groups.sorted { $0.value.lines != $1.value.lines ? $0.value.lines > $1.value.lines : $0.value.order < $1.value.order }.map { t, g in
            Inspection.UnreadGroup(template: t, lines: g.lines, example: g.example, dialect: g.dialect)
        }
        var sessions: [Inspection.Session] = []
        var classes: [String: Inspection.ClassInfo] = [:]
        var classOrder: [String] = []
        for s in recording?.sessions ?? [] {
            sessions.append(Inspection.Session(id: s.id, process: s.process, pid: s.pid, firstLine: s.firstEvent.line, lastLine: s.lastEvent.line,
                                               events: s.eventCount, controllers: s.instances.count, start: s.firstEvent.time,
                                               end: s.endTime ?? s.lastEvent.time))
            for i in s.instances {
                let name = i.controller.className
                if classes[name] == nil {
                    classes[name] = Inspection.ClassInfo(name: name, dialects: [], instances: 0, callbacks: [], deallocJudged: false)
                    classOrder.append(name)
                }
                var c = classes[name]!
                c.instances += 1
                if !c.dialects.contains(i.dialect) { c.dialects.append(i.dialect) }
                for cb in i.callbacks where !c.callbacks.contains(cb.kind) { c.callbacks.append(cb.kind) }
                c.deallocJudged = c.deallocJudged || i.deallocInstrumented
                classes[name] = c
            }
        }
        let classList = classOrder.map { name -> Inspection.ClassInfo in
            var c = classes[name]!
            c.callbacks = EventKind.allCases.filter { c.callbacks.contains($0) }
            return c
        }
        return Inspection(path: stats.path, lines: stats.lines, events: stats.events, unread: stats.unrecognized,
                          redacted: stats.redacted, firstRedacted: stats.firstRedacted,
                          envelopes: envelopes, shapes: listed, otherShapeLines: otherShapeLines, sessions: sessions, classes: classList,
                          unreadGroups: unread, otherUnreadLines: otherUnreadLines)
    }
}

/// The shape of a line that mentions a callback without being read, and a dialect that reads its
/// lines: its words kept, a run of digits as `\d+`, white space as `\s+`, the callback name as the
/// `event` group, a class-like name (`HomeViewController`, `Shop.Home`) as the `class` group.
enum UnreadShape {
    private enum Token {
        case literal(Range<Int>)
        case digits
        case space
        case hex
        case callback(Range<Int>)
        case className(Range<Int>)
        case word(Range<Int>)
    }

    static func describe(_ m: UnsafeBufferPointer<UInt8>) -> (template: String, dialect: Inspection.SuggestedDialect) {
        guard let base = m.baseAddress, !m.isEmpty else { return ("", Inspection.SuggestedDialect(pattern: "^$", events: [])) }
        let r = TextScalars.trimmed(base, 0..<m.count)
        let p = base, n = r.upperBound
        var tokens: [Token] = []
        var i = r.lowerBound
        while i < n {
            let b = p[i]
            let sp = TextScalars.spaceLength(p, i, n)
            if sp > 0 {
                while i < n, case let k = TextScalars.spaceLength(p, i, n), k > 0 { i += k }
                tokens.append(.space)
                continue
            }
            if b == 0x30, i + 2 < n, p[i + 1] | 0x20 == 0x78, ByteCursor.isHex(p[i + 2]) {
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
                while i < n, FreeFormReader.isIdentByte(p[i]) || (p[i] == 0x2E && i + 1 < n && FreeFormReader.isIdentStart(p[i + 1])) { i += 1 }
                let w = s..<i
                if !(s > r.lowerBound && FreeFormReader.isIdentByte(p[s - 1])), memchr(p + s, 0x2E, w.count) == nil,
                   FreeFormReader.isCallbackName(p + s, w.count) {
                    tokens.append(.callback(w))
                } else if isClassLike(p, w) {
                    tokens.append(.className(w))
                } else {
                    tokens.append(.word(w))
                }
                continue
            }
            // Another byte (punctuation, a byte of another script) stays as it is.
            let k = b >= 0x80 ? TextScalars.decode(p, i, n).length : 1
            tokens.append(.literal(i..<(i + k)))
            i += k
        }
        // The template, and the pattern.
        var template = ""
        var pattern = "^"
        var callbackTexts: [String] = []
        var classGroup = false
        let hasClass = tokens.contains { if case .className = $0 { return true }; return false }
        var eventGroup = false
        func bytes(_ w: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(start: p + w.lowerBound, count: w.count), as: UTF8.self) }
        for t in tokens {
            switch t {
            case .space:
                template += " "
                pattern += #"\s+"#
            case .digits:
                template += "#"
                pattern += #"\d+"#
            case .hex:
                template += "0x#"
                pattern += "0x[0-9a-fA-F]+"
            case .literal(let w):
                template += bytes(w)
                pattern += escape(p, w)
            case .callback(let w):
                let text = bytes(w)
                if !eventGroup {
                    template += "{callback}"
                    eventGroup = true
                    callbackTexts.append(text)
                    pattern += "(?<event>\u{0}EVENTS\u{0})"
                } else {
                    template += text
                    pattern += escape(p, w)
                }
            case .className(let w):
                if !classGroup {
                    template += "{class}"
                    classGroup = true
                    pattern += #"(?<class>[A-Za-z_$][\w$.]*)"#
                } else {
                    template += bytes(w)
                    pattern += escape(p, w)
                }
            case .word(let w):
                // No class-like name: the first word that is not a level or a stop word names the class.
                if !hasClass, !classGroup, !Words.isLevel(p, w), !Words.isStopWord(p, w) {
                    template += "{class}"
                    classGroup = true
                    pattern += #"(?<class>[A-Za-z_$][\w$.]*)"#
                } else {
                    template += bytes(w)
                    pattern += escape(p, w)
                }
            }
        }
        pattern += #"[.!,;]*$"#
        if !classGroup {
            // Only the callback: it names its own class (the user will want to edit this).
            pattern = pattern.replacingOccurrences(of: "(?<event>", with: #"(?=(?<class>[A-Za-z_]\w*))(?<event>"#)
        }
        // The callbacks this dialect reads: the ones seen, and the usual ones in the same spelling.
        let capital = callbackTexts.first.map { $0.first?.isUppercase == true } ?? false
        var events: [(String, EventKind)] = []
        func add(_ text: String) {
            let t = capital ? text.prefix(1).uppercased() + text.dropFirst() : text
            guard !events.contains(where: { $0.0 == t }) else { return }
            var copy = t
            let kind = copy.withUTF8 { MethodTable.kind($0, signature: UnsafeBufferPointer(start: nil, count: 0), foldCase: true) }
            if let kind { events.append((t, kind)) }
        }
        for t in callbackTexts { add(t) }
        for t in ["viewDidLoad", "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "dealloc", "deinit"] { add(t) }
        let alternatives = events.map { escapeText($0.0) }.joined(separator: "|")
        pattern = pattern.replacingOccurrences(of: "\u{0}EVENTS\u{0}", with: alternatives)
        return (template, Inspection.SuggestedDialect(pattern: pattern, events: events.map { (text: $0.0, kind: $0.1) }))
    }

    /// A controller's class, as apps name them: `HomeViewController`, `SettingsVC`, `Shop.HomeView`.
    static func isClassLike(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> Bool {
        guard w.count >= 3, p[w.lowerBound] &- 0x41 < 26 else { return false }
        var uppers = 0, lowers = 0
        for k in w {
            if p[k] &- 0x41 < 26 { uppers += 1 } else if p[k] &- 0x61 < 26 { lowers += 1 }
        }
        let lastWord = FreeFormReader.lastComponent(p, w)
        let name = String(decoding: UnsafeBufferPointer(start: p + lastWord.lowerBound, count: lastWord.count), as: UTF8.self)
        return uppers >= 2 && lowers >= 1 || name.hasSuffix("Controller") || name.hasSuffix("VC")
    }

    private static func escape(_ p: UnsafePointer<UInt8>, _ w: Range<Int>) -> String {
        var out = ""
        for k in w {
            let b = p[k]
            if b >= 0x80 || b < 0x20 {
                out += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
            } else if (b | 0x20) &- 0x61 < 26 || ByteCursor.isDigit(b) || b == 0x5F || b == 0x20 {
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
