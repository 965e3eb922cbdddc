#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a candidate line says on its own, before the lines around it give it a context. A struct
/// rather than an enum with payloads, so that the stage sets the line number and hands the event on
/// in place (an enum's payload is copied out, and an event's strings with it, at every step).
struct ParsedLine {
    enum Kind: UInt8 {
        /// Not an event (noise, a continuation, a capture's metadata).
        case none
        /// An event in an envelope: its process, pid and time are the envelope's. `message` (or
        /// the decoded ndjson message) is what the message parser read.
        case enveloped
        /// An event in a line without an envelope: it belongs to the context process.
        case bare
        /// Not an event, but it mentions a callback name as a word: counted, so that a capture in a
        /// shape vclint cannot read never looks clean (docs/lifecycle.md#mentions-and-unread-lines).
        case unread
        /// A test runner's line (`runner`): which test was running (docs/lifecycle.md#test-boundaries).
        case runner
        /// Android's evidence about instances (`evidence`): LeakCanary, StrictMode, `Displayed`
        /// (docs/lifecycle.md#android-evidence). `process`, `pid` and `event.time` are its envelope's.
        case evidence
    }
    var kind: Kind
    /// Meaningless for `.none` and `.unread`.
    var event: Event
    var process: String? = nil
    var pid: Int? = nil
    var message: Range<Int> = 0..<0
    var decoded: [UInt8]? = nil
    /// A free-form statement's outcome word, printed value and shape (`MessageParser.Note`).
    var phase: FreeFormStatement.Phase = .none
    var value: String? = nil
    var shape: UInt64 = 0
    var template: String? = nil
    /// A title's key (`MessageParser.Note.title`), and whether the label was redacted.
    var title: UInt64 = 0
    var redacted = false
    /// The line's bytes, kept for `vclint inspect` while the capture decides what a title is.
    var observed: [UInt8]? = nil
    var runner: TestRunnerLine? = nil
    var evidence: AndroidEvidence? = nil
    /// A stack frame (`at com.example.FeedFragment.onCreateDialog(…)`): where it is in the line. An app's frame under a
    /// crash names the fragment of the view-misuse exception above it (`EventStage.heldMisuse`); the stage reads its
    /// class only while such an exception waits (most frames that reach the parser are noise).
    var frame: Range<Int32>? = nil

    /// (Made anew each time: a stored one would be copied, with a global's lazy-initialisation check.)
    static var none: ParsedLine { ParsedLine(kind: .none, event: placeholder()) }

    /// The event of a line that is none (meaningless: `event` says so).
    static func placeholder(_ dialect: Dialect = .uikit) -> Event { Event(kind: .dealloc, className: "", dialect: dialect) }

    static func enveloped(_ e: consuming Event, process: String?, pid: Int?, message: Range<Int>, decoded: [UInt8]?) -> ParsedLine {
        ParsedLine(kind: .enveloped, event: e, process: process, pid: pid, message: message, decoded: decoded)
    }

    static func bare(_ e: consuming Event) -> ParsedLine { ParsedLine(kind: .bare, event: e) }

    /// Becomes `.enveloped(e, …)` or `.bare(e)` (`kind`; evidence and frames through `becomeEvidence` and `becomeFrame`),
    /// in place: what assigning the new line would give, without destroying the old one whole where most of its fields
    /// are already what they must be (a line's rare fields are nil: checking each costs less than releasing it). A test
    /// compares every field with the line made anew (`LineReadTests`).
    @inline(__always)
    mutating func becomeEvent(_ kind: Kind, _ e: consuming Event, process: String? = nil, pid: Int? = nil, message: Range<Int> = 0..<0,
                              decoded: [UInt8]? = nil) {
        self.kind = kind
        event = e
        if process != nil || self.process != nil { self.process = process }
        self.pid = pid
        self.message = message
        if decoded != nil || self.decoded != nil { self.decoded = decoded }
        phase = .none
        if value != nil { value = nil }
        shape = 0
        if template != nil { template = nil }
        title = 0
        redacted = false
        if observed != nil { observed = nil }
        if runner != nil { runner = nil }
        if evidence != nil { evidence = nil }
        frame = nil
    }

    static func evidence(_ e: AndroidEvidence, process: String?, pid: Int?, time: LogTime?) -> ParsedLine {
        var parsed = ParsedLine.none
        parsed.becomeEvidence(e, process: process, pid: pid, time: time)
        return parsed
    }

