import Benchmark
import BenchmarkInputs
import VCLintCore

/// `MessageParser.parse(UnsafeBufferPointer<UInt8>)` alone, on messages already cut out of their
/// envelopes: 1,000 lifecycle messages per iteration, the objc, swift, described, named and
/// method-class dialects in turn. With the `.kilo` scaling factor the figures read per event.
let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "MessageParser.parse (per event)",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: 10,
            scalingFactor: .kilo,
            maxDuration: .seconds(3),
            maxIterations: 10_000
        ),
        closure: { benchmark in
            let inputs = BenchmarkInputs.shared
            let parser = MessageParser()
            benchmark.startMeasurement()
            inputs.messageBytes.withUnsafeBufferPointer { all in
                for r in inputs.messageRanges {
                    blackHole(parser.parse(UnsafeBufferPointer(rebasing: all[r])))
                }
            }
        },
        setup: {
            let inputs = BenchmarkInputs.shared
            precondition(inputs.messageRanges.count == BenchmarkInputs.eventsPerIteration)
            let parser = MessageParser()
            inputs.messageBytes.withUnsafeBufferPointer { all in
                for r in inputs.messageRanges {
                    precondition(parser.parse(UnsafeBufferPointer(rebasing: all[r])) != nil, "not an event")
                }
            }
        }
    )
}
