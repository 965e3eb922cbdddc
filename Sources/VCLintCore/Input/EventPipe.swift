import Foundation

/// Runs a file's `EventStage` on a thread of its own while the scanner goes on reading: the lines
/// the scanner lets through (about one in ten) are copied into batches and handed over in order, so
/// the events, their line numbers and the timeline are exactly those of the one-thread run. A few
/// batches are in flight at most: memory stays bounded, and a slow stage holds the scanner back.
final class EventPipe: @unchecked Sendable {
    enum Kind: UInt8 { case learn, candidate, sample }

    struct Record {
        var kind: Kind
        var format: EnvelopeFormat?
        var afterEnvelope: Bool
        var line: Int
        var offset: Int
        var length: Int
    }

    /// One batch's lines: their bytes back to back, and what each one is.
    final class Batch {
        private(set) var bytes: UnsafeMutablePointer<UInt8>
        private(set) var capacity: Int
        private(set) var used = 0
        private(set) var records: [Record] = []

        init(capacity: Int, records: Int) {
            self.capacity = capacity
            bytes = .allocate(capacity: capacity)
            self.records.reserveCapacity(records)
        }

        deinit { bytes.deallocate() }

        var count: Int { records.count }

        func fits(_ n: Int) -> Bool { used + n <= capacity }

        func append(_ kind: Kind, _ p: UnsafePointer<UInt8>, _ n: Int, line: Int, format: EnvelopeFormat?, afterEnvelope: Bool) {
            if used + n > capacity {
                // Only an empty batch is asked to take a line longer than it (up to a read buffer).
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: used + n)
                grown.update(from: bytes, count: used)
                bytes.deallocate()
                bytes = grown
                capacity = used + n
            }
            (bytes + used).update(from: p, count: n)
            records.append(Record(kind: kind, format: format, afterEnvelope: afterEnvelope, line: line, offset: used, length: n))
            used += n
        }

        func reset() {
            used = 0
            records.removeAll(keepingCapacity: true)
        }
    }

    /// How much one batch holds before it is handed over (tests make batches tiny).
    struct BatchSize: Sendable {
        var bytes = 512 * 1024
        var records = 4096
    }
    static let batchCount = 4

    private let stage: EventStage
    private let size: BatchSize
    private let condition = NSCondition()
    private var full: [Batch] = []
    private var free: [Batch]
    private var current: Batch
    private var ended = false
    private var done = false

    init(stage: EventStage, size: BatchSize = BatchSize()) {
        self.stage = stage
        self.size = size
        current = Batch(capacity: size.bytes, records: size.records)
        free = (1..<Self.batchCount).map { _ in Batch(capacity: size.bytes, records: size.records) }
        let thread = Thread { [self] in run() }
        thread.name = "vclint events"
        thread.start()
    }

    /// Scanner side: one line for the stage, in input order.
    @inline(__always)
    func append(_ kind: Kind, _ p: UnsafePointer<UInt8>, _ n: Int, line: Int = 0, format: EnvelopeFormat? = nil, afterEnvelope: Bool = false) {
        if current.count >= size.records || (!current.fits(n) && current.count > 0) { submit() }
        current.append(kind, p, n, line: line, format: format, afterEnvelope: afterEnvelope)
    }

    private func submit() {
        condition.lock()
        full.append(current)
        condition.broadcast()
        while free.isEmpty { condition.wait() }
        current = free.removeLast()
        condition.unlock()
    }

    /// Scanner side: no more lines; returns once the stage has seen every line (then the stage's
    /// state may be read on the calling thread). Later calls return at once.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        if !ended {
            if current.count > 0 { full.append(current) }
            ended = true
            condition.broadcast()
        }
        while !done { condition.wait() }
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
        for r in batch.records {
            let p = base + r.offset
            switch r.kind {
            case .learn: if let format = r.format { stage.learn(p, r.length, format: format) }
            case .candidate: stage.candidate(p, r.length, line: r.line, format: r.format, afterEnvelope: r.afterEnvelope)
            case .sample: stage.sample(p, r.length)
            }
        }
    }
}
