import Testing
@testable import VCLintCore

/// A batch the scanner parses keeps a parsed line only for the lines that are events: noise and sentences that
/// mention a callback are marked on their records and take no slot, and each event's record names its own slot.
@Suite struct EventPipeBatchTests {
    static let lines = [
        "2024-03-01 10:00:00.000 Shop[42:7] -[HomeViewController viewDidLoad]",
        "2024-03-01 10:00:00.100 Shop[42:7] [Feed] prefetching rows 1..20 for the visible range",
        "2024-03-01 10:00:00.200 Shop[42:7] [Analytics] queued screen event viewDidAppear for Home",
        "2024-03-01 10:00:00.300 Shop[42:7] -[HomeViewController viewWillAppear:]",
        "2024-03-01 10:00:00.400 Shop[42:7] [Network] GET /v2/feed -> 200",
        "2024-03-01 10:00:00.500 Shop[42:7] -[HomeViewController viewDidAppear:]",
    ]

    static func fill(_ batch: EventPipe.Batch, _ lines: [String], from number: Int) {
        for (k, text) in lines.enumerated() {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer {
                batch.append(.candidate, ScannedLine($0.baseAddress!, count: $0.count, number: number + k, format: .nslog), afterEnvelope: true)
            }
        }
    }

    @Test func onlyEventsTakeSlots() {
        let batch = EventPipe.Batch(capacity: 4096, records: 16)
        let parser = LineParser(customDialects: [])
        // Twice: the slots stay from one batch to the next, and the second batch needs no more of them.
        for round in 0..<2 {
            Self.fill(batch, Self.lines, from: 1 + 10 * round)
            batch.parse(with: parser)
            #expect(batch.isParsed)
            #expect(batch.records.map(\.passedOver) == [false, true, true, false, true, false])
            #expect(batch.records.map(\.unread) == [false, false, true, false, false, false])
            #expect(batch.records.filter { !$0.passedOver }.map(\.slot) == [0, 1, 2])
            #expect(batch.slotCount == 3)
            var kinds: [EventKind] = []
            batch.withSlots { slots in
                for r in batch.records where !r.passedOver { kinds.append(slots[Int(r.slot)].event.kind) }
            }
            #expect(kinds == [.viewDidLoad, .viewWillAppear, .viewDidAppear])
            batch.reset()
        }
    }
}