    /// Becomes `.evidence(e, …)` in place (`becomeEvent`).
    mutating func becomeEvidence(_ e: consuming AndroidEvidence, process: String?, pid: Int?, time: LogTime?) {
        // (The placeholder's time set in place: one made in a variable was copied in, then destroyed.)
        becomeEvent(.evidence, Self.placeholder(.logcat), process: process, pid: pid)
        event.time = time
        evidence = e
    }

    /// Becomes `.none` with a stack frame (`frame`) in place (`becomeEvent`): a logcat capture's noise has many.
    mutating func becomeFrame(_ r: Range<Int32>) {
        becomeEvent(.none, Self.placeholder())
        frame = r
    }

    static func unread(message: Range<Int>, decoded: [UInt8]?) -> ParsedLine {
        ParsedLine(kind: .unread, event: placeholder(), message: message, decoded: decoded)
    }

    /// What the message parser noted besides the event.
    @inline(__always)
    mutating func take(_ note: MessageParser.Note) {
        guard note.phase != .none || note.shape != 0 || note.title != 0 || note.redacted else { return }
        phase = note.phase
        value = note.value
        shape = note.shape
        template = note.template
        title = note.title
        redacted = note.redacted
    }
}

/// The context-free half of turning a line into an event: envelope, message grammars, timestamp.
/// One per thread (it owns PCRE2 match data and caches); the same line gives the same result in
/// any instance.
final class LineParser {
    let parser: MessageParser
    @exclusivity(unchecked) private var minuteCache = TimestampParser.MinuteCache()
    @exclusivity(unchecked) private var envelopeCache = EnvelopeParser.NSLogCache()
    /// The envelope of the line read last (`EnvelopeParser.read`).
    @exclusivity(unchecked) private var info = EnvelopeInfo(format: .bare, message: 0..<0)
    /// The last process name built, reused while lines come from the same process.
    @exclusivity(unchecked) private var internedName = ""
    @exclusivity(unchecked) private var internedBytes: [UInt8] = []
    /// Logcat's class names (`LogcatStatement.read(_:tag:names:)`), and the messages that said nothing.
    @exclusivity(unchecked) private var names = NameCache()
    @exclusivity(unchecked) private var noise = LogcatNoise()

    init(customDialects: [CustomDialect]) {
        parser = MessageParser(custom: customDialects)
    }

    /// A line the candidate search let through; `format` is its envelope (`EnvelopeParser.classify`)
    /// and `afterEnvelope` whether an enveloped line came before it.
    func parse(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat?, afterEnvelope: Bool) -> ParsedLine {
        var line = ParsedLine.none
        return read(p, n, format: format, afterEnvelope: afterEnvelope, into: &line) ? line : skippedLine
    }

    /// Whether the last line `read` passed over mentions a callback (`ParsedLine.unread`), and where its message is.
    @exclusivity(unchecked) private(set) var skippedUnread = false
    @exclusivity(unchecked) private var skippedMessage = 0..<0
    @exclusivity(unchecked) private var skippedDecoded: [UInt8]? = nil

    /// What `parse` gives for the last line `read` passed over.
    var skippedLine: ParsedLine { skippedUnread ? .unread(message: skippedMessage, decoded: skippedDecoded) : .none }

    /// A line that mentions a callback without being an event: `read` passes it over, `skippedUnread` set.
    @inline(__always)
    private func unread(message: Range<Int>, decoded: [UInt8]?) -> Bool {
        skippedUnread = true
        skippedMessage = message
        if decoded != nil || skippedDecoded != nil { skippedDecoded = decoded }
        return false
    }

