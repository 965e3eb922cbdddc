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
    /// gzip member, JSON objects and lines too long to be read whole); the findings do not depend on it.
    public var warnings: [String] = []
    /// Which test was running where, when the input shows a test runner's lines.
    public var tests = TestBoundaries()

    public init(stats: InputStats, findings: FindingList, timeline: TimelineRecording? = nil) {
        self.stats = stats
        self.findings = findings
        self.timeline = timeline
    }

    /// Every warning reading the input met, one stderr line each: `warnings`, then the lines a
    /// custom dialect's or a class pattern's PCRE2 limits gave up on. Printed by every command that
    /// reads captures, and recorded in the JSON report for `merge`.
    public var readingWarnings: [String] {
        var out = warnings
        if stats.patternLimitHits > 0 {
            out.append("\(Self.warningPrefix)\(stats.path): \(stats.patternLimitHits) lines hit a custom dialect's PCRE2 match limits and were not parsed by it")
        }
        if stats.classPatternLimitHits > 0 {
            out.append("\(Self.warningPrefix)\(stats.path): \(stats.classPatternLimitHits) class names hit an ignore_classes or persistent_classes pattern's PCRE2 match limits and were not matched by it")
        }
        return out
    }

    static let warningPrefix = "vclint: warning: "

    /// A warning line without its `vclint: warning: ` prefix (as the JSON report records it).
    static func warningText(_ line: String) -> String {
        line.hasPrefix(warningPrefix) ? String(line.dropFirst(warningPrefix.count)) : line
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
    /// The findings the app's suppression comments silenced (`--source-root`), in report order.
    public var suppressed: [SuppressedFinding] = []

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
    /// The scanner's read buffer: a line longer than this is parsed by its head.
    public static let defaultChunkSize = 1 << 20
    /// The windows a regular file is mapped in (`MappedInput.swift`).
    static let defaultMapWindow = 64 << 20

    public var timeline = TimelineOptions()
    public var rules = RuleSettings.default
    /// Where reports locate findings (`--location`, `location`): their log line or, with
    /// `--source-root`, their controller's declaration.
    public var location = FindingLocation.log
    public var chunkSize = LintOptions.defaultChunkSize
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
    /// The size of the windows a regular file is mapped in; 0: read(2) always (tests compare them).
    var mapWindow = LintOptions.defaultMapWindow
    /// Tests: called with each mapped window's file offset before it is read.
    var windowMapped: (@Sendable (Int) -> Void)?
    /// `vclint inspect`: record what was read (`FileResult.inspection`), with the timeline; one
    /// thread per input.
    public var inspect = false {
        didSet {
            if inspect {
                timeline.recordTimeline = true
                timeline.keepsClasses = true
            }
        }
    }
    public init() {}
}

/// The whole pipeline for one input: bytes → lines → events → timeline → findings.
public struct Linter: Sendable {
    public var options: LintOptions

    public init(options: LintOptions = LintOptions()) {
        self.options = options
    }

    /// Lints bytes held in memory (tests, fixtures), fed in chunks of `chunkSize`.
    public func lint(bytes: [UInt8], path: String, feedSize: Int? = nil) -> FileResult {
        let input = InputPipeline(path: path, options: options)
        bytes.withUnsafeBytes { raw in
            let step = max(1, feedSize ?? raw.count)
            var i = 0
            while i < raw.count {
                let n = min(step, raw.count - i)
                input.read(UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)]))
                i += n
            }
        }
        input.endOfInput()
        return complete(input)
    }

    public func lint(text: String, path: String = "<text>") -> FileResult {
        lint(bytes: Array(text.utf8), path: path)
    }

    /// Lints an open file descriptor to its end: a regular file to the size it has now, so that a
    /// file written faster than it is read still ends (`ReadLimit`; `--follow` follows growth). A
    /// gzip stream (a `.gz` capture, or one piped in) is recognised by its first bytes and inflated
    /// while it is read.
    public func lint(fd: Int32, path: String) throws -> FileResult {
        try lint(fd: fd, path: path, limit: ReadLimit(fd: fd))
    }

    /// Lints an open file descriptor to its end or to `limit` (taken when it was opened).
    func lint(fd: Int32, path: String, limit: ReadLimit) throws -> FileResult {
        var limit = limit
        let input = InputPipeline(path: path, options: options)
        let wanted = 2
        var head = [UInt8](repeating: 0, count: wanted)
        var got = 0
        while got < wanted {
            let n = head.withUnsafeMutableBytes { limit.read(fd, $0.baseAddress! + got, wanted - got) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputReadError.io(errno)
            }
            if n == 0 { break }
            got += n
        }
        head.removeLast(wanted - got)
        options.progress?.add(bytes: got)
        defer { options.progress?.fileDone() }
        var warnings: [String] = []
        // An input that fails midway still ends its front end: finishing releases the timeline's
        // instances and transitions, which refer to each other (they leaked when a gzip stream broke).
        var finished = false
        defer { if !finished { _ = input.finish() } }
        if head.withUnsafeBytes({ Inflater.isGzip($0) }) {
            do {
                let inflater = Inflater(fd: fd, prefix: head, limit: limit, progress: options.progress)
                try inflater.run { input.read($0) }
                input.endOfInput()
                if inflater.trailingBytes > 0 { warnings.append(Inflater.trailingWarning(inflater.trailingBytes, path: path)) }
            } catch Inflater.Failure.read(let code) {
                throw InputReadError.io(code)
            } catch Inflater.Failure.corrupt(let why) {
                throw InputReadError.compressed("not a valid gzip stream (\(why))")
            } catch {
                throw InputReadError.compressed("the gzip stream ends early (truncated)")
            }
        } else {
            try input.scan(fd: fd, head: head, limit: &limit)
        }
        finished = true
        var result = complete(input)
        if result.stats.oversizedObjects > 0 { warnings.append(JSONArrayReader.oversizedWarning(result.stats.oversizedObjects, path: path)) }
        if result.stats.overlongLines > 0 {
            warnings.append(CandidateSearch.overlongWarning(result.stats.overlongLines, chunkSize: options.chunkSize, path: path))
        }
        result.warnings = warnings
        return result
    }

    private func complete(_ input: InputPipeline) -> FileResult {
        let (stats, summary) = input.finish()
        var observations = InputPipeline.judged(summary.observations, stats)
        observations.append(contentsOf: InputPipeline.inputObservations(stats))
        var findings = RuleEngine.findings(observations, path: input.path, settings: options.rules, options: options.timeline)
        findings.attach(tests: input.stage.tests)
        let recording = input.builder.recording(summary)
        var file = FileResult(stats: stats, findings: findings, timeline: recording)
        file.tests = input.stage.tests
        file.inspection = input.inspector?.inspection(stats: stats, recording: recording)
        return file
    }
}

