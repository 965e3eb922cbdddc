/// The observations of one input, held as bytes: 661k findings must fit in a few tens of MiB. An
/// `Observation` value is a few hundred bytes wide and its controller's label is a String of its
/// own; here one costs its encoding (tens of bytes: varints, the time once, class names by index)
/// and an offset. Reading an element decodes it, so rules and reports see ordinary values.
///
/// An encoding is: the fact's tag (its rule's `factTag`), the kind of the transition
/// it is about (one byte, set in place once the timeline names it), its requirement on the
/// instrumentation, the fact's own fields (`Fact.write`), then what every observation has:
/// controller, line and time.
public struct ObservationList: RandomAccessCollection, Sendable {
    /// The encodings, one after the other, in chunks of `chunkCapacity` bytes (one big array would,
    /// as it grows, hold its old and new buffers at once: twice the memory at the worst moment); an
    /// encoding never spans two.
    private var chunks: [[UInt8]] = []
    /// Where each observation's encoding starts: its chunk (above bit 40) and offset in it.
    private var starts = ChunkedArray<Int>()
    /// The encoding being written (reused).
    private var scratch: [UInt8] = []
    /// The bytes of every chunk.
    private var heldBytes = 0
    static let chunkCapacity = 1 << 18
    /// Class names (and other repeated names), by first use.
    private var names = NameTable()
    /// The dates of the times (with their precision and offset), by first use: a capture spans few.
    private var dates = DateTable()

    public init() {}

    public init<S: Sequence>(_ observations: S) where S.Element == Observation {
        for o in observations { append(o) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts.count }

    public subscript(i: Int) -> Observation {
        var r = reader(at: i)
        return r.observation()
    }

    /// Observation `i`, whose fact is an `F`, and its fact as an `F` (no dynamic cast).
    func observation<F: Fact>(_ i: Int, as: F.Type) -> (Observation, F) {
        var r = reader(at: i)
        return r.observation(as: F.self)
    }

    /// The tag of observation `i` (its rule's `factTag`), without decoding it.
    func tag(at i: Int) -> Int { Int(chunks[starts[i] >> 40][starts[i] & (1 << 40 - 1)]) }

    private func reader(at i: Int) -> ObservationReader {
        ObservationReader(bytes: chunks[starts[i] >> 40], at: starts[i] & (1 << 40 - 1), names: names, dates: dates)
    }

    public mutating func append(_ o: Observation) {
        appendEncoding(encode(o)[...])
    }

    /// What `names` holds while a writer has the table (so that the writer's is the only reference and its
    /// appends do not copy): one shared empty table, where a new one would make its arena's endings each time.
    private static let placeholderNames = NameTable()

    /// `o`'s encoding, in `scratch`.
    private mutating func encode(_ o: Observation) -> [UInt8] {
        // The writer holds the only references: its appends do not copy.
        scratch.removeAll(keepingCapacity: true)
        var w = ObservationWriter(bytes: scratch, names: names, dates: dates)
        scratch = []
        names = Self.placeholderNames
        dates = DateTable()
        w.observation(o)
        scratch = w.bytes
        names = w.nameTable
        dates = w.dateTable
        return scratch
    }

    /// Adds one observation's encoding, in the last chunk if it fits there.
    private mutating func appendEncoding(_ encoding: ArraySlice<UInt8>) {
        if chunks.isEmpty || chunks[chunks.count - 1].count + encoding.count > Self.chunkCapacity {
            // As large as what is held already (a small list stays small), up to `chunkCapacity`.
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Swift.max(Swift.min(Self.chunkCapacity, Swift.max(256, heldBytes)), encoding.count))
            chunks.append(chunk)
        }
        let c = chunks.count - 1
        starts.append(c << 40 | chunks[c].count)
        chunks[c].append(contentsOf: encoding)
        heldBytes += encoding.count
    }

    /// The fact of observation `i`, which is an `F`, without the rest of it.
    func fact<F: Fact>(at i: Int, as: F.Type) -> F {
        var r = reader(at: i)
        return r.fact(as: F.self)
    }

    /// Where observation `i`'s fact ends in its chunk. (A function of its own: the reader, which
    /// holds the chunk, is gone before the caller writes into it, which would otherwise copy the
    /// whole chunk at every write.)
    private func factEnd<F: Fact>(at i: Int, as: F.Type) -> Int {
        var r = reader(at: i)
        _ = r.fact(as: F.self)
        return r.at
    }