    /// `parse` into the caller's line (`out`, changed only when the result is true), passing over with false a line that
    /// is no event and carries nothing else but whether it mentions a callback (`ParsedLine.none` without a frame, and
    /// `ParsedLine.unread`: `skippedUnread` tells them apart): most candidate lines that are not events. The stage skips
    /// those without making, moving and destroying a `ParsedLine` for each, and reads the others into one it keeps (no
    /// optional to wrap and unwrap them in: a parsed line is 341 bytes).
    func read(_ p: UnsafePointer<UInt8>, _ n: Int, format: EnvelopeFormat?, afterEnvelope: Bool, into out: inout ParsedLine) -> Bool {
        skippedUnread = false
        // Android's logcat: its own envelopes and statements (`LogcatEnvelope`, `LogcatStatement`).
        if format == .logcat { return logcat(p, n, into: &out) }
        if let format, format != .bare, EnvelopeParser.read(p, n, format: format, cache: &envelopeCache, into: &info) {
            return enveloped(p, n, into: &out)
        }
        // No envelope: a continuation of the previous message (indented, as NSLog prints a
        // dictionary) is part of that message; an unindented complete statement after enveloped
        // lines is a `print` mixed into the console and belongs to the same process.
        if let evidence = AndroidEvidence.unenveloped(UnsafeBufferPointer(start: p, count: n)) {
            out.becomeEvidence(evidence, process: nil, pid: nil, time: AndroidEvidence.clockTime(UnsafeBufferPointer(start: p, count: n)))
            return true
        }
        if n > 0, p[0] == .space || p[0] == .tab {
            // androidx's view-misuse exception, in Android Studio's multi-line copy of a crash (`logcatContinuation`).
            if let e = LogcatStatement.continuation(UnsafeBufferPointer(start: p, count: n)) { out = .bare(e); return true }
            if afterEnvelope { return logcatContinuation(p, n, into: &out) }
        } else if afterEnvelope, let e = LogcatStatement.continuation(UnsafeBufferPointer(start: p, count: n)) {
            // The same exception under a `long` header: logcat prints a crash's lines there unindented.
            out = .bare(e)
            return true
        }
        if let r = TestRunnerLine.read(UnsafeBufferPointer(start: p, count: n)) {
            out = ParsedLine(kind: .runner, event: ParsedLine.placeholder(), runner: r)
            return true
        }
        guard let e = parser.parse(UnsafeBufferPointer(start: p, count: n)) else {
            return parser.note.unread ? unread(message: 0..<n, decoded: nil) : false
        }
        out.becomeEvent(.bare, e)
        if parser.noted { out.take(parser.note) }
        return true
    }