extension Linter {
    /// Lints every input; the result lists them in input order whatever order they finish in.
    /// An unreadable input stops the run with an `InputError` (the first one in input order).
    public func lint(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) throws -> LintResult {
        let start = Date()
        var files: [FileResult] = []
        for outcome in lintEach(sources, jobs: jobs) {
            files.append(try outcome.get())
        }
        return LintResult(files: files, seconds: Date().timeIntervalSince(start))
    }

    /// Lints every input, going on past the ones that cannot be opened or read: those are in
    /// `failures` (the run failed, exit 2) and the others' findings are all there (`vclint lint`).
    public func lintAll(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) -> LintResult {
        let start = Date()
        var result = LintResult(files: [], seconds: 0)
        for outcome in lintEach(sources, jobs: jobs) {
            switch outcome {
            case .success(let file): result.files.append(file)
            case .failure(let error): result.failures.append(error)
            }
        }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// One core per file: as many files in flight as there are cores.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Lints the inputs on up to `jobs` threads, one file per thread (a file's timeline is
    /// sequential); when there are at least twice as many threads as files in flight, each file
    /// also gets a second thread for its events (`LintOptions.pipelined`). Outcomes are in input
    /// order, so reports are deterministic.
    public func lintEach(_ sources: [InputSource], jobs: Int = Linter.defaultJobs) -> [Result<FileResult, InputError>] {
        let outcomes = OutcomeSlots(count: sources.count)
        let workers = max(1, min(jobs, sources.count))
        var spare = self
        if jobs >= 2 * workers { spare.options.pipelined = true }
        let linter = spare
        if workers == 1 {
            for (i, source) in sources.enumerated() { outcomes.set(i, linter.lintOne(source)) }
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let i = outcomes.claim() { outcomes.set(i, linter.lintOne(sources[i])) }
            }
        }
        return outcomes.all
    }

    private func lintOne(_ source: InputSource) -> Result<FileResult, InputError> {
        let fd: Int32
        do { fd = try InputResolver.open(source) } catch let e as InputError { return .failure(e) } catch {
            return .failure(InputError(path: source.displayPath, reason: "\(error)"))
        }
        defer { if fd != 0 { close(fd) } }
        do {
            return .success(try lint(fd: fd, path: source.displayPath))
        } catch InputReadError.io(let code) {
            return .failure(InputError(path: source.displayPath, reason: String(cString: strerror(code)).lowercased()))
        } catch InputReadError.compressed(let why) {
            return .failure(InputError(path: source.displayPath, reason: why))
        } catch InputReadError.truncated {
            return .failure(InputError(path: source.displayPath, reason: "the file was truncated while it was read"))
        } catch {
            return .failure(InputError(path: source.displayPath, reason: "\(error)"))
        }
    }
}

/// Work distribution and results for `lintEach`: a shared next-index counter and one slot per input.
private final class OutcomeSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [Result<FileResult, InputError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    func set(_ i: Int, _ r: Result<FileResult, InputError>) {
        lock.lock()
        slots[i] = r
        lock.unlock()
    }

    var all: [Result<FileResult, InputError>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}