    /// Completes observation `i` in place, once what it waited for is known: its fact becomes
    /// `fact`, whose encoding must have the old one's length (fixed-width fields), and its
    /// requirement none or its controller's own dealloc (one byte either way). A leak decided
    /// before its session ended learns this way how long the session went on, and whether its
    /// class's dealloc must be logged for it to count.
    mutating func complete<F: Fact>(at i: Int, fact: F, requiresOwnDealloc: Bool) {
        let oldEnd = factEnd(at: i, as: F.self)
        let c = starts[i] >> 40, start = starts[i] & (1 << 40 - 1)
        let factStart = start + 3
        // The new fact alone, as `encode` would write it: the first times of an observation.
        scratch.removeAll(keepingCapacity: true)
        var w = ObservationWriter(bytes: scratch, names: names, dates: dates)
        scratch = []
        names = Self.placeholderNames
        dates = DateTable()
        fact.write(to: &w)
        scratch = w.bytes
        names = w.nameTable
        dates = w.dateTable
        precondition(factStart + scratch.count == oldEnd, "a completed fact must keep its encoding's length")
        let written = chunks[c][start + 2]
        precondition(written == 0 || written == 3 || written == 4, "only a requirement of one byte can be completed")
        // An object's requirement (4) stays: whatever the dialect, its own class must log dealloc.
        let requirement: UInt8 = written == 4 ? 4 : requiresOwnDealloc ? 3 : 0
        let encoding = scratch
        chunks[c].withUnsafeMutableBufferPointer { chunk in
            chunk[start + 2] = requirement
            for k in encoding.indices { chunk[factStart + k] = encoding[k] }
        }
    }

    /// The transition byte of an observation whose transition is not named yet (`setTransitionPending`).
    static let transitionPending: UInt8 = 0xFE

    /// Sets the kind of the transition observation `i` is about (its fixed byte after the tag).
    mutating func setTransition(at i: Int, _ kind: TransitionKind?) {
        setTransitionByte(at: i, kind.map { $0.code + 1 } ?? 0)
    }

    /// Observation `i` is about a transition still open: reported as about none unless it is named.
    mutating func setTransitionPending(at i: Int) { setTransitionByte(at: i, Self.transitionPending) }

    /// Whether observation `i` waits for its transition's kind (live mode holds it until then).
    func transitionIsPending(at i: Int) -> Bool {
        chunks[starts[i] >> 40][(starts[i] & (1 << 40 - 1)) + 1] == Self.transitionPending
    }

    private mutating func setTransitionByte(at i: Int, _ b: UInt8) {
        let c = starts[i] >> 40, start = starts[i] & (1 << 40 - 1)
        chunks[c][start + 1] = b
    }

    /// The tag of a withdrawn observation (`withdraw`): no rule has it.
    static let withdrawnTag: UInt8 = 0xFF

    /// Withdraws observation `i`, made before what it waited for turned out otherwise (an evicted
    /// controller's leak, when the controller is heard from again): `filter` leaves it out, and
    /// nothing else reads it.
    mutating func withdraw(at i: Int) {
        let c = starts[i] >> 40, start = starts[i] & (1 << 40 - 1)
        chunks[c][start] = Self.withdrawnTag
    }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == Observation {
        for o in s { append(o) }
    }

    /// The observations that pass, in order, without decoding twice the ones kept.
    public func filter(_ keep: (Observation) throws -> Bool) rethrows -> ObservationList {
        try filter { _, o in try keep(o) }
    }

    /// The observations that pass, given with their tag (their rule's `factTag`).
    func filter(_ keep: (_ tag: Int, Observation) throws -> Bool) rethrows -> ObservationList {
        var out = ObservationList()
        out.names = names
        out.dates = dates
        for i in indices where tag(at: i) != Int(Self.withdrawnTag) {
            guard try keep(tag(at: i), self[i]) else { continue }
            let c = starts[i] >> 40, at = starts[i] & (1 << 40 - 1)
            let next = i + 1 < starts.count && starts[i + 1] >> 40 == c ? starts[i + 1] & (1 << 40 - 1) : chunks[c].count
            out.appendEncoding(chunks[c][at..<next])
        }
        return out
    }

