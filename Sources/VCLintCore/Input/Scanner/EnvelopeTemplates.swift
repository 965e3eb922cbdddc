#if arch(x86_64)
import CVectorScan

/// The shape of a line's first bytes that decides its envelope (`EnvelopeParser.classifyTimestamped`):
/// the line that taught it had format `format`; a line whose first `extent` bytes have digits where
/// it had digits and the same bytes elsewhere (and the same byte at `zeroColumn`, where a `0` means
/// a thread id) has the same format without being classified again. Lines of one capture share a
/// shape, so most lines cost a few vector compares. A logcat line's shape (`EnvelopeParser.logcatShape`)
/// is its time, its pid and tid (or `pid-tid/package`) and its level letter: it decides the format
/// only, with no run key (logcat's sessions are the pids' own, `SessionAndroid`).
struct EnvelopeTemplate {
    static let width = Int(VCLINT_SHAPE_WIDTH)
    let format: EnvelopeFormat
    var extent: Int { shape.extent }
    /// Per byte of the line's head: how far above `base` each byte may be (`limit`, an unsigned
    /// saturating difference): 0 where the byte must be the template's (or, at the thread column, its
    /// exact digit), 9 where any digit will do (base `0`), 0xDE where any byte but a space or a
    /// control byte will do (base `!`), 255 past the extent. A chunk of 16 bytes (32 with AVX2) matches
    /// when no byte goes over its limit: two vector operations per chunk, and one test of all the chunks
    /// (`vclint_shape_matches`). Read by the tests, which check the kernels against this definition.
    private(set) var shape = vclint_shape()
    /// Whether the extent covers the line's process and pid (`RunKey`) byte for byte: a line of
    /// this shape is then of the same run of one process as the line that taught it.
    let keyed: Bool

    /// The template of a line, if its format is decided by a short shape (not syslog, whose day and
    /// hour values matter).
    init?(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n > 0 else { return nil }
        var extent = 1
        var column = -1
        var keyed = false
        /// logcat: the level letter's column (any of seven letters), else -1.
        var level = -1
        /// `oslog`: where the key starts; before it, from the thread column's `0x` on, the columns
        /// that vary from line to line match any word of the same length.
        var words = -1
        let format: EnvelopeFormat
        if p[0] == .openBrace {
            // `{"`: the shape of a JSON object's line (an NSLog `{(` description is not one).
            guard n > 1, p[1] == .quote else { return nil }
            format = .ndjson
            extent = 2
        } else if let shape = EnvelopeParser.logcatShape(p, n) {
            format = .logcat
            extent = shape.end
            level = shape.level
        } else if let t = EnvelopeParser.classifyTimestamped(p, n), t.format != .logcat {
            // A process name that starts with a digit (or a time-only line whose message does) has
            // no shape of its own: `6937-6937/com.app D/Tag:` after the same timestamp is logcat.
            // Such lines are classified one by one.
            if t.format != .oslog, t.column < n, ByteCursor.isDigit(p[t.column]) { return nil }
            format = t.format
            column = t.column
            extent = t.column + 4
            // The process and pid too, exactly: the scanner then knows without parsing that a line
            // of this shape continues the run of the line before (`RunKey`). A line whose key does
            // not fit gets no shape; nor does a line without one (garbage where the pid is, a time
            // without a process): a shorter shape would take in the next lines of any process.
            guard let key = RunKey.span(p, n, format: t.format), key.upperBound <= Self.width else { return nil }
            extent = max(extent, key.upperBound)
            keyed = true
            if t.format == .oslog { words = key.lowerBound }
        } else {
            return nil
        }
        guard extent <= min(n, Self.width) else { return nil }
        self.format = format
        var base = [UInt8](repeating: 0, count: Self.width)
        var limit = [UInt8](repeating: 0xFF, count: Self.width)
        self.keyed = keyed
        for i in 0..<extent {
            if i > column + 1, i < words, p[i] != .space {
                // The thread, type and activity columns (`RunKey` reads only where their spaces are).
                base[i] = UInt8.bang
                limit[i] = 0xDE
                continue
            }
            // Digits of the time vary; from the column on (the thread column's first byte, the
            // process and its pid) the bytes are the template's own.
            let anyDigit = ByteCursor.isDigit(p[i]) && (column < 0 || i < column || (!keyed && i != column))
            base[i] = anyDigit ? UInt8(ascii: "0") : p[i]
            limit[i] = anyDigit ? 9 : 0
        }
        if level >= 0 {
            // Any byte but a space or a control byte here; `vclint_shape_matches` then takes a level letter only.
            base[level] = UInt8.bang
            limit[level] = 0xDE
        }
        withUnsafeMutableBytes(of: &shape.base) { $0.copyBytes(from: base) }
        withUnsafeMutableBytes(of: &shape.limit) { $0.copyBytes(from: limit) }
        shape.extent = extent
        shape.chunks = (extent + 15) / 16
        shape.level = level
    }

