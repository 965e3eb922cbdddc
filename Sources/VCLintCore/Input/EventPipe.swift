import Foundation

/// Runs a file's `EventStage` on a thread of its own while the scanner goes on reading: the lines
/// the scanner lets through (about one in ten) are copied into batches and handed over in order, so
/// the events, their line numbers and the timeline are exactly those of the one-thread run. A few
/// batches are in flight at most: memory stays bounded, and a slow stage holds the scanner back.
///
/// The two threads share the work where it piles up: when the stage is behind (no free batch), the
/// scanner parses the candidate lines of the batch it hands over itself (`LineParser`: envelope,
/// message grammars, timestamp; everything that does not depend on the lines before), and the
/// stage only puts them in context and on the timeline.
///
/// To the scanner it is a sink like the stage itself (`LineSink`): the scanner does not know which
/// one it feeds.
final class EventPipe: LineSink, @unchecked Sendable {
    enum Kind: UInt8 { case learn, candidate, sample, context, envelope, ending }

    struct Record {
        var kind: Kind
        var format: EnvelopeFormat?
        var afterEnvelope: Bool
        var line: Int
        var offset: Int
        var length: Int
        /// A candidate the scanner parsed that is no event (`LineParser.read` passed it over), and whether it mentions a
        /// callback (`LineParser.skippedUnread`).
        var passedOver = false
        var unread = false
        /// A candidate the scanner parsed into a line: its slot (`Batch.parse`).
        var slot: Int32 = 0
    }

    /// One batch's lines: their bytes back to back, and what each one is.
    final class Batch {
        @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
        @exclusivity(unchecked) private(set) var capacity: Int
        @exclusivity(unchecked) private(set) var used = 0
        @exclusivity(unchecked) private(set) var records: [Record] = []
        /// When the scanner parsed the batch (`isParsed`): what each candidate record's line said, in the slot its record
        /// names, one slot per line that is an event (a line passed over takes none: most of a dense capture's candidates
        /// are noise, and a slot is a `ParsedLine`'s 341 bytes, 1,024 of them in each of the batches in flight). The
        /// slots stay from batch to batch, so a line is read into its slot in place, not made, moved and dropped.
        @exclusivity(unchecked) private var slots: [ParsedLine] = []
        @exclusivity(unchecked) private(set) var isParsed = false

        init(capacity: Int, records: Int) {
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
            self.records.reserveCapacity(records)
        }

        deinit { bytes.deallocate() }

        var count: Int { records.count }

        func fits(_ n: Int) -> Bool { used + n <= capacity }

        func append(_ kind: Kind, _ line: ScannedLine, afterEnvelope: Bool) {
            let n = line.count
            if used + n > capacity {
                // Only an empty batch is asked to take a line longer than it (up to a read buffer).
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: used + n)
                grown.update(from: bytes, count: used)
                bytes.deallocate()
                bytes = grown
                capacity = used + n
            }
            (bytes + used).update(from: line.start, count: n)
            records.append(Record(kind: kind, format: line.format, afterEnvelope: afterEnvelope, line: line.number, offset: used, length: n))
            used += n
        }

        /// Parses the candidate lines (on the scanner's thread, before the batch is handed over).
        func parse(with lines: LineParser) {
            let base = UnsafePointer(bytes)
            var used = 0
            for i in records.indices where records[i].kind == .candidate {
                let r = records[i]
                // (A line passed over leaves the slot it was read into as it was: the next candidate's.)
                if used == slots.count { slots.append(.none) }
                let read = slots.withUnsafeMutableBufferPointer {
                    lines.read(base + r.offset, r.length, format: r.format, afterEnvelope: r.afterEnvelope, into: &$0[used])
                }
                if read {
                    records[i].slot = Int32(truncatingIfNeeded: used)
                    used += 1
                } else {
                    records[i].passedOver = true
                    records[i].unread = lines.skippedUnread
                }
            }
            isParsed = true
        }

        /// Tests: how many slots the batch keeps.
        var slotCount: Int { slots.count }

        /// The parsed lines' slots, to be applied in place (by the stage's thread, once the batch is its).
        func withSlots(_ body: (UnsafeMutableBufferPointer<ParsedLine>) -> Void) {
            slots.withUnsafeMutableBufferPointer { body($0) }
        }