    /// Keeps the observations that pass, in order, in place: each kept encoding moves back into
    /// the room the dropped ones left (never past where it is read from), and the chunks left
    /// empty are released. `filter` holds the old list and the new at once: for 300k leaks, tens
    /// of MiB more at the end of the input (docs/performance.md#memory).
    mutating func retain(_ keep: (_ tag: Int, Observation) throws -> Bool) rethrows {
        var kept = 0
        var wc = 0, wo = 0  // where the next kept encoding goes: its chunk and offset
        for i in indices {
            let t = tag(at: i)
            guard t != Int(Self.withdrawnTag), try keep(t, self[i]) else { continue }
            let c = starts[i] >> 40, at = starts[i] & (1 << 40 - 1)
            let end = i + 1 < starts.count && starts[i + 1] >> 40 == c ? starts[i + 1] & (1 << 40 - 1) : chunks[c].count
            let length = end - at
            // An earlier chunk takes it if it fits in what that chunk held; the read chunk always does.
            while wc < c, wo + length > chunks[wc].count {
                chunks[wc].removeLast(chunks[wc].count - wo)  // read already: it ends where it was written
                wc += 1
                wo = 0
            }
            if wc != c || wo != at {
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: chunks[c][at..<end])
                let bytes = scratch
                chunks[wc].withUnsafeMutableBufferPointer { chunk in
                    for k in 0..<length { chunk[wo + k] = bytes[k] }
                }
            }
            starts[kept] = wc << 40 | wo
            kept += 1
            wo += length
        }
        starts.removeLast(starts.count - kept)
        // Every chunk after the last one written goes; that one ends where its last encoding does.
        if kept == 0 {
            chunks = []
            heldBytes = 0
        } else {
            chunks.removeLast(chunks.count - wc - 1)
            chunks[wc].removeLast(chunks[wc].count - wo)
            heldBytes = chunks.reduce(0) { $0 + $1.count }
        }
        scratch = []
    }

    /// The bytes held (`Benchmarks/memory.sh` checks the per-finding cost).
    var byteCount: Int { heldBytes + starts.count * MemoryLayout<Int>.stride + names.byteCount + dates.byteCount }
}

/// A time's date, precision and offset: what the times of one capture mostly share.
struct DateKey: Hashable, Sendable {
    var year: Int16
    var month: UInt8, day: UInt8, digits: UInt8
    var offset: Int16?
    init(_ t: LogTime) {
        year = t.year
        month = t.month
        day = t.day
        digits = t.fractionDigits
        offset = t.offsetMinutes
    }
}

/// Dates by index (`ObservationList`'s times).
struct DateTable: Sendable {
    private(set) var dates: [DateKey] = []
    private var index: [DateKey: Int] = [:]

    mutating func id(_ d: DateKey) -> Int {
        id(d, limit: Int.max)!
    }

    /// The date's index; nil when it is new and the table already holds `limit` dates.
    mutating func id(_ d: DateKey, limit: Int) -> Int? {
        if let k = index[d] { return k }
        guard dates.count < limit else { return nil }
        dates.append(d)
        index[d] = dates.count - 1
        return dates.count - 1
    }

    var byteCount: Int { dates.count * (MemoryLayout<DateKey>.stride * 2 + 16) }
}

/// Names by index: a capture names few classes, each many times.
struct NameTable: Sendable {
    /// Each name once, as its bytes (`StringArena`): a capture with 400k classes keeps 400k names.
    private var arena = StringArena(endings: StringArena.classNameEndings)

    mutating func id(_ s: String) -> Int {
        guard let id = arena.intern(s) else { preconditionFailure("NameTable: more than 4 GiB of class names") }
        return id
    }

    subscript(id: Int) -> String { arena[id] }

    var byteCount: Int { arena.byteCount }
}

// MARK: - Encoding

/// Writes an observation's fields (`Fact.write`): varints, class names by index, times by
/// date index with the two latest of the observation written again as one byte.
struct ObservationWriter {
    var bytes: [UInt8]
    var nameTable: NameTable
    var dateTable: DateTable
    /// The two times written last in this observation, latest first: most refs of one share
    /// one of them (a leak's removal and will-callback, say), written again as one byte.
    private var lastTime: LogTime?
    private var priorTime: LogTime?

    init(bytes: [UInt8], names: NameTable, dates: DateTable) {
        self.bytes = bytes
        nameTable = names
        dateTable = dates
    }

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func uint(_ v: UInt64) { VarintWriter.append(v, to: &bytes) }

    mutating func int(_ v: Int) { uint(VarintWriter.zigzag(v)) }