    /// Whether the line at `p` (length `n`; `width` bytes readable) has this template's shape.
    func matches(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        withUnsafePointer(to: self) { Self.matches($0, p, n) }
    }

    /// `matches` of the template at `template`, read in place (it is too large to copy per line).
    @inline(__always)
    static func matches(_ template: UnsafePointer<EnvelopeTemplate>, _ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        vclint_shape_matches(shape(template), p, n)
    }

    @inline(__always)
    private static func shape(_ template: UnsafePointer<EnvelopeTemplate>) -> UnsafePointer<vclint_shape> {
        (UnsafeRawPointer(template) + MemoryLayout<EnvelopeTemplate>.offset(of: \.shape)!).assumingMemoryBound(to: vclint_shape.self)
    }

    /// The scanner's hot loop: from line `from` (its start `lineStart`; `ends` are window-relative
    /// positions of the line breaks), the lines that have the shape of the template at `template`,
    /// start before `sampleAt` and end at or before `hit` (the next literal's position). Returns the
    /// first line that does not, with `lineStart` moved to it (`vclint_shape_run`, or its AVX2 twin where `avx2`).
    @inline(__always)
    static func run(_ template: UnsafePointer<EnvelopeTemplate>, _ buffer: UnsafePointer<UInt8>, ends: UnsafePointer<Int32>,
                    from: Int, to: Int, window: Int, lineStart: inout Int, hit: Int, sampleAt: Int, avx2: Bool) -> Int {
        avx2 ? vclint_shape_run_avx2(shape(template), buffer, ends, from, to, window, &lineStart, hit, sampleAt)
             : vclint_shape_run(shape(template), buffer, ends, from, to, window, &lineStart, hit, sampleAt)
    }
}

/// The templates of the latest envelopes, most recent first (a capture mixes few envelopes): the
/// most recent one (`latest`) is read in place, too large to copy per line.
struct RecentTemplates {
    static var capacity: Int { 4 }
    private let storage: UnsafeMutablePointer<EnvelopeTemplate> = .allocate(capacity: Self.capacity)
    private(set) var count = 0

    func deallocate() {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// The most recent template (when `count` > 0).
    var latest: UnsafePointer<EnvelopeTemplate> { UnsafePointer(storage) }

    /// The index of the first template the line at `p` (length `n`) has, which becomes the most
    /// recent one; nil when it has none.
    @inline(__always)
    mutating func find(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        for t in 0..<count where EnvelopeTemplate.matches(storage + t, p, n) {
            if t > 0 { swap(&storage[0], &storage[t]) }
            return t
        }
        return nil
    }

    /// A new most recent template; the oldest drops out.
    mutating func add(_ template: EnvelopeTemplate) {
        if count == Self.capacity {
            count -= 1
            (storage + count).deinitialize(count: 1)
        }
        if count > 0 { (storage + 1).moveInitialize(from: storage, count: count) }
        storage.initialize(to: template)
        count += 1
    }
}

extension LogScanner {
    /// Whether a noise line with the latest template's shape needs nothing but counting (no custom
    /// dialect to search, and either the context process known and the shape covering the line's run
    /// key, or a logcat shape: logcat has no run key, and its lines teach no context for `print` lines).
    @inline(__always)
    func fastTemplate() -> Bool {
        customFinder == nil && countsNoise() && (templates.latest.pointee.keyed || templates.latest.pointee.format == .logcat)
    }

    /// Whether a noise line with the latest template's shape is only counted (`fastTemplate`, or an
    /// ndjson shape, whose lines' run key is looked up per line).
    @inline(__always)
    func countsNoise() -> Bool {
        templates.count > 0 && frameWindow == 0 && (contextKnown || templates.latest.pointee.format == .logcat)
    }

    /// `EnvelopeParser.locate`, answered by a recent line's shape when the line has it; `shaped`: whether the line has
    /// the latest template's shape then, where it may be keyed (the shape found is made the latest), so that the caller
    /// need not compare again.
    func templatedFormat(_ p: UnsafePointer<UInt8>, _ n: Int) -> (format: EnvelopeFormat?, skip: Int, shaped: Bool) {
        // Templates start with a digit or `{` (a logcat shape without a time, at a level letter, is never keyed):
        // continuation lines (`    state = …;`, `}`) skip them, and have no keyed one.
        guard n > 0, ByteCursor.isDigit(p[0]) || p[0] == .openBrace else {
            let (format, skip) = EnvelopeParser.locate(p, n)
            return (format, skip, false)
        }
        if let t = templates.find(p, n) {
            if t > 0 { run.isTemplate = false }
            return (templates.latest.pointee.format, 0, true)
        }
        let format = EnvelopeParser.classify(p, n)
        if format != nil, let template = EnvelopeTemplate(p, n) {
            templates.add(template)
            run.isTemplate = false
            // (A line has the shape it taught, where its bytes fit the shape's width.)
            return (format, 0, EnvelopeTemplate.matches(templates.latest, p, n))
        }
        // No recent shape is the line's (`find` compared them all).
        return (format, 0, false)
    }
}
#endif
