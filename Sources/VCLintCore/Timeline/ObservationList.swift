/// The observations of one input, held as bytes (issue 15: 661k findings in ≤ 256 MiB). An
/// `Observation` value is a few hundred bytes wide and its controller's label is a String of its
/// own; here one costs its encoding (tens of bytes: varints, the time once, class names by index)
/// and an offset. Reading an element decodes it, so rules and reports see ordinary values.
public struct ObservationList: RandomAccessCollection, Sendable {
    /// The encodings, one after the other.
    /// in chunks of `chunkCapacity` bytes (one big array would, as it grows, hold its old and new
    /// buffers at once: twice the memory at the worst moment); an encoding never spans two.
    private var chunks: [[UInt8]] = []
    /// Where each observation's encoding starts: its chunk (above bit 40) and offset in it.
    private var starts: [Int] = []
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
        var r = Reader(bytes: chunks[starts[i] >> 40], at: starts[i] & (1 << 40 - 1), names: names, dates: dates)
        return r.observation()
    }

    public mutating func append(_ o: Observation) {
        append(o, awaitingEnd: false)
    }

    private mutating func append(_ o: Observation, awaitingEnd: Bool) {
        // The writer holds the only references: its appends do not copy.
        scratch.removeAll(keepingCapacity: true)
        var w = Writer(bytes: scratch, names: names, dates: dates)
        scratch = []
        names = NameTable()
        dates = DateTable()
        w.awaitingEnd = awaitingEnd
        w.observation(o)
        scratch = w.bytes
        names = w.names
        dates = w.dates
        appendEncoding(scratch[...])
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

    /// Appends a `.leaked` observation whose session has not ended (its wentOn, confirmed and
    /// requirement are placeholders until `resolveLeak`), and returns its index. A controller that
    /// no event can reach any more is kept this way only (`SessionTimeline.evictUnreachable`).
    mutating func appendLeakAwaitingEnd(_ o: Observation) -> Int {
        append(o, awaitingEnd: true)
        return starts.count - 1
    }

    /// Where a leak awaiting its session's end has its wentOn field and its requirement's flag.
    private func leakFieldOffsets(_ index: Int) -> (wentOn: Int, requires: Int)? {
        var r = Reader(bytes: chunks[starts[index] >> 40], at: starts[index] & (1 << 40 - 1), names: names, dates: dates)
        guard Tag(rawValue: r.byte()) == .leakAwaitingEnd else { return nil }
        _ = r.removal()
        _ = r.ref()
        _ = r.optionalRef()
        let wentOnAt = r.at
        r.at += 10
        _ = r.controller()
        return (wentOnAt, r.at)
    }

    /// The session ended: the leak at `index` learns how long the session went on after it, whether
    /// that confirms it, and whether its class's dealloc must be logged for it to count (a
    /// requirement on its controller's class). Rewrites fixed-width bytes in place.
    mutating func resolveLeak(at index: Int, wentOn: Double?, confirmed: Bool, requiresDealloc: Bool) {
        // Found by a reader that is gone before the bytes change: one that still held them would
        // make the first write copy the whole list (once per leak: quadratic).
        guard let (wentOnAt, requiresAt) = leakFieldOffsets(index) else { return }
        let c = starts[index] >> 40
        chunks[c][wentOnAt] = wentOn == nil ? 0 : 1
        var bits = (wentOn ?? 0).bitPattern
        for k in 1...8 {
            chunks[c][wentOnAt + k] = UInt8(truncatingIfNeeded: bits)
            bits >>= 8
        }
        chunks[c][wentOnAt + 9] = confirmed ? 1 : 0
        chunks[c][requiresAt + 1] = requiresDealloc ? 1 : 0
    }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == Observation {
        for o in s { append(o) }
    }

    /// The observations that pass, in order, without decoding twice the ones kept.
    public func filter(_ keep: (Observation) throws -> Bool) rethrows -> ObservationList {
        var out = ObservationList()
        out.names = names
        out.dates = dates
        for i in indices where try keep(self[i]) {
            let c = starts[i] >> 40, at = starts[i] & (1 << 40 - 1)
            let next = i + 1 < starts.count && starts[i + 1] >> 40 == c ? starts[i + 1] & (1 << 40 - 1) : chunks[c].count
            out.appendEncoding(chunks[c][at..<next])
        }
        return out
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
    private(set) var names: [String] = []
    private var index: [String: Int] = [:]

    mutating func id(_ s: String) -> Int {
        if let k = index[s] { return k }
        names.append(s)
        index[s] = names.count - 1
        return names.count - 1
    }

    var byteCount: Int { names.reduce(0) { $0 + $1.utf8.count + 48 } }
}

// MARK: - Encoding

private extension ObservationList {
    /// Tags of `ObservationKind`'s cases; the order is the encoding (append only).
    enum Tag: UInt8 {
        case missingDidAppear, missingDidDisappear, didWithoutWill, willInSameState, appearanceBeforeLoad
        case duplicateViewDidLoad, eventAfterDealloc, deallocWhileVisible, leaked, lateDealloc
        case completionBeforeDisappearance, completionBeforeAppearance, willMoveWithoutDidMove, removedWithoutWillMove
        case slowTransition, memoryWarning, uikitUnbalanced, uikitPresentationConflict, noLifecycleEvents
        /// A leak whose session has not ended: how long it went on, whether that is confirmed and
        /// whether dealloc must be logged are written fixed-width, and resolved in place (`resolveLeak`).
        case leakAwaitingEnd
    }

    struct Writer {
        var bytes: [UInt8]
        var names: NameTable
        var dates: DateTable
        /// The two times written last in this observation, latest first: most refs of one share
        /// one of them (a leak's removal and will-callback, say), written again as one byte.
        var lastTime: LogTime?
        var priorTime: LogTime?
        /// Writes a `.leaked` observation as `Tag.leakAwaitingEnd`.
        var awaitingEnd = false

        mutating func byte(_ b: UInt8) { bytes.append(b) }

        mutating func uint(_ v: UInt64) {
            var v = v
            while v >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        mutating func int(_ v: Int) { uint(UInt64(bitPattern: Int64((v << 1) ^ (v >> 63)))) }

        mutating func double(_ d: Double) {
            var bits = d.bitPattern
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
            }
        }

        mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }

        mutating func string(_ s: String) {
            uint(UInt64(s.utf8.count))
            bytes.append(contentsOf: s.utf8)
        }

        mutating func name(_ s: String) { uint(UInt64(names.id(s))) }

        mutating func optionalString(_ s: String?) {
            if let s { byte(1); string(s) } else { byte(0) }
        }

        mutating func optionalDouble(_ d: Double?) {
            if let d { byte(1); double(d) } else { byte(0) }
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
            uint(UInt64(dates.id(DateKey(t))))
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

        mutating func observation(_ o: Observation) {
            lastTime = nil
            priorTime = nil
            switch o.kind {
            case .missingDidAppear(let will, let reason):
                byte(Tag.missingDidAppear.rawValue); ref(will); self.reason(reason)
            case .missingDidDisappear(let will, let reason):
                byte(Tag.missingDidDisappear.rawValue); ref(will); self.reason(reason)
            case .didWithoutWill(let did, let state):
                byte(Tag.didWithoutWill.rawValue); ref(did); byte(state.code)
            case .willInSameState(let will, let state, let since):
                byte(Tag.willInSameState.rawValue); ref(will); byte(state.code); optionalRef(since)
            case .appearanceBeforeLoad(let event, let created):
                byte(Tag.appearanceBeforeLoad.rawValue); ref(event); optionalRef(created)
            case .duplicateViewDidLoad(let event, let firstLoad):
                byte(Tag.duplicateViewDidLoad.rawValue); ref(event); optionalRef(firstLoad)
            case .eventAfterDealloc(let event, let dealloc):
                byte(Tag.eventAfterDealloc.rawValue); ref(event); ref(dealloc)
            case .deallocWhileVisible(let dealloc, let appeared):
                byte(Tag.deallocWhileVisible.rawValue); ref(dealloc); optionalRef(appeared)
            case .leaked(let removal, let anchor, let will, let wentOn, let confirmed) where awaitingEnd:
                byte(Tag.leakAwaitingEnd.rawValue); self.removal(removal); ref(anchor); optionalRef(will)
                byte(wentOn == nil ? 0 : 1); double(wentOn ?? 0); bool(confirmed)
            case .leaked(let removal, let anchor, let will, let wentOn, let confirmed):
                byte(Tag.leaked.rawValue); self.removal(removal); ref(anchor); optionalRef(will); optionalDouble(wentOn); bool(confirmed)
            case .lateDealloc(let dealloc, let removal, let delay):
                byte(Tag.lateDealloc.rawValue); ref(dealloc); self.removal(removal); double(delay)
            case .completionBeforeDisappearance(let marker, let did, let will):
                byte(Tag.completionBeforeDisappearance.rawValue); ref(marker); ref(did); optionalRef(will)
            case .completionBeforeAppearance(let marker, let did, let will):
                byte(Tag.completionBeforeAppearance.rawValue); ref(marker); ref(did); optionalRef(will)
            case .willMoveWithoutDidMove(let will, let reason):
                byte(Tag.willMoveWithoutDidMove.rawValue); ref(will); self.reason(reason)
            case .removedWithoutWillMove(let did):
                byte(Tag.removedWithoutWillMove.rawValue); ref(did)
            case .slowTransition(let will, let did, let ms):
                byte(Tag.slowTransition.rawValue); ref(will); ref(did); double(ms)
            case .memoryWarning(let event, let count, let classes, let classCount):
                byte(Tag.memoryWarning.rawValue); ref(event); uint(UInt64(count))
                uint(UInt64(classes.count)); classes.forEach { name($0) }; uint(UInt64(classCount))
            case .uikitUnbalanced(let event, let text):
                byte(Tag.uikitUnbalanced.rawValue); ref(event); string(text)
            case .uikitPresentationConflict(let event, let text, let others):
                byte(Tag.uikitPresentationConflict.rawValue); ref(event); string(text)
                uint(UInt64(others.count)); others.forEach { controller($0) }
            case .noLifecycleEvents(let lines, let unread, let firstUnread):
                byte(Tag.noLifecycleEvents.rawValue); int(lines); int(unread)
                if let f = firstUnread { byte(1); int(f) } else { byte(0) }
            }
            controller(o.controller)
            if awaitingEnd, case .leaked = o.kind {
                // The dealloc of the controller's class, or none: decided at the session's end.
                byte(2); bool(o.requires != nil)
            } else if let r = o.requires {
                byte(1); name(r.className)
                var bits: UInt32 = 0
                for k in r.anyOf { bits |= k.bit }
                uint(UInt64(bits))
            } else {
                byte(0)
            }
            int(o.line)
            time(o.time)
        }

        mutating func removal(_ r: Removal) {
            byte(r.kind.code)
            ref(r.evidence)
            optionalString(r.takenAlongBy)
            ref(r.anchor)
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var at: Int
        let names: NameTable
        let dates: DateTable
        var lastTime: LogTime?
        var priorTime: LogTime?

        init(bytes: [UInt8], at: Int, names: NameTable, dates: DateTable) {
            self.bytes = bytes
            self.at = at
            self.names = names
            self.dates = dates
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

        mutating func string() -> String {
            let n = Int(uint())
            defer { at += n }
            return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
        }

        mutating func name() -> String { names.names[Int(uint())] }

        mutating func optionalString() -> String? { byte() == 0 ? nil : string() }
        mutating func optionalDouble() -> Double? { byte() == 0 ? nil : double() }

        mutating func time() -> LogTime? {
            switch byte() {
            case 0: return nil
            case 1: return lastTime
            case 3:
                swap(&lastTime, &priorTime)
                return lastTime
            case 4, 5:
                let derived = bytes[at - 1] == 5
                let d = dates.dates[Int(uint())]
                let hour = Int(byte()), minute = Int(byte()), second = Int(byte())
                let fraction = UInt32(uint())
                var t = LogTime(seconds: 0, year: Int(d.year), month: Int(d.month), day: Int(d.day), hour: hour, minute: minute,
                                second: second, fraction: fraction, fractionDigits: Int(d.digits), offsetMinutes: d.offset)
                t.seconds = derived ? t.fieldSeconds : double()
                priorTime = lastTime
                lastTime = t
                return t
            default:
                let seconds = double()
                let year = int()
                let f = bytes[at..<(at + 6)].map { Int($0) }
                at += 6
                let fraction = UInt32(uint())
                let offset: Int16? = byte() == 0 ? nil : Int16(int())
                let t = LogTime(seconds: seconds, year: year, month: f[0], day: f[1], hour: f[2], minute: f[3], second: f[4],
                                fraction: fraction, fractionDigits: f[5], offsetMinutes: offset)
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

        mutating func removal() -> Removal {
            let kind = RemovalKind(code: byte())
            let evidence = ref()
            let along = optionalString()
            return Removal(kind: kind, evidence: evidence, takenAlongBy: along, anchor: ref())
        }

        mutating func observation() -> Observation {
            let kind: ObservationKind
            switch Tag(rawValue: byte())! {
            case .missingDidAppear: kind = .missingDidAppear(will: ref(), reason: reason())
            case .missingDidDisappear: kind = .missingDidDisappear(will: ref(), reason: reason())
            case .didWithoutWill: kind = .didWithoutWill(did: ref(), state: Appearance(code: byte()))
            case .willInSameState: kind = .willInSameState(will: ref(), state: Appearance(code: byte()), since: optionalRef())
            case .appearanceBeforeLoad: kind = .appearanceBeforeLoad(event: ref(), created: optionalRef())
            case .duplicateViewDidLoad: kind = .duplicateViewDidLoad(event: ref(), firstLoad: optionalRef())
            case .eventAfterDealloc: kind = .eventAfterDealloc(event: ref(), dealloc: ref())
            case .deallocWhileVisible: kind = .deallocWhileVisible(dealloc: ref(), appeared: optionalRef())
            case .leaked:
                kind = .leaked(removal: removal(), anchor: ref(), will: optionalRef(), wentOn: optionalDouble(), confirmed: bool())
            case .leakAwaitingEnd:
                let removal = removal(), anchor = ref(), will = optionalRef()
                let known = byte() == 1
                let wentOn = double()
                kind = .leaked(removal: removal, anchor: anchor, will: will, wentOn: known ? wentOn : nil, confirmed: bool())
            case .lateDealloc: kind = .lateDealloc(dealloc: ref(), removal: removal(), delay: double())
            case .completionBeforeDisappearance: kind = .completionBeforeDisappearance(marker: ref(), did: ref(), will: optionalRef())
            case .completionBeforeAppearance: kind = .completionBeforeAppearance(marker: ref(), did: ref(), will: optionalRef())
            case .willMoveWithoutDidMove: kind = .willMoveWithoutDidMove(will: ref(), reason: reason())
            case .removedWithoutWillMove: kind = .removedWithoutWillMove(did: ref())
            case .slowTransition: kind = .slowTransition(will: ref(), did: ref(), milliseconds: double())
            case .memoryWarning:
                let event = ref()
                let count = Int(uint())
                let classes = (0..<Int(uint())).map { _ in name() }
                kind = .memoryWarning(event: event, countInSession: count, classes: classes, classCount: Int(uint()))
            case .uikitUnbalanced: kind = .uikitUnbalanced(event: ref(), text: string())
            case .uikitPresentationConflict:
                let event = ref()
                let text = string()
                let others = (0..<Int(uint())).map { _ in self.controller() }
                kind = .uikitPresentationConflict(event: event, text: text, others: others)
            case .noLifecycleEvents:
                let lines = int()
                let unread = int()
                kind = .noLifecycleEvents(lines: lines, unread: unread, firstUnread: byte() == 0 ? nil : int())
            }
            let controller = self.controller()
            var requires: Requirement?
            switch byte() {
            case 1:
                let className = name()
                let bits = UInt32(uint())
                requires = Requirement(className: className, anyOf: EventKind.allCases.filter { bits & $0.bit != 0 })
            case 2:
                if bool() { requires = Requirement(className: controller.className, anyOf: [.dealloc]) }
            default:
                break
            }
            let line = int()
            return Observation(kind: kind, controller: controller, requires: requires, line: line, time: time())
        }
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
    /// The kinds by the position of their bit (`bit.trailingZeroBitCount`).
    static let byBitIndex: [EventKind] = {
        var out = [EventKind](repeating: .initialize, count: 32)
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
    /// `n` when `instance` is `className#n`.
    static func generation(of instance: String, className: String) -> UInt64? {
        let i = instance.utf8, c = className.utf8
        guard i.count > c.count + 1, i.starts(with: c) else { return nil }
        var rest = i.dropFirst(c.count)
        guard rest.first == UInt8(ascii: "#") else { return nil }
        rest = rest.dropFirst()
        guard rest.first != UInt8(ascii: "0"), rest.count <= 18 else { return nil }
        var n: UInt64 = 0
        for b in rest {
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
        case .disappeared: return 1
        case .appearing: return 2
        case .appeared: return 3
        case .disappearing: return 4
        }
    }

    init(code: UInt8) {
        switch code {
        case 1: self = .disappeared
        case 2: self = .appearing
        case 3: self = .appeared
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
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .dismissed
        case 1: self = .removedFromParent
        case 2: self = .popped
        case 3: self = .poppedWithTop
        default: self = .closed
        }
    }
}