    mutating func double(_ d: Double) {
        var bits = d.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

    mutating func optionalInt(_ v: Int?) {
        if let v { byte(1); int(v) } else { byte(0) }
    }

    mutating func string(_ s: String) {
        uint(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    /// A name that repeats across observations (a class): written once per list, then by index.
    mutating func name(_ s: String) { uint(UInt64(nameTable.id(s))) }

    mutating func names(_ list: [String]) {
        uint(UInt64(list.count))
        for n in list { name(n) }
    }

    mutating func optionalString(_ s: String?) {
        if let s { byte(1); string(s) } else { byte(0) }
    }

    /// Fixed width (nine bytes) whether nil or not, so that an observation can be replaced in place
    /// once the value is known (`ObservationList.complete`).
    mutating func optionalDouble(_ d: Double?) {
        byte(d == nil ? 0 : 1)
        double(d ?? 0)
    }

    /// A time: nil (0), the last or the prior one of this observation again (1, 3), or its date
    /// (by `dates`), hour, minute, second and fraction digits, with the seconds written only when
    /// they are not what the fields give (5 without them, 4 with).
    mutating func time(_ t: LogTime?) {
        guard let t else { byte(0); return }
        if let last = lastTime, last.seconds.bitPattern == t.seconds.bitPattern, last.sameFields(t) { byte(1); return }
        if let prior = priorTime, prior.seconds.bitPattern == t.seconds.bitPattern, prior.sameFields(t) {
            byte(3)
            priorTime = lastTime
            lastTime = prior
            return
        }
        let derived = t.fieldSeconds.bitPattern == t.seconds.bitPattern
        byte(derived ? 5 : 4)
        uint(UInt64(dateTable.id(DateKey(t))))
        bytes.append(contentsOf: [t.hour, t.minute, t.second])
        uint(UInt64(t.fraction))
        if !derived { double(t.seconds) }
        priorTime = lastTime
        lastTime = t
    }

    mutating func kind(_ k: EventKind) { byte(UInt8(k.bit.trailingZeroBitCount)) }

    mutating func ref(_ r: EventRef) {
        int(r.line)
        kind(r.kind)
        time(r.time)
    }

    mutating func optionalRef(_ r: EventRef?) {
        if let r { byte(1); ref(r) } else { byte(0) }
    }

    mutating func reason(_ r: IncompleteReason) {
        switch r {
        case .deallocated(let e): byte(0); ref(e)
        case .sessionEnded: byte(1)
        case .superseded(let e): byte(2); ref(e)
        case .contradicted(let e): byte(3); ref(e)
        }
    }

    mutating func appearance(_ a: Appearance) { byte(a.code) }

    mutating func controller(_ c: ControllerRef) {
        name(c.className)
        if let a = c.address { byte(1); uint(a) } else { byte(0) }
        // `Class#3` (a timeline label) or the class name itself: the number only.
        if c.instance == c.className {
            byte(1)
        } else if let n = ControllerRef.generation(of: c.instance, className: c.className) {
            byte(2); uint(UInt64(n))
        } else {
            byte(0); string(c.instance)
        }
    }

    mutating func controllers(_ list: [ControllerRef]) {
        uint(UInt64(list.count))
        for c in list { controller(c) }
    }

    mutating func removal(_ r: Removal) {
        byte(r.kind.code)
        ref(r.evidence)
        optionalString(r.takenAlongBy)
        ref(r.anchor)
    }

    /// The whole observation: its fact's tag, its requirement, the fact's fields, then controller,
    /// line, time.
    mutating func observation(_ o: Observation) {
        lastTime = nil
        priorTime = nil
        byte(UInt8(RuleRegistry.tag(of: o.fact)))
        byte(o.transition.map { $0.code + 1 } ?? 0)
        requirement(o.requires, of: o.controller)
        o.fact.write(to: &self)
        controller(o.controller)
        int(o.line)
        time(o.time)
    }

    /// None (0), another class's (1: name, kinds), the controller's own class (2: kinds), or the
    /// controller's own dealloc (3), the instrumentation a leak needs: one byte, like none.
    private mutating func requirement(_ r: Requirement?, of c: ControllerRef) {
        guard let r else { byte(0); return }
        if r.object, r.className == c.className { byte(4); return }
        var bits: UInt64 = 0
        for k in r.anyOf { bits |= k.bit }
        if r.className != c.className {
            byte(1); name(r.className); uint(UInt64(bits))
        } else if bits == EventKind.dealloc.bit {
            byte(3)
        } else {
            byte(2); uint(UInt64(bits))
        }
    }
}

/// Reads what `ObservationWriter` wrote, in the same order (`Fact.init(reading:)`).
struct ObservationReader {
    let bytes: [UInt8]
    var at: Int
    let nameTable: NameTable
    let dateTable: DateTable
    private var lastTime: LogTime?
    private var priorTime: LogTime?

    init(bytes: [UInt8], at: Int, names: NameTable, dates: DateTable) {
        self.bytes = bytes
        self.at = at
        nameTable = names
        dateTable = dates
    }

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return bytes[at]
    }

    mutating func uint() -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = byte()
            v |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    mutating func int() -> Int {
        let u = uint()
        return Int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))))
    }

    mutating func double() -> Double {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(byte()) << (8 * UInt64(k)) }
        return Double(bitPattern: bits)
    }

    mutating func bool() -> Bool { byte() != 0 }

    mutating func optionalInt() -> Int? { byte() == 0 ? nil : int() }

    mutating func string() -> String {
        let n = Int(uint())
        defer { at += n }
        return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
    }

    mutating func name() -> String { nameTable[Int(uint())] }

    mutating func names() -> [String] { (0..<Int(uint())).map { _ in name() } }

    mutating func optionalString() -> String? { byte() == 0 ? nil : string() }

    mutating func optionalDouble() -> Double? {
        let known = byte() != 0
        let d = double()
        return known ? d : nil
    }

    mutating func time() -> LogTime? {
        switch byte() {
        case 0: return nil
        case 1: return lastTime
        case 3:
            swap(&lastTime, &priorTime)
            return lastTime
        default:
            let derived = bytes[at - 1] == 5
            let d = dateTable.dates[Int(uint())]
            let hour = Int(byte()), minute = Int(byte()), second = Int(byte())
            let fraction = UInt32(uint())
            var t = LogTime(seconds: 0, year: Int(d.year), month: Int(d.month), day: Int(d.day), hour: hour, minute: minute,
                            second: second, fraction: fraction, fractionDigits: Int(d.digits), offsetMinutes: d.offset)
            t.seconds = derived ? t.fieldSeconds : double()
            priorTime = lastTime
            lastTime = t
            return t
        }
    }

    mutating func kind() -> EventKind { EventKind.byBitIndex[Int(byte())] }

    mutating func ref() -> EventRef {
        let line = int()
        let k = kind()
        return EventRef(line: line, time: time(), kind: k)
    }

    mutating func optionalRef() -> EventRef? { byte() == 0 ? nil : ref() }

    mutating func reason() -> IncompleteReason {
        switch byte() {
        case 0: return .deallocated(ref())
        case 1: return .sessionEnded
        case 2: return .superseded(ref())
        default: return .contradicted(ref())
        }
    }

    mutating func appearance() -> Appearance { Appearance(code: byte()) }

    mutating func controller() -> ControllerRef {
        let className = name()
        let address: UInt64? = byte() == 0 ? nil : uint()
        let instance: String
        switch byte() {
        case 1: instance = className
        case 2: instance = "\(className)#\(uint())"
        default: instance = string()
        }
        return ControllerRef(className: className, address: address, instance: instance)
    }

    mutating func controllers() -> [ControllerRef] { (0..<Int(uint())).map { _ in controller() } }

    mutating func removal() -> Removal {
        let kind = RemovalKind(code: byte())
        let evidence = ref()
        let along = optionalString()
        return Removal(kind: kind, evidence: evidence, takenAlongBy: along, anchor: ref())
    }

    mutating func observation() -> Observation {
        let tag = Int(byte())
        let transition = self.transition()
        let requirement = self.requirement()
        let fact = RuleRegistry.readFact(tag: tag, &self)
        return rest(fact, requirement, transition)
    }

    mutating func observation<F: Fact>(as: F.Type) -> (Observation, F) {
        _ = byte()  // the tag: the caller knows it
        let transition = self.transition()
        let requirement = self.requirement()
        let fact = F(reading: &self)
        return (rest(fact, requirement, transition), fact)
    }

    mutating func fact<F: Fact>(as: F.Type) -> F {
        _ = byte()
        _ = byte()
        _ = requirement()
        return F(reading: &self)
    }

    /// The kind of the transition it is about: none (0), one not named (still pending), or a kind.
    private mutating func transition() -> TransitionKind? {
        let b = byte()
        return b == 0 || Int(b) > TransitionKind.allCases.count ? nil : TransitionKind(code: b - 1)
    }

    /// A requirement as written: the class named (nil: the controller's own) and the kinds.
    private mutating func requirement() -> (className: String?, kinds: [EventKind], object: Bool)? {
        switch byte() {
        case 1:
            let className = name()
            return (className, EventKind.kinds(uint()), false)
        case 2: return (nil, EventKind.kinds(uint()), false)
        case 3: return (nil, [.dealloc], false)
        case 4: return (nil, [.dealloc], true)
        default: return nil
        }
    }

    /// What follows a fact: controller, line, time.
    private mutating func rest(_ fact: any Fact, _ requirement: (className: String?, kinds: [EventKind], object: Bool)?,
                               _ transition: TransitionKind?) -> Observation {
        let controller = self.controller()
        let requires = requirement.map { Requirement(className: $0.className ?? controller.className, anyOf: $0.kinds, object: $0.object) }
        let line = int()
        return Observation(fact, controller: controller, requires: requires, line: line, time: time(), transition: transition)
    }
}

