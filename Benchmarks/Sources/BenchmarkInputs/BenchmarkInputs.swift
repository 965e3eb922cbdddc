import VCLintCore
import VCLintSimulation

/// The inputs every benchmark measures, generated in memory by `NavigationSimulator` before
/// measurement: deterministic (fixed seeds), noisy (15 noise lines per lifecycle line on average, as
/// in a real console), one capture per dialect, each in a different envelope.
public struct BenchmarkInputs: Sendable {
    /// Dialect and envelope of each capture.
    public static let plan: [(NavigationSimulator.Dialect, EnvelopeFormat)] = [
        (.objc, .nslogTZ), (.swift, .oslog), (.described, .ndjson), (.named, .syslog), (.methodClass, .compact),
    ]
    /// Bytes per capture: the scanner benchmark reads all captures, exactly 1,000,000 bytes, so
    /// that with a `.kilo` scaling factor its figures read per kB (1000 bytes) of input.
    public static let captureBytes = 1_000_000 / plan.count
    /// Parser and timeline benchmarks handle exactly this many events per iteration (`.kilo`), so
    /// their scaled figures read per event.
    public static let eventsPerIteration = 1_000

    /// Console captures, `captureBytes` each (the last line may be cut, as at the end of a file).
    public let captures: [[UInt8]]
    /// Lifecycle lines of each capture, as the scanner finds them.
    public let lifecycle: [[BenchmarkSupport.LifecycleLine]]
    /// `eventsPerIteration` lifecycle messages taken from all dialects in turn (from the whole
    /// simulated captures, which may be longer than `captures`), concatenated, and their ranges.
    public let messageBytes: [UInt8]
    public let messageRanges: [Range<Int>]
    /// `eventsPerIteration` events with their envelope context, in per-capture runs: each run goes
    /// into a timeline of its own, as each input file does.
    public let timelineRuns: [[BenchmarkSupport.LifecycleLine]]

    public static let shared = BenchmarkInputs()

    init() {
        let share = Self.eventsPerIteration / Self.plan.count
        var captures: [[UInt8]] = []
        var full: [[BenchmarkSupport.LifecycleLine]] = []
        for (i, (dialect, envelope)) in Self.plan.enumerated() {
            var options = NavigationSimulator.Options(seed: 0x5EED_0000 + UInt64(i))
            options.dialect = dialect
            options.envelope = envelope
            options.noise = 15
            options.sessions = 3
            options.steps = 100
            // Longer runs until the capture is big enough for every benchmark (deterministic: same
            // seed, same steps).
            while true {
                let bytes = Array(NavigationSimulator.generate(options).text.utf8)
                let lines = BenchmarkSupport.lifecycleLines(in: bytes)
                if bytes.count >= Self.captureBytes, lines.count >= share {
                    captures.append(Array(bytes.prefix(Self.captureBytes)))
                    full.append(lines)
                    break
                }
                options.steps *= 2
            }
        }
        self.captures = captures
        lifecycle = captures.map { BenchmarkSupport.lifecycleLines(in: $0) }

        // Parser: dialects in turn, each walking its own capture's lines.
        var messageBytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for k in 0..<Self.eventsPerIteration {
            let m = full[k % full.count][k / full.count].message
            ranges.append(messageBytes.count..<(messageBytes.count + m.count))
            messageBytes += m
        }
        self.messageBytes = messageBytes
        self.messageRanges = ranges

        // Timeline: the first events of each capture, an equal share each.
        timelineRuns = full.map { Array($0.prefix(share)) }
        precondition(timelineRuns.reduce(0) { $0 + $1.count } == Self.eventsPerIteration)
    }

    /// One line per capture: what the benchmarks read (printed to stderr by the suites' setup).
    public var summary: String {
        zip(Self.plan, zip(captures, lifecycle)).map { plan, c in
            let lines = c.0.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return "\(plan.0.rawValue)/\(plan.1.rawValue): \(c.0.count) bytes, \(lines) lines, \(c.1.count) lifecycle lines"
        }.joined(separator: "\n")
    }
}
