import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one input produced.
public struct FileResult: Sendable {
    public var stats: InputStats
    public var findings: FindingList

    /// The rebuilt timeline, when `TimelineOptions.recordTimeline` asked for it.
    public var timeline: TimelineRecording? = nil
    /// What vclint understood of the input, when `LintOptions.inspect` asked for it.
    public var inspection: Inspection? = nil
    /// What the input held that was not linted, one line each for stderr (bytes after the last
    /// gzip member); the findings do not depend on it.
    public var warnings: [String] = []

    public init(stats: InputStats, findings: FindingList, timeline: TimelineRecording? = nil) {
        self.stats = stats
        self.findings = findings
        self.timeline = timeline
    }

    public init(stats: InputStats, findings: [Finding], timeline: TimelineRecording? = nil) {
        self.init(stats: stats, findings: FindingList(findings), timeline: timeline)
    }
}

/// The result of a run over all inputs, in input order.
public struct LintResult: Sendable {
    public var files: [FileResult]
    public var seconds: Double = 0
    /// Inputs that could not be opened or read: the run failed (exit 2), whatever the findings.
    public var failures: [InputError] = []

    public init(files: [FileResult], seconds: Double = 0) {
        self.files = files
        self.seconds = seconds
    }

    public var findings: RunFindings { RunFindings(files.map(\.findings)) }
    public func count(_ s: Severity) -> Int { files.reduce(0) { $0 + $1.findings.count(s) } }
    /// Whether a finding fails the run: an error, or a warning too when `strict`.
    public func fails(strict: Bool) -> Bool { count(.error) > 0 || (strict && count(.warning) > 0) }
    public var totalLines: Int { files.reduce(0) { $0 + $1.stats.lines } }
}

public struct LintOptions: Sendable {
    public var timeline = TimelineOptions()
    public var rules = RuleSettings.default
    public var chunkSize = LogScanner.defaultChunkSize
    /// The user's own message grammars (configuration `dialects`).
    public var customDialects: [CustomDialect] = []
    /// The candidate-line search (on by default); off, every line is parsed in full.
    public var prefilter = true
    /// Counts bytes read and files done, for a progress display.
    public var progress: ProgressCounter?
    /// Two threads per input: one reads and scans, the other parses the lines that may carry events
    /// and rebuilds the timeline. Same results; `lintEach` sets it when there are cores to spare.
    public var pipelined = false
    /// The size of the batches a pipelined scanner hands over.
    var pipeBatch = EventPipe.BatchSize()
    /// `vclint inspect`: record what was read (`FileResult.inspection`), with the timeline; one
    /// thread per input.
    public var inspect = false {
        didSet { if inspect { timeline.recordTimeline = true } }
    }
    public init() {}

    /// The front end these options describe, for one input.
    func makeScanner(path: String) -> LogScanner {
        let scanner = LogScanner(path: path, options: timeline, chunkSize: chunkSize, customDialects: customDialects,
                                 prefilter: prefilter, pipelined: pipelined && !timeline.live && !inspect, pipeBatch: pipeBatch)
        scanner.progress = progress
        if inspect { scanner.inspect() }
        return scanner
    }
}

/// The whole pipeline for one input: bytes → lines → events → timeline → findings.
public struct Linter: Sendable {
    public var options: LintOptions

    public init(options: LintOptions = LintOptions()) {
        self.options = options
    }

    /// Lints bytes held in memory (tests, fixtures), fed in chunks of `chunkSize`.
    public func lint(bytes: [UInt8], path: String, feedSize: Int? = nil) -> FileResult {
        let scanner = options.makeScanner(path: path)
        var ends = LineEndTranslator()
        bytes.withUnsafeBytes { raw in
            let step = max(1, feedSize ?? raw.count)
            var i = 0
            while i < raw.count {
                let n = min(step, raw.count - i)
                ends.pass(UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)])) { scanner.consume($0) }
                i += n
            }
        }
        ends.finish { scanner.consume($0) }
        return complete(scanner, path: path)
    }

    public func lint(text: String, path: String = "<text>") -> FileResult {
        lint(bytes: Array(text.utf8), path: path)
    }

    /// Lints an open file descriptor to its end. A gzip stream (a `.gz` capture, or one piped in)
    /// is recognised by its first bytes and inflated while it is read.
    public func lint(fd: Int32, path: String) throws -> FileResult {
        let scanner = options.makeScanner(path: path)
        let wanted = 2
        var head = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {
            let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, wanted - got) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LogScanner.ReadError.io(errno)
            }
            if n == 0 { break }
            got += n
        }
        head.removeLast(wanted - got)
        options.progress?.add(bytes: got)
        defer { options.progress?.fileDone() }
        var warnings: [String] = []
        // An input that fails midway still ends its scanner: finishing releases the timeline's
        // instances and transitions, which refer to each other (they leaked when a gzip stream broke).
        var finished = false
        defer { if !finished { _ = scanner.finish() } }
        if head.withUnsafeBytes({ Inflater.isGzip($0) }) {
            do {
                var ends = LineEndTranslator()
                let inflater = Inflater(fd: fd, prefix: head, progress: options.progress)
                try inflater.run { ends.pass($0) { scanner.consume($0) } }
                ends.finish { scanner.consume($0) }
                if inflater.trailingBytes > 0 { warnings.append(Inflater.trailingWarning(inflater.trailingBytes, path: path)) }
            } catch Inflater.Failure.read(let code) {
                throw LogScanner.ReadError.io(code)
            } catch Inflater.Failure.corrupt(let why) {
                throw LogScanner.ReadError.compressed("not a valid gzip stream (\(why))")
            } catch {
                throw LogScanner.ReadError.compressed("the gzip stream ends early (truncated)")
            }
        } else {
            try LineEndTranslator.scan(fd: fd, head: head, into: scanner)
        }
        finished = true
        var result = complete(scanner, path: path)
        result.warnings = warnings
        return result
    }

    private func complete(_ scanner: LogScanner, path: String) -> FileResult {
        let (stats, summary) = scanner.finish()
        var observations = summary.observations
        if let none = Observation.noEvents(stats) { observations.append(none) }
        let findings = RuleEngine.findings(observations, path: path, settings: options.rules, options: options.timeline)
        let recording = scanner.builder.recording(summary)
        var file = FileResult(stats: stats, findings: findings, timeline: recording)
        file.inspection = scanner.inspector?.inspection(stats: stats, recording: recording)
        return file
    }
}