extension LogTime {
    /// The fields as read (seconds aside).
    func sameFields(_ o: LogTime) -> Bool {
        year == o.year && month == o.month && day == o.day && hour == o.hour && minute == o.minute && second == o.second
            && fraction == o.fraction && fractionDigits == o.fractionDigits && offsetMinutes == o.offsetMinutes
    }
}

extension EventKind {
    /// The kinds whose bits are set, by bit.
    static func kinds(_ bits: UInt64) -> [EventKind] {
        var out: [EventKind] = []
        var rest = bits
        while rest != 0 {
            out.append(byBitIndex[rest.trailingZeroBitCount])
            rest &= rest &- 1
        }
        return out
    }

    /// The kinds by the position of their bit (`bit.trailingZeroBitCount`).
    static let byBitIndex: [EventKind] = {
        var out = [EventKind](repeating: .initialize, count: 64)
        for k in allCases { out[k.bit.trailingZeroBitCount] = k }
        return out
    }()
}

extension EventRef {
    init(line: Int, time: LogTime?, kind: EventKind) {
        self.line = line
        self.time = time
        self.kind = kind
    }
}

extension ControllerRef {
    /// `n` when `instance` is `className#n`. (Read from the two strings' bytes in place: through the generic views it
    /// cost about 2,000 instructions, at every observation a finding writes.)
    static func generation(of instance: String, className: String) -> UInt64? {
        var instance = instance, className = className
        return instance.withUTF8 { i in className.withUTF8 { c in generation(of: i, className: c) } }
    }