    /// A line with an envelope (any format but logcat's; `info`, read in place): a test runner's line, an event, or false
    /// (`read`).
    @inline(__always)
    private func enveloped(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout ParsedLine) -> Bool {
        if info.isMetadata { return false }
        // (A runner's line is read only where one may begin: most messages are not one.)
        if let d = info.decodedMessage {
            if let r = d.withUnsafeBufferPointer({ TestRunnerLine.read($0) }) {
                out = ParsedLine(kind: .runner, event: ParsedLine.placeholder(), runner: r)
                return true
            }
        } else if let r = TestRunnerLine.read(UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count)) {
            out = ParsedLine(kind: .runner, event: ParsedLine.placeholder(), runner: r)
            return true
        }
        // The event is bound straight from the parser's result: no copy of it, nor of its strings.
        guard var e = info.decoded == nil
                ? parser.parse(UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count))
                : info.decoded!.message.withUnsafeBufferPointer({ parser.parse($0) }) else {
            return parser.note.unread ? unread(message: info.message, decoded: info.decodedMessage) : false
        }
        e.time = info.time ?? EnvelopeParser.time(p, n, format: info.format, cache: &minuteCache)
        e.thread = info.thread
        if info.process == nil, info.decodedProcess == nil, info.pid == nil {
            // A timestamp and no process (`2017-02-11 17:25:16.964 viewDidLoad`): the line keeps
            // its time and belongs to the context process, as a `print` line does.
            out.becomeEvent(.bare, consume e)
        } else {
            out.becomeEvent(.enveloped, consume e,
                            process: processName(info.process, decoded: info.decoded, pid: info.pid, format: info.format, p),
                            pid: info.pid, message: info.message, decoded: info.decodedMessage)
        }
        if parser.noted { out.take(parser.note) }
        return true
    }

    /// A logcat line: its statement, in the session of its pid (and process, where the format names it); a format
    /// without a pid (`tag`) gives its lines to the context session, as `bare` lines are.
    private func logcat(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout ParsedLine) -> Bool {
        guard let info = LogcatEnvelope.fields(p, n) else { return logcatContinuation(p, n, into: &out) }
        let message = UnsafeBufferPointer(start: p + info.message.lowerBound, count: info.message.count)
        let tag = info.tag.map { UnsafeBufferPointer(start: p + $0.lowerBound, count: $0.count) }
        let process = { info.process.map { String(decoding: UnsafeBufferPointer(start: p + $0.lowerBound, count: $0.count), as: UTF8.self) } ?? "" }
        // A message that said nothing before says nothing again (`LogcatNoise`).
        let key = parser.hasCustom ? 0 : LogcatNoise.key(message, tag: tag)
        switch noise.lookup(key) {
        case .noise?: return false
        case .mention?: return unread(message: info.message, decoded: nil)
        case .frame?:
            out.becomeFrame(Int32(info.message.lowerBound)..<Int32(info.message.upperBound))
            return true
        case nil: break
        }
        if let evidence = AndroidEvidence.read(message, tag: tag) {
            out.becomeEvidence(evidence, process: info.pid == nil ? nil : process(), pid: info.pid,
                               time: LogcatEnvelope.time(p, n, cache: &minuteCache))
            return true
        }
        if let tag, tag.count == 10, AndroidEvidence.startsWith(tag, "TestRunner") {
            guard let r = TestRunnerLine.androidx(message) else { return false }
            out = ParsedLine(kind: .runner, event: ParsedLine.placeholder(), runner: r)
            return true
        }
        // Android's statements, else the user's dialects (`vclint inspect` suggests them for a logcat capture too).
        guard var e = LogcatStatement.read(message, tag: tag, names: &names) ?? parser.customOnly(message) else {
            if LogcatStatement.mentionsCallback(message) {
                noise.insert(key, .mention)
                return unread(message: info.message, decoded: nil)
            }
            // A crash's frame with an envelope of its own (`threadtime`, `long`): its class may name the fragment of
            // androidx's view-misuse exception above it, as in Android Studio's copy.
            guard LogcatStatement.isFrame(message) else {
                noise.insert(key, .noise)
                return false
            }
            out.becomeFrame(Int32(info.message.lowerBound)..<Int32(info.message.upperBound))
            noise.insert(key, .frame)
            return true
        }
        e.time = LogcatEnvelope.time(p, n, cache: &minuteCache)
        guard let pid = info.pid else { out.becomeEvent(.bare, consume e); return true }
        out.becomeEvent(.enveloped, consume e, process: process(), pid: pid, message: info.message)
        return true
    }

    /// A line under a logcat line without an envelope of its own (a crash's lines as Android Studio copies them):
    /// androidx's view-misuse exception, or an app's stack frame that names its fragment.
    private func logcatContinuation(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout ParsedLine) -> Bool {
        let line = UnsafeBufferPointer(start: p, count: n)
        if let e = LogcatStatement.continuation(line) { out = .bare(e); return true }
        guard LogcatStatement.isFrame(line) else { return false }
        out.becomeFrame(0..<Int32(n))
        return true
    }

    /// An NSLog envelope with a pid and no process name (`[7397:f803] message`).
    static func isNameless(_ info: EnvelopeInfo) -> Bool {
        info.process == nil && info.decodedProcess == nil && info.pid != nil && info.format != .ndjson
    }

    func time(_ p: UnsafePointer<UInt8>, _ n: Int, info: EnvelopeInfo) -> LogTime? {
        EnvelopeParser.time(p, n, info: info, cache: &minuteCache)
    }

    func processName(_ info: EnvelopeInfo, _ p: UnsafePointer<UInt8>) -> String? {
        processName(info.process, decoded: info.decoded, pid: info.pid, format: info.format, p)
    }

    /// `processName(_:_:)` from the envelope's fields (the per-line reading passes these, not its envelope: a copy).
    @inline(__always)
    private func processName(_ process: Range<Int>?, decoded: EnvelopeInfo.Decoded?, pid: Int?, format: EnvelopeFormat,
                             _ p: UnsafePointer<UInt8>) -> String? {
        if let d = decoded?.process { return d }
        // `[7397:f803] message`: NSLog's pid and thread without a name; the pid tells the runs apart.
        guard let r = process else { return decoded == nil && pid != nil && format != .ndjson ? "" : nil }
        let bytes = UnsafeBufferPointer(start: p + r.lowerBound, count: r.count)
        if bytes.count == internedBytes.count, bytes.count > 0,
           internedBytes.withUnsafeBufferPointer({ bytesEqual($0.baseAddress!, bytes.baseAddress!, bytes.count) }) {
            return internedName
        }
        internedBytes = Array(bytes)
        internedName = String(decoding: bytes, as: UTF8.self)
        return internedName
    }
}