        func reset() {
            used = 0
            records.removeAll(keepingCapacity: true)
            isParsed = false
        }
    }

    /// How much one batch holds before it is handed over (tests make batches tiny).
    struct BatchSize: Sendable {
        var bytes = 128 * 1024
        var records = 1024
        /// Tests: the scanner parses every n-th batch whether the stage is behind or not (0: only
        /// when it is behind).
        var scannerParsesEvery = 0
    }
    static let batchCount = 8

    private let stage: EventStage
    private let size: BatchSize
    /// The scanner thread's parser, for batches it parses itself.
    private let lines: LineParser
    /// Batches the scanner parsed, of all it handed over (tests: both sides worked).
    @exclusivity(unchecked) private(set) var parsedBatches = 0, batches = 0
    private let condition = NSCondition()
    @exclusivity(unchecked) private var full: [Batch] = []
    @exclusivity(unchecked) private var free: [Batch]
    @exclusivity(unchecked) private var current: Batch
    @exclusivity(unchecked) private var ended = false
    @exclusivity(unchecked) private var done = false

    init(stage: EventStage, customDialects: [CustomDialect], size: BatchSize = BatchSize()) {
        self.stage = stage
        self.size = size
        lines = LineParser(customDialects: customDialects)
        current = Batch(capacity: size.bytes, records: size.records)
        free = (1..<Self.batchCount).map { _ in Batch(capacity: size.bytes, records: size.records) }
        let thread = Thread { [self] in run() }
        thread.name = "vclint events"
        thread.start()
    }

    // MARK: - The scanner's side (LineSink)

    /// The scanner's own record of whether the stage has a context process: the stage's state is
    /// on the other thread. An enveloped line that gives a process makes it known; an ndjson event
    /// may lack a process and leave the stage without one.
    @exclusivity(unchecked) private(set) var contextKnown = false

    @inline(__always)
    func candidate(_ line: ScannedLine, afterEnvelope: Bool) {
        if line.format == .ndjson { contextKnown = false }
        append(.candidate, line, afterEnvelope: afterEnvelope)
    }

    func context(_ line: ScannedLine) { append(.context, line) }

    func sample(_ line: ScannedLine) { append(.sample, line) }

    func ending(_ line: ScannedLine) { append(.ending, line) }

    func learn(_ line: ScannedLine) {
        guard let format = line.format, let info = EnvelopeParser.parse(line.start, line.count, format: format), !info.isMetadata else { return }
        append(.learn, line)
        if EventStage.givesProcess(info) { contextKnown = true }
    }

    func envelope(_ line: ScannedLine) { append(.envelope, line) }

    /// Lines on which a custom dialect's pattern gave up, on either side (valid after `finish`).
    var patternLimitHits: Int { lines.parser.limitHits + stage.patternLimitHits }

    /// One line for the stage, in input order.
    @inline(__always)
    private func append(_ kind: Kind, _ line: ScannedLine, afterEnvelope: Bool = false) {
        // The batch is this thread's until `submit`: no reference counting on the way.
        Unmanaged.passUnretained(current)._withUnsafeGuaranteedRef { batch in
            if batch.count >= size.records || (!batch.fits(line.count) && batch.count > 0) { submit() }
        }
        Unmanaged.passUnretained(current)._withUnsafeGuaranteedRef { $0.append(kind, line, afterEnvelope: afterEnvelope) }
    }

    private func submit() {
        condition.lock()
        let behind = free.isEmpty
        condition.unlock()
        batches += 1
        if size.scannerParsesEvery > 0 ? batches % size.scannerParsesEvery == 0 : behind {
            // The stage has a backlog: take part of its work instead of waiting.
            current.parse(with: lines)
            parsedBatches += 1
        }
        condition.lock()
        full.append(current)
        condition.broadcast()
        while free.isEmpty { condition.wait() }
        current = free.removeLast()
        condition.unlock()
    }

    /// Scanner side: no more lines; returns once the stage has seen and finished every line (then
    /// the stage's state may be read on the calling thread). Later calls return at once.
    func finish() {
        condition.lock()
        let first = !ended
        if !ended {
            if current.count > 0 { full.append(current) }
            ended = true
            condition.broadcast()
        }
        while !done { condition.wait() }
        condition.unlock()
        if first { stage.finish() }
    }

    private func run() {
        condition.lock()
        while true {
            while full.isEmpty && !ended { condition.wait() }
            if full.isEmpty { break }
            let batch = full.removeFirst()
            condition.unlock()
            process(batch)
            batch.reset()
            condition.lock()
            free.append(batch)
            condition.broadcast()
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }

    private func process(_ batch: Batch) {
        let base = UnsafePointer(batch.bytes)
        batch.withSlots { parsed in
            for r in batch.records {
                let line = ScannedLine(base + r.offset, count: r.length, number: r.line, format: r.format)
                switch r.kind {
                case .learn: stage.learn(line)
                case .candidate:
                    if !batch.isParsed {
                        stage.candidate(line, afterEnvelope: r.afterEnvelope)
                    } else if !r.passedOver {
                        stage.apply(&parsed[Int(r.slot)], line: r.line, bytes: base + r.offset)
                    } else {
                        stage.skip(unread: r.unread, line: r.line)
                    }
                case .sample: stage.sample(line)
                case .ending: stage.ending(line)
                case .context: stage.context(line)
                case .envelope: stage.envelope(line)
                }
            }
        }
    }
}