    private static func generation(of i: UnsafeBufferPointer<UInt8>, className c: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let k = c.count
        guard i.count > k + 1, i[k] == .hash, i[k + 1] != UInt8(ascii: "0"), i.count - k - 1 <= 18,
              k == 0 || bytesEqual(i.baseAddress!, c.baseAddress!, k) else { return nil }
        var n: UInt64 = 0
        for b in i[(k + 1)...] {
            guard b >= 0x30, b <= 0x39 else { return nil }
            n = n * 10 + UInt64(b - 0x30)
        }
        return n
    }
}

extension Appearance {
    var code: UInt8 {
        switch self {
        case .unknown: return 0
        case .hidden: return 1
        case .appearing: return 2
        case .visible: return 3
        case .disappearing: return 4
        }
    }

    init(code: UInt8) {
        switch code {
        case 1: self = .hidden
        case 2: self = .appearing
        case 3: self = .visible
        case 4: self = .disappearing
        default: self = .unknown
        }
    }
}

extension RemovalKind {
    var code: UInt8 {
        switch self {
        case .dismissed: return 0
        case .removedFromParent: return 1
        case .popped: return 2
        case .poppedWithTop: return 3
        case .closed: return 4
        case .ownerDeallocated: return 5
        case .retainedInHeap: return 6
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .dismissed
        case 1: self = .removedFromParent
        case 2: self = .popped
        case 3: self = .poppedWithTop
        case 5: self = .ownerDeallocated
        case 6: self = .retainedInHeap
        default: self = .closed
        }
    }
}

extension TransitionKind {
    /// Its place in `allCases`: one byte of an observation's encoding.
    var code: UInt8 { UInt8(Self.allCases.firstIndex(of: self)!) }

    init(code: UInt8) { self = Self.allCases[Int(code)] }
}
