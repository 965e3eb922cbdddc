import CPCRE2
#if canImport(Glibc)
import Glibc
#endif

/// Turns one message into a lifecycle event, or nil. A message counts only when the whole message
/// is a lifecycle statement: `[Analytics] queued screen event viewDidAppear for X`
/// is noise. One parser per thread (it owns PCRE2 match data).
public final class MessageParser {
    /// Swift identifiers may hold any letter: bytes ≥ 0x80 are allowed (invalid UTF-8 stays data).
    private static let cls = #"[A-Za-z_$\x80-\xff][\w$\x80-\xff]*(?:\.[A-Za-z_$\x80-\xff][\w$\x80-\xff]*)*"#
    private static let label = #"[^\s\[\]<>()]+"#
    private static let sig = #"(?<sig>\((?:[\w ]*:)*[\w ]*\)|(?::\w*)*)"#

    private static let shared = Patterns()

    /// Compiled once per process; matchers are per parser.
    final class Patterns: @unchecked Sendable {
        let objc = try! PCRE2Pattern(#"^[-+]\[(?<cls>\#(cls))(?:\s*\([\w ]*\))?\s+(?<m>[A-Za-z_]\w*)(?<sig>(?::\w*)*)\](?<rest>.*)$"#)
        let described = try! PCRE2Pattern(#"^<(?<cls>\#(cls)):\s*(?<addr>0x[0-9A-Fa-f]+)(?:;[^>]*)?>\s*(?:[-:]\s*)?(?<m>[A-Za-z_]\w*)\#(sig)(?<rest>.*)$"#)
        let object = try! PCRE2Pattern(#"^<(?<cls>[^:<>\s]+)(?::\s*(?<addr>0x[0-9A-Fa-f]+))?[^>]*>$"#)
        let marker = try! PCRE2Pattern(#"^(?<cls>\#(label))\s+(?<verb>present|dismiss)\s+(?<phase>begin|start|end|done|finished|completed?)$"#)
        /// A completion marker whose name is a title (`Home Screen dismiss end`): a label once the capture
        /// uses the title as one (`LabelLearner`).
        let titleMarker = try! PCRE2Pattern(#"^(?<cls>[A-Z][\w$]*(?: [A-Z][\w$]*){1,5})\s+(?<verb>present|dismiss)\s+(?<phase>begin|start|end|done|finished|completed?)$"#)
        let dots = try! PCRE2Pattern(#"^(?<cls>\#(label)?)\s*(?:\.|…){2,}\s*(?<m>dealloc|deinit)\s*(?:\.|…)*$"#)
        let invoke = try! PCRE2Pattern(#"^(?<cls>\#(label))\s+invoke\s+(?<m>[A-Za-z_]\w*)\#(sig)(?<rest>.*)$"#)
        let methodClass = try! PCRE2Pattern(#"^(?<m>[A-Za-z_]\w*)(?<sig>\((?:\w*:)*\))?\s*:\s*(?<cls>\#(cls))(?<rest>.*)$"#)
        let twoWord = try! PCRE2Pattern(#"^(?:\[[^\]]{1,60}\]\s*|[\x80-\xff]{1,16}\s+)?(?<cls>\#(cls))(?:\s*[(<\[]?(?<addr>0x[0-9A-Fa-f]+)[)>\]]?)?(?:\s*\.\s*|\s*:\s+|\s+-\s+|\s*->\s*|\s+)(?<m>[A-Za-z_]\w*)\#(sig)(?<rest>.*)$"#)
    }

    /// Group numbers of a "class + method" grammar, looked up once.
    struct Groups {
        let cls: Int, m: Int, sig: Int?, rest: Int?, addr: Int?
        init(_ p: PCRE2Pattern) {
            cls = p.groupNumber("cls")!
            m = p.groupNumber("m")!
            sig = p.groupNumber("sig")
            rest = p.groupNumber("rest")
            addr = p.groupNumber("addr")
        }
    }

    private let objcGroups: Groups, describedGroups: Groups, invokeGroups: Groups, methodClassGroups: Groups, twoWordGroups: Groups
    private let objc: PCRE2Matcher, described: PCRE2Matcher, object: PCRE2Matcher
    private let marker: PCRE2Matcher, titleMarker: PCRE2Matcher, dots: PCRE2Matcher, invoke: PCRE2Matcher
    private let methodClass: PCRE2Matcher, twoWord: PCRE2Matcher

    private let custom: [(dialect: CustomDialect, matcher: PCRE2Matcher)]
    /// Class names seen recently, so that an event does not build its class's String again.
    @exclusivity(unchecked) private var names = NameCache()
    /// How many messages a custom pattern gave up on (PCRE2 limits).
    @exclusivity(unchecked) public private(set) var limitHits = 0

    public init(custom: [CustomDialect] = []) {
        self.custom = custom.map { ($0, $0.pattern.makeMatcher()) }
        let p = Self.shared
        objc = p.objc.makeMatcher(); described = p.described.makeMatcher()
        object = p.object.makeMatcher(); marker = p.marker.makeMatcher(); titleMarker = p.titleMarker.makeMatcher(); dots = p.dots.makeMatcher()
        invoke = p.invoke.makeMatcher(); methodClass = p.methodClass.makeMatcher(); twoWord = p.twoWord.makeMatcher()
        objcGroups = Groups(p.objc); describedGroups = Groups(p.described); invokeGroups = Groups(p.invoke)
        methodClassGroups = Groups(p.methodClass); twoWordGroups = Groups(p.twoWord)
    }

    /// What the last `parse` found besides its event (read by `LineParser`).
    struct Note {
        /// The message mentions a callback name as a word but is not a lifecycle statement
        /// (such lines are counted, so that an unread capture never looks clean).
        var unread = false
        /// A free-form statement's outcome word (`viewDidLoad begin` / `viewDidLoad end`).
        var phase: FreeFormStatement.Phase = .none
        /// A free-form statement's printed value after the callback, when it has no label: the
        /// capture decides whether it names the controller (`LabelLearner`).
        var value: String?
        /// The free-form statement's shape (`FreeFormReader.template`), when `value` is set or
        /// `recordShapes` asks for it; 0 otherwise.
        var shape: UInt64 = 0
        /// The shape's text (`{label} – {callback}`), with `recordShapes`.
        var template: String?
        /// A free-form statement labelled by a title (`Home Screen | viewDidLoad`): the title and its
        /// shape as one key (never 0, bit 1 clear), for the capture to decide whether the title is a
        /// label (`LabelLearner`); a completion marker named by a title (`Home Screen dismiss end`):
        /// the title's name alone (bits 0 and 1 set); 0 otherwise.
        var title: UInt64 = 0
        /// A free-form statement whose label the unified log redacted (`<private> viewDidLoad`).
        var redacted = false
    }
    @exclusivity(unchecked) private(set) var note = Note()
    /// Whether the note says anything besides the event (`ParsedLine.take` keeps it only then): read in place, where
    /// passing the note copied it, its strings retained and released, for every event.
    var noted: Bool { note.phase != .none || note.shape != 0 || note.title != 0 || note.redacted }
    /// `vclint inspect`: every free-form statement's shape is worked out (`Note.template`).
    @exclusivity(unchecked) var recordShapes = false

    /// Parses a message given as bytes: the built-in dialects, then the user's, then the
    /// free-form statements (a callback name in the app's own words), then UIKit's warnings wherever they stand.
    public func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        if note.value != nil || note.template != nil { note = Note() } else { note.unread = false; note.phase = .none; note.shape = 0; note.title = 0; note.redacted = false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        // White space of other scripts inside the message (a web page's U+00A0 between a class and
        // its method) reads as a space: the grammars see the message with ASCII spaces.
        // (One pass over the message gives this and the caches' keys below.)
        let keys = MessageKeys(base, bytes.count)
        if keys.high, let spaced = Self.asciiSpaced(base, bytes.count) {
            return spaced.withUnsafeBufferPointer { parseNormalized($0, MessageKeys($0.baseAddress!, $0.count)) }
        }
        return parseNormalized(bytes, keys)
    }

    private func parseNormalized(_ bytes: UnsafeBufferPointer<UInt8>, _ keys: MessageKeys) -> Event? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        // A capture repeats its shapes: noise that mentions callbacks (`[Memory] footprint 925 MB
        // after didReceiveMemoryWarning …`) is answered at once, and the app's own statements go
        // straight to the free-form reader that read them before.
        let shape = custom.isEmpty ? keys.shape : 0
        if shape != 0 {
            switch routes.lookup(shape) {
            case .mention: note.unread = true; return nil
            case .noise: return nil
            case .freeForm:
                // The same statement again (`[Home] — viewWillAppear: (animated: true)`): as read before.
                if let entry = statements.lookup(keys.slot, base, bytes.count) {
                    return statements.read(entry, into: &note)
                }
                let e = freeForm(base, bytes.count)
                if let e { statements.insert(keys.slot, base, bytes.count, e, note) }
                return e
            case nil: break
            }
        }
        // The same statement of a built-in dialect again (`-[HomeViewController viewDidAppear:]`): as read before.
        if let entry = builtIns.lookup(keys.slot, base, bytes.count) { return builtIns.read(entry, into: &note) }
        // A described object's statement (`<HomeViewController: 0x7fb1…> viewDidAppear:`) names a new address with
        // every instance, so its exact bytes are seen about once: the same statement of another instance is read as
        // before, with this one's address (`describedStatements`).
        let head = bytes.count <= 256 ? Self.describedHead(base, bytes.count) : nil
        var headSlot = -1
        if let head {
            headSlot = withoutAddress(base, bytes.count, head.address)
            if let entry = holed.withUnsafeBufferPointer({ describedStatements.lookup(headSlot, $0.baseAddress!, $0.count) }) {
                var e = describedStatements.read(entry, into: &note)
                e.address = Self.hexValue(UnsafeBufferPointer(start: base + head.address.lowerBound, count: head.address.count))
                return e
            }
        }
        if let e = builtIn(bytes) {
            builtIns.insert(keys.slot, base, bytes.count, e, note)
            if headSlot >= 0, tookDescribedShape {
                holed.withUnsafeBufferPointer { describedStatements.insert(headSlot, $0.baseAddress!, $0.count, e, note) }
            }
            return e
        }
        if !custom.isEmpty, let e = customEvent(bytes) { return e }
        let e = freeForm(base, bytes.count)
        if shape != 0 { routes.insert(shape, e != nil ? .freeForm : note.unread ? .mention : .noise) }
        return e
    }

    /// The described statements read by `describedShape`, by their bytes without their address's digits (`holed`, after
    /// `withoutAddress`). What that reading gives depends on the address only through its value: the class, the
    /// callback and the rest are the same bytes, and a message of at most 256 bytes is under every length limit.
    @exclusivity(unchecked) private var describedStatements = StatementCache()
    /// The message `withoutAddress` made last.
    @exclusivity(unchecked) private var holed: [UInt8] = []
    /// Whether the last `builtIn` read a described object through `describedShape` (not the regex).
    @exclusivity(unchecked) private var tookDescribedShape = false

    /// The message without the hex digits of its described object's address (`address`: the `0x` and its digits), into
    /// `holed`; its slot in `describedStatements`.
    private func withoutAddress(_ base: UnsafePointer<UInt8>, _ n: Int, _ address: Range<Int>) -> Int {
        holed.removeAll(keepingCapacity: true)
        holed.append(contentsOf: UnsafeBufferPointer(start: base, count: address.lowerBound + 2))
        holed.append(contentsOf: UnsafeBufferPointer(start: base + address.upperBound, count: n - address.upperBound))
        return holed.withUnsafeBufferPointer { StatementCache.slot($0.baseAddress!, $0.count) }
    }

    /// What recent shapes of messages were (`ShapeRoutes`).
    @exclusivity(unchecked) private var routes = ShapeRoutes()
    /// Recent free-form statements by their exact bytes (`StatementCache`), and the built-in dialects' the same way.
    @exclusivity(unchecked) private var statements = StatementCache()
    @exclusivity(unchecked) private var builtIns = StatementCache()

    /// Whether a byte ≥ 0x80 is in the message (eight bytes at a time).
    @inline(__always)
    static func hasHighBytes(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
            i += 8
        }
        while i < n { if p[i] >= 0x80 { return true }; i += 1 }
        return false
    }

    /// The message with every white space scalar of another script made one ASCII space; nil when
    /// it has none (most messages with bytes ≥ 0x80 have an EM DASH, a bullet or an emoji instead).
    static func asciiSpaced(_ p: UnsafePointer<UInt8>, _ n: Int) -> [UInt8]? {
        var i = 0
        while i < n, spaceScalarLength(p, i, n) == 0 { i += 1 }
        guard i < n else { return nil }
        var out = Array(UnsafeBufferPointer(start: p, count: i))
        out.reserveCapacity(n)
        while i < n {
            let k = spaceScalarLength(p, i, n)
            if k > 0 {
                out.append(UInt8.space)
                i += k
            } else {
                out.append(p[i])
                i += 1
            }
        }
        return out
    }

    /// The length of the white space scalar of another script at `p[i]` (U+0085, U+00A0, U+1680,
    /// U+2000…U+200F, U+2028…U+202F, U+205F…U+206F, U+3000, U+FEFF, …), else 0; ASCII bytes and
    /// other scalars (an EM DASH, a bullet) are not decoded.
    @inline(__always)
    static func spaceScalarLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Int {
        let b = p[i]
        guard b >= 0xC2 else { return 0 }
        switch b {
        case 0xC2:
            return i + 1 < n && (p[i + 1] == 0xA0 || p[i + 1] == 0x85 || p[i + 1] == 0xAD) ? 2 : 0
        case 0xE2:
            guard i + 2 < n else { return 0 }
            let b1 = p[i + 1], b2 = p[i + 2]
            // (A third byte below 0x80 is not part of the scalar: `\xE2\x80e` is no space.)
            return b1 == 0x80 && (b2 >= 0x80 && b2 < 0x90 || b2 >= 0xA8 && b2 <= 0xAF) || b1 == 0x81 && b2 >= 0x9F && b2 <= 0xAF ? 3 : 0
        case 0xCD, 0xE1, 0xE3, 0xEF:
            let (v, k) = TextScalars.decode(p, i, n)
            return TextScalars.classify(v) == .space ? k : 0
        default:
            return 0
        }
    }

    /// A free-form statement (`FreeFormReader`), or a UIKit warning behind decoration.
    private func freeForm(_ base: UnsafePointer<UInt8>, _ count: Int) -> Event? {
        switch FreeFormReader.read(base, count) {
        case .none:
            // No callback: maybe one of UIKit's warnings behind decoration (the shortest is longer than 40).
            guard count >= 40 else { return nil }
            let r = Self.statementRange(base, count)
            return uikitWarning(Message(base: base + r.lowerBound, count: r.count))
        case .mention:
            note.unread = true
            return nil
        case .statement(let st):
            let bytes = { (r: Range<Int>) in UnsafeBufferPointer(start: base + r.lowerBound, count: r.count) }
            let name: String
            if let r = st.label {
                name = st.title ? Self.collapsed(bytes(r)) : st.labelIsClass ? normalizedName(bytes(r)) : names.string(bytes(r))
            } else {
                name = Self.unnamed
            }
            var e = Event(kind: st.kind, className: name, address: st.address, dialect: .freeForm)
            switch st.parent {
            case .none: e.parent = .none
            case .parent: e.parent = .parent(st.parentClass.map { normalizedName(bytes($0)) })
            case .unknown: break
            }
            note.phase = st.phase
            if let v = st.value { note.value = Self.collapsed(bytes(v)) }
            note.redacted = st.redacted
            if recordShapes || st.value != nil {
                let t = FreeFormReader.template(base, count, st)
                note.shape = Words.key(t)
                if recordShapes { note.template = t }
            }
            if st.title {
                // The title in its frame (decoration, title, separator: `{label} | `), whatever the
                // callback's spelling and arguments: the capture repeats the frame with each callback.
                let frame = FreeFormReader.template(base, st.callback.lowerBound, st)
                // (Bit 1 clear: a marker's title, keyed by its name alone, sets it.)
                note.title = ((Words.key(frame) &* 0x100000001b3) ^ Words.key(name)) & ~2 | 1
            }
            return e
        }
    }

    /// The class name of unlabeled statements (`viewDidLoad`, `print(#function)`): the session's
    /// unnamed controller.
    public static let unnamed = "(unnamed)"

    /// A printed value as one line of text, its runs of white space made one space.
    static func collapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var space = false
        for b in bytes {
            if b == .space || b == .tab { space = true; continue }
            if space, !out.isEmpty { out.append(UInt8.space) }
            space = false
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The message without white space of any script at its ends, nor trailing `.`, `!`, `,`, `;`.
    @inline(__always)
    static func statementRange(_ base: UnsafePointer<UInt8>, _ count: Int) -> Range<Int> {
        // Most messages start and end in ASCII: the ASCII trim says it all.
        guard count > 0, base[0] < 0x80, base[count - 1] < 0x80 else { return unicodeStatementRange(base, count) }
        var lo = 0, hi = count
        while lo < hi, Self.isSpace(base[lo]) { lo += 1 }
        while hi > lo, Self.isSpace(base[hi - 1]) || base[hi - 1] == .dot || base[hi - 1] == .bang || base[hi - 1] == .comma || base[hi - 1] == .semicolon { hi -= 1 }
        if hi > lo, base[hi - 1] >= 0x80 { return unicodeStatementRange(base, count) }
        return lo..<hi
    }

    private static func unicodeStatementRange(_ base: UnsafePointer<UInt8>, _ count: Int) -> Range<Int> {
        var r = TextScalars.trimmed(base, 0..<count)
        while true {
            var hi = r.upperBound
            while hi > r.lowerBound, Self.isSpace(base[hi - 1]) || base[hi - 1] == .dot || base[hi - 1] == .bang || base[hi - 1] == .comma || base[hi - 1] == .semicolon { hi -= 1 }
            if hi == r.upperBound { return r }
            let t = TextScalars.trimmed(base, r.lowerBound..<hi)
            if t == r { return r }
            r = t
        }
    }

    /// A logcat message read by the user's dialects only (`LineParser.logcat`: Android's statements have their own reader).
    /// Whether the user's dialects are read (their patterns count the lines they give up on: no cache may skip them).
    var hasCustom: Bool { !custom.isEmpty }

    func customOnly(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        custom.isEmpty ? nil : customEvent(bytes)
    }

    /// The user's dialects, tried after the built-in ones.
    private func customEvent(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        guard let base = bytes.baseAddress else { return nil }
        var lo = 0, hi = bytes.count
        while lo < hi, Self.isSpace(base[lo]) { lo += 1 }
        while hi > lo, Self.isSpace(base[hi - 1]) { hi -= 1 }
        let m = Message(base: base + lo, count: hi - lo)
        for (d, matcher) in custom {
            switch matcher.search(m.base, length: m.count) {
            case .noMatch: continue
            case .limitExceeded: limitHits += 1; continue
            case .match:
                guard let c = matcher.range(d.classGroup), let ev = matcher.range(d.eventGroup),
                      let kind = d.events[m.text(ev)], !c.isEmpty else { continue }
                let address = d.addressGroup.flatMap { matcher.range($0) }.flatMap { Self.hexValue(m.bytes($0)) }
                return Event(kind: kind, className: m.text(c), address: address, dialect: .custom)
            }
        }
        return nil
    }

    private func builtIn(_ bytes: UnsafeBufferPointer<UInt8>) -> Event? {
        tookDescribedShape = false
        guard let base = bytes.baseAddress else { return nil }
        let r = Self.statementRange(base, bytes.count)
        let lo = r.lowerBound, hi = r.upperBound
        guard hi - lo >= 4, hi - lo <= 600 else { return nil }
        let p = base + lo
        let n = hi - lo
        let m = Message(base: p, count: n)
        switch p[0] {
        case .hyphen, .plus:  // -[ +[
            guard n > 2, p[1] == .openBracket else { return nil }
            if objcFastPath, let r = Self.objcShape(m) {
                return event(m, cls: r.cls, method: r.method, signature: r.signature, rest: r.rest, address: nil, dialect: .objcFunction)
            }
            return callback(objc, objcGroups, m, dialect: .objcFunction)
        case .less:  // <
            if shapeFastPaths, let (g, a) = Self.describedShape(m) {
                tookDescribedShape = true
                return event(m, cls: g.cls, method: g.method, signature: g.signature, rest: g.rest, address: Self.hexValue(m.bytes(a)), dialect: .describedObject)
            }
            return callback(described, describedGroups, m, dialect: .describedObject)
        case UInt8(ascii: "U"), UInt8(ascii: "A"), UInt8(ascii: "W"), UInt8.openBracket:  // Unbalanced…, Attempt…, Warning:…, [Presentation] …
            if let e = uikitWarning(m) { return e }
        default:
            break
        }
        // A label cannot start with `[`: tagged messages (`[Lifecycle] X.viewDidAppear(_:)`) are Swift-style.
        if p[0] != .openBracket {
            if let e = namedDialect(m) { return e }
            if memchr(p, Int32(UInt8.colon), n) != nil {
                if shapeFastPaths, let g = Self.methodClassShape(m) {
                    if let e = event(m, cls: g.cls, method: g.method, signature: g.signature, rest: g.rest, address: nil, dialect: .methodClass) { return e }
                } else if let e = callback(methodClass, methodClassGroups, m, dialect: .methodClass) {
                    return e
                }
            }
        }
        if twoWordFastPath {
            switch Self.twoWordShape(m) {
            case .match(let cls, let method, let signature, let rest):
                return event(m, cls: cls, method: method, signature: signature, rest: rest, address: nil, dialect: .swiftFunction)
            case .noMatch:
                return nil
            case .undecided:
                break
            }
        }
        return callback(twoWord, twoWordGroups, m, dialect: .swiftFunction)
    }

    public func parse(_ text: String) -> Event? {
        var s = text
        return s.withUTF8 { parse($0) }
    }

    struct Message {
        let base: UnsafePointer<UInt8>
        let count: Int
        func text(_ r: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
        }
        func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + r.lowerBound, count: r.count)
        }
        /// `..` or `…` somewhere: seed 000's `.......dealloc.......`.
        var hasDotRun: Bool {
            // (Two memchr passes, one per first byte: most messages have a dot or two and no `…`.)
            var i = 0
            while i + 1 < count, let hit = memchr(base + i, Int32(UInt8.dot), count - 1 - i) {
                let j = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                if base[j + 1] == .dot { return true }
                i = j + 1
            }
            i = 0
            while i + 2 < count, let hit = memchr(base + i, 0xE2, count - 2 - i) {
                let j = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                if base[j + 1] == 0x80, base[j + 2] == 0xA6 { return true }
                i = j + 1
            }
            return false
        }
        /// (memchr for the first byte, then a compare: glibc's memmem costs more to set up than a
        /// message takes to scan.)
        func contains(_ needle: StaticString) -> Bool {
            let k = needle.utf8CodeUnitCount
            guard k > 0, k <= count else { return k == 0 }
            let q = needle.utf8Start
            var i = 0
            let last = count - k
            while i <= last {
                guard let hit = memchr(base + i, Int32(q[0]), last - i + 1) else { return false }
                let j = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
                if memcmp(base + j, q, k) == 0 { return true }
                i = j + 1
            }
            return false
        }
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == .space || b == .tab || b == .carriageReturn || b == .newline || b == 0 }

    private func namedDialect(_ m: Message) -> Event? {
        // Cheap guards first: most candidate lines are noise.
        let last = m.base[m.count - 1]
        if last == UInt8(ascii: "n") || last == UInt8(ascii: "t") || last == UInt8(ascii: "d") || last == UInt8(ascii: "e") {
            // Both marker grammars end in `\s+(present|dismiss)\s+(phase)`: without that tail neither can match.
            let tail = shapeFastPaths ? Self.markerTail(m) : nil
            if let tail, let c = Self.markerLabel(m, verb: tail.verb) { return markerEvent(m, cls: c, verb: tail.verb, phase: tail.phase) }
            if tail != nil || !shapeFastPaths {
                if let e = markerEvent(marker, m) { return e }
                if m.base[0].isASCIIUppercase, let e = markerEvent(titleMarker, m) {
                    // The title's key by its name alone: the capture confirms it with callbacks, in any frame.
                    note.title = LabelLearner.titleName(e.className)
                    return e
                }
            }
        }
        if m.hasDotRun {
            let c = shapeFastPaths ? Self.dotsShape(m) : dots.search(m.base, length: m.count) == .match ? dots.range(1) : nil
            if let c, !c.isEmpty { return Event(kind: .dealloc, className: m.text(c), dialect: .namedInvoke) }
        }
        guard m.contains(" invoke ") else { return nil }  // (memmem only runs on label-shaped messages)
        if shapeFastPaths, let g = Self.invokeShape(m) {
            return event(m, cls: g.cls, method: g.method, signature: g.signature, rest: g.rest, address: nil, dialect: .namedInvoke)
        }
        return callback(invoke, invokeGroups, m, dialect: .namedInvoke)
    }

    /// `X present end`, `X dismiss begin`: a completion marker, its name as the matcher's first group.
    private func markerEvent(_ matcher: PCRE2Matcher, _ m: Message) -> Event? {
        guard matcher.search(m.base, length: m.count) == .match, let c = matcher.range(1), let v = matcher.range(2),
              let ph = matcher.range(3) else { return nil }
        return markerEvent(m, cls: c, verb: v, phase: ph)
    }

    /// The completion marker of a name, a verb and a phase.
    private func markerEvent(_ m: Message, cls c: Range<Int>, verb v: Range<Int>, phase ph: Range<Int>) -> Event {
        let present = m.base[v.lowerBound] == UInt8(ascii: "p")
        let begin = m.base[ph.lowerBound] == UInt8(ascii: "b") || m.base[ph.lowerBound] == UInt8(ascii: "s")
        let kind: EventKind = present ? (begin ? .presentBegin : .presentEnd) : (begin ? .dismissBegin : .dismissEnd)
        return Event(kind: kind, className: m.text(c), dialect: .namedInvoke)
    }

    /// Matches a "class + method (+ rest)" grammar and validates method and rest.
    private func callback(_ matcher: PCRE2Matcher, _ g: Groups, _ m: Message, dialect: Dialect) -> Event? {
        guard matcher.search(m.base, length: m.count) == .match else { return nil }
        guard let clsRange = matcher.range(g.cls), let mRange = matcher.range(g.m) else { return nil }
        let sigRange = g.sig.flatMap { matcher.range($0) } ?? (mRange.upperBound..<mRange.upperBound)
        let restRange = g.rest.flatMap { matcher.range($0) } ?? (m.count..<m.count)
        let address = g.addr.flatMap { matcher.range($0) }.flatMap { Self.hexValue(m.bytes($0)) }
        return event(m, cls: clsRange, method: mRange, signature: sigRange, rest: restRange, address: address, dialect: dialect)
    }

    /// Tests: off, every ObjC message goes through the `objc` regex.
    @exclusivity(unchecked) var objcFastPath = true
    /// Tests: off, every message the other grammars left goes through the `twoWord` regex.
    @exclusivity(unchecked) var twoWordFastPath = true
    /// Tests: off, the described, method-class, invoke, marker and dots grammars go through their regexes (`MessageShapes.swift`).
    @exclusivity(unchecked) var shapeFastPaths = true

    /// What `twoWordShape` found without the regex.
    enum Shape {
        /// The regex's groups.
        case match(cls: Range<Int>, method: Range<Int>, signature: Range<Int>, rest: Range<Int>)
        /// The regex cannot match (no backtracking alternative can either).
        case noMatch
        /// Not the common shape: the regex decides.
        case undecided
    }

    /// The `twoWord` grammar's groups for its common shape `[Tag] Class method(sig) rest` (the tag
    /// optional, the separator spaces), found without the regex: each step takes what the regex's
    /// first choice takes, and where that choice could fail and the regex would backtrack into
    /// another (a dotted class, an address, `.`/`:`/`-` separators, a leading byte ≥ 0x80, a long
    /// tag) it answers `undecided` so that the regex decides. Most noise that mentions a callback
    /// (`[Router] will present login`) has this shape and is rejected without PCRE2; so is noise
    /// whose second word cannot start a method nor an address (`[Memory] footprint 925 MB …`).
    static func twoWordShape(_ m: Message) -> Shape {
        let p = m.base, n = m.count
        guard n > 0, p[0] < 0x80 else { return .undecided }
        var i = 0
        if p[0] == .openBracket {
            // `\[[^\]]{1,60}\]\s*`: the first `]` closes the tag. Without a tag the class would
            // start at `[`, which it cannot.
            var j = 1
            while j < n, j <= 61, p[j] != .closeBracket { j += 1 }
            guard j < n, j <= 61, p[j] == .closeBracket, j >= 2 else { return .noMatch }
            i = j + 1
            while i < n, isRegexSpace(p[i]) { i += 1 }
        }
        // The class starts here (spaces and the tag cannot be part of it).
        guard i < n, isClassStart(p[i]) else { return .noMatch }
        var e = i + 1
        while e < n, isClassByte(p[e]) { e += 1 }
        guard e < n, p[e] != .dot else { return .undecided }  // MyApp.Class or Class.method: the regex
        var j = e
        while j < n, isRegexSpace(p[j]) { j += 1 }
        // Spaces, then a method name: neither the address group nor the `.`, `:`, `-`, `->`
        // separators can match here, and `\s+` takes all the spaces.
        guard j > e, j < n, (p[j] | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || p[j] == .underscore else {
            // No method here. The regex could still go on with an address (`(0x…`, `<0x…`,
            // `[0x…`, `0x…`: also inside the class's run, ending the class early) or a `.`, `:`,
            // `-` separator; without those, it cannot match at all.
            if j < n, p[j] == .dot || p[j] == .colon || p[j] == .hyphen || p[j] == .openParen || p[j] == .less || p[j] == .openBracket || p[j] == UInt8(ascii: "0") {
                return .undecided
            }
            var k = i + 1
            while k + 1 < e {
                if p[k] == UInt8(ascii: "0"), p[k + 1] == UInt8(ascii: "x") { return .undecided }
                k += 1
            }
            return .noMatch
        }
        let k = methodEnd(p, n, j)
        let s = signatureEnd(p, n, k)
        return .match(cls: i..<e, method: j..<k, signature: k..<s, rest: s..<n)
    }

    /// The `objc` grammar's groups for the common shape `-[Class method:with:] rest`, found without
    /// the regex: each step takes what the regex's first choice takes (greedy runs, the category
    /// group skipped when no `(` follows), and any other shape (a dotted class, a category, a
    /// missing `]`) returns nil so that the regex decides. Where this succeeds the regex's first
    /// path succeeds too, with the same groups.
    static func objcShape(_ m: Message) -> (cls: Range<Int>, method: Range<Int>, signature: Range<Int>, rest: Range<Int>)? {
        let p = m.base, n = m.count
        guard n > 3, p[0] == .hyphen || p[0] == .plus, p[1] == .openBracket, isClassStart(p[2]) else { return nil }
        var i = 3
        while i < n, ByteCursor.isWord(p[i]) || p[i] == .dollar || p[i] >= 0x80 { i += 1 }
        guard i < n, p[i] != .dot else { return nil }  // MyApp.Class: the regex
        let cls = 2..<i
        var j = i
        while j < n, isRegexSpace(p[j]) { j += 1 }
        guard j > i, j < n, p[j] != .openParen else { return nil }  // a category `(Name)`: the regex
        guard (p[j] | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || p[j] == .underscore else { return nil }
        var k = j + 1
        while k < n, ByteCursor.isWord(p[k]) { k += 1 }
        let method = j..<k
        while k < n, p[k] == .colon {
            k += 1
            while k < n, ByteCursor.isWord(p[k]) { k += 1 }
        }
        guard k < n, p[k] == .closeBracket else { return nil }
        return (cls, method, method.upperBound..<k, (k + 1)..<n)
    }

    /// The event of a "class + method (+ rest)" match, after validating method and rest.
    private func event(_ m: Message, cls: Range<Int>, method: Range<Int>, signature sigRange: Range<Int>, rest restRange: Range<Int>,
                       address: UInt64?, dialect: Dialect) -> Event? {
        var clsRange = cls, mRange = method, address = address
        var kind = MethodTable.kind(m.bytes(mRange), signature: m.bytes(sigRange))
        if kind == nil, dialect == .swiftFunction, sigRange.isEmpty {
            // "method Class" (seed 001: `viewWillLayoutSubviews ViewController2`).
            if let swapped = MethodTable.kind(m.bytes(clsRange), signature: UnsafeBufferPointer(start: nil, count: 0)),
               MethodTable.kind(m.bytes(mRange), signature: UnsafeBufferPointer(start: nil, count: 0)) == nil {
                // `willMove -> Child Screen`: a title after the callback, which the free-form
                // reader decides (docs/lifecycle.md#labels), not the class `Child`.
                if Self.titleGoesOn(m.base, after: mRange.upperBound, restRange) { return nil }
                // `[ChildViewController] willMoveToParentViewController: nil`: a null parent, no class.
                if Words.isNullWord(m.base, mRange) { return nil }
                kind = swapped
                swap(&clsRange, &mRange)
                address = nil
            }
        }
        if kind == nil, dialect == .swiftFunction, address == nil {
            // `HomeView appeared` (`print("\(Self.self) appeared")` in `.onAppear`): a SwiftUI view's
            // appearance, unless the name is a controller's.
            kind = Self.appearedStatement(m, cls: clsRange, method: mRange, signature: sigRange, rest: restRange)
        }
        guard let kind else { return nil }
        // `willMoveToParentViewController: Child Screen`: the same title after the callback.
        if dialect == .methodClass, Self.titleGoesOn(m.base, after: clsRange.upperBound, restRange) { return nil }
        // `Calling viewDidLoad`, `skipped viewDidLoad`: an outcome word or a sentence, not a class
        // (the free-form reader decides what they are).
        if dialect == .swiftFunction {
            let w = m.base
            if Words.phase(w, clsRange) != nil || Words.isStopWord(w, clsRange) || Words.isLowercaseVerb(w, clsRange) { return nil }
            // A level in capitals (`DEBUG willMove: Child Screen`) is decoration, not a class.
            if Words.isLevel(w, clsRange), (clsRange.lowerBound..<clsRange.upperBound).allSatisfy({ w[$0] >= UInt8(ascii: "A") && w[$0] <= UInt8(ascii: "Z") }) { return nil }
            // A dash, a bullet or an emoji is decoration, not a class (`[Home] – viewWillAppear:`).
            if !Words.hasLetter(w, clsRange) { return nil }
        }
        // `MyApp.HomeViewController` → `HomeViewController` (the module is not part of identity; a
        // nested type's enclosing type is: `MainView.ViewModel`).
        if dialect != .namedInvoke { clsRange = TypeNames.withoutModule(m.base, clsRange) }
        guard !clsRange.isEmpty else { return nil }
        let className = names.string(m.bytes(clsRange))
        var event = Event(kind: kind, className: className, address: address, dialect: dialect)
        guard applyRest(m.bytes(restRange), to: &event) else { return nil }
        return event
    }

    /// Whether another capitalised word follows the word ending at `end`, a space apart, as the
    /// words of a title do (`Child Screen`).
    static func titleGoesOn(_ p: UnsafePointer<UInt8>, after end: Int, _ rest: Range<Int>) -> Bool {
        var i = max(end, rest.lowerBound)
        guard i < rest.upperBound, p[i] == .space else { return false }
        while i < rest.upperBound, p[i] == .space { i += 1 }
        return i < rest.upperBound && p[i] >= UInt8(ascii: "A") && p[i] <= UInt8(ascii: "Z")
    }

    /// `Name appeared` / `Name disappeared`, the whole statement (a tag or an emoji before it aside):
    /// the appearance of a SwiftUI view (docs/lifecycle.md#swiftui-views). The name starts with a
    /// capital letter and is not a controller's: what a controller prints so stays noise, as do
    /// sentences (`It appeared`, `keyboard appeared`).
    static func appearedStatement(_ m: Message, cls: Range<Int>, method: Range<Int>, signature: Range<Int>, rest: Range<Int>) -> EventKind? {
        let p = m.base
        let kind: EventKind
        if method.count == 8, memcmp(p + method.lowerBound, "appeared", 8) == 0 {
            kind = .onAppear
        } else if method.count == 11, memcmp(p + method.lowerBound, "disappeared", 11) == 0 {
            kind = .onDisappear
        } else {
            return nil
        }
        guard signature.isEmpty, rest.isEmpty || onlySpaces(p, rest), cls.upperBound < method.lowerBound,
              onlySpaces(p, cls.upperBound..<method.lowerBound) else { return nil }
        let name = FreeFormReader.lastComponent(p, cls)
        guard let first = name.first.map({ p[$0] }), first &- UInt8(ascii: "A") < 26, !TypeNames.isController(p, name) else { return nil }
        return kind
    }

    private static func onlySpaces(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        for k in r where !isSpace(p[k]) { return false }
        return true
    }

    /// UIKit's warnings, known by their wording whatever decoration stands before them (a
    /// `[Presentation]` tag, `Warning:`, an emoji), with the controllers' generic or module-qualified
    /// names, with or without addresses, or elided (`on ...`).
    private func uikitWarning(_ m: Message) -> Event? {
        guard let w = UIKitWarningReader.read(m.base, m.count) else { return nil }
        func named(_ x: UIKitWarningReader.Participant) -> (String, UInt64?)? {
            // `<private>`: a controller the unified log redacted, as unknown as an elided one.
            guard let c = x.cls, !(c.count == 7 && memcmp(m.base + c.lowerBound, "private", 7) == 0) else { return nil }
            return (normalizedName(m.bytes(c)), x.address)
        }
        var e: Event
        switch w {
        case .unbalanced(let x):
            let (cls, addr) = named(x) ?? (Self.unknown, nil)
            e = Event(kind: .uikitUnbalancedTransition, className: cls, address: addr, dialect: .uikit)
        case .present(let presented, let presenter, let busyWith):
            // The presenter (the `on` controller) is the one whose state was wrong.
            if let (hc, ha) = named(presenter) {
                e = Event(kind: .uikitPresentationConflict, className: hc, address: ha, dialect: .uikit)
                if let o = named(presented) { e.others.append(o) }
            } else {
                let (pc, pa) = named(presented) ?? (Self.unknown, nil)
                e = Event(kind: .uikitPresentationConflict, className: pc, address: pa, dialect: .uikit)
            }
            if let b = busyWith, let o = named(b) { e.others.append(o) }
        case .dismiss(let x):
            let (cls, addr) = named(x) ?? (Self.unknown, nil)
            e = Event(kind: .uikitPresentationConflict, className: cls, address: addr, dialect: .uikit)
        }
        e.text = m.text(0..<m.count)
        return e
    }

    /// A warning whose controllers are all elided.
    static let unknown = "(unknown)"

    private func describedObject(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, UInt64?)? {
        guard let base = bytes.baseAddress, object.search(base, length: bytes.count) == .match, let c = object.range(1) else { return nil }
        let cls = normalizedName(UnsafeBufferPointer(start: base + c.lowerBound, count: c.count))
        let addr = object.range(2).flatMap { Self.hexValue(UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count)) }
        return (cls, addr)
    }

    /// What may follow the method: an address or the controller itself, an `animated` flag, and for
    /// move-to-parent the parent (`nil`, `(null)`, a class or a described object). Anything else
    /// means the message says more than a lifecycle statement, so it is not one.
    private func applyRest(_ rest: UnsafeBufferPointer<UInt8>, to event: inout Event) -> Bool {
        guard rest.count > 0, let base = rest.baseAddress else { return true }
        let isMove = event.kind == .willMoveToParent || event.kind == .didMoveToParent
        var i = 0
        let n = rest.count
        var sawParentWord = false
        while i < n {
            let b = base[i]
            if Self.isSpace(b) || b == .comma || b == .equals || b == .colon || b == .openParen || b == .closeParen || b == .hyphen && i + 1 < n && base[i + 1] == .greater {
                i += (b == .hyphen) ? 2 : 1
                continue
            }
            if b == .less {  // <…>
                var j = i + 1
                while j < n, base[j] != .greater { j += 1 }
                guard j < n else { return false }
                let token = UnsafeBufferPointer(start: base + i, count: j - i + 1)
                i = j + 1
                if Self.equalsASCII(token, "<null>") || Self.equalsASCII(token, "<nil>") {
                    guard isMove else { return false }
                    event.parent = .none
                    continue
                }
                guard let (cls, addr) = describedObject(token) else { return false }
                if isMove && (sawParentWord || cls != event.className) {
                    event.parent = .parent(cls)
                } else if cls == event.className {
                    if event.address == nil { event.address = addr }
                } else {
                    return false
                }
                continue
            }
            var j = i
            while j < n, !Self.isSpace(base[j]), base[j] != .comma, base[j] != .equals, base[j] != .colon, base[j] != .openParen, base[j] != .closeParen, base[j] != .less, base[j] != .greater { j += 1 }
            if j == i { return false }
            let token = UnsafeBufferPointer(start: base + i, count: j - i)
            i = j
            if token.count > 2, token[0] == UInt8(ascii: "0"), token[1] == UInt8(ascii: "x"), let v = Self.hexValue(token) {
                if event.address == nil { event.address = v }
                continue
            }
            let word = String(decoding: token, as: UTF8.self)
            switch word {
            case "animated", "true", "false", "YES", "NO", "1", "0", "self", "Optional":
                continue
            case "nil", "null", "NULL", "none", "Nil":
                guard isMove else { return false }
                event.parent = .none
            case "parent", "toParent", "toParentViewController", "to", "parentViewController", "from":
                guard isMove else { return false }
                sawParentWord = true
            default:
                guard isMove, word.first.map({ $0.isLetter || $0 == "_" }) == true,
                      word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return false }
                event.parent = .parent(Self.normalizeClass(word))
            }
        }
        return true
    }

    static func equalsASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        guard bytes.count == s.utf8CodeUnitCount else { return false }
        let q = s.utf8Start
        for k in 0..<bytes.count where bytes[k] != q[k] { return false }
        return true
    }

    static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var v: UInt64 = 0
        var digits = 0
        var k = 0
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | UInt8.caseBit == UInt8(ascii: "x") { k = 2 }
        while k < bytes.count {
            let b = bytes[k]
            let d: UInt8
            if ByteCursor.isDigit(b) { d = b - UInt8(ascii: "0") } else if (b | UInt8.caseBit) &- UInt8(ascii: "a") < 6 { d = (b | UInt8.caseBit) - UInt8(ascii: "a") + 10 } else { return nil }
            v = v << 4 | UInt64(d)
            digits += 1
            k += 1
        }
        return digits > 0 ? v : nil
    }

    /// `normalizeClass` of a name given as bytes, through the name cache. An ASCII name is cut at its
    /// last dot directly (one byte per Character there); others go through `normalizeClass`.
    func normalizedName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        var ascii = true
        var dot = -1
        for k in 0..<bytes.count {
            let b = base[k]
            if b >= 0x80 { ascii = false; break }
            if b == .dot { dot = k }
        }
        guard ascii else { return Self.normalizeClass(String(decoding: bytes, as: UTF8.self)) }
        let first = base[0]
        let leadsWithLetter = (first | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || first == .underscore
        guard dot >= 0, leadsWithLetter, dot + 1 < bytes.count else { return names.string(bytes) }
        let r = TypeNames.withoutModule(base, 0..<bytes.count)
        return names.string(UnsafeBufferPointer(start: base + r.lowerBound, count: r.count))
    }

    /// `MyApp.HomeViewController` → `HomeViewController` (Swift's module prefix is not part of
    /// identity; a nested type keeps its enclosing type: `TypeNames.withoutModule`).
    static func normalizeClass(_ s: String) -> String {
        guard s.contains("."), s.first?.isLetter == true || s.first == "_" else { return s }
        return TypeNames.withoutModule(s)
    }
}
