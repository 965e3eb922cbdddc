import Benchmark
import BenchmarkInputs
import VCLintCore

/// The timeline stage alone: pre-parsed events (with line, timestamp, process and pid, as the scanner
/// passes them) into `TimelineBuilder.handle(_:process:pid:)`, then `finish()`. 1,000 events per
/// iteration in five runs of 200, one builder per run (one per input file: objc, swift, described,
/// named, method-class captures). With the `.kilo` scaling factor the figures read per event.
let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "TimelineBuilder.handle+finish (per event)",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: 10,
            scalingFactor: .kilo,
            maxDuration: .seconds(3),
            maxIterations: 10_000
        ),
        closure: { benchmark in
            let runs = BenchmarkInputs.shared.timelineRuns
            benchmark.startMeasurement()
            for run in runs {
                let builder = TimelineBuilder()
                for line in run {
                    builder.handle(line.event, process: line.process, pid: line.pid)
                }
                blackHole(builder.finish())
            }
        },
        setup: { _ = BenchmarkInputs.shared }
    )
}
