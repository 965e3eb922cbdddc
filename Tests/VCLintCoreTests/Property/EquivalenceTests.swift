import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// The fast path (candidate-line search, parallel files, streaming gzip) is an optimisation only:
/// findings, line numbers and the JSON report must be byte-identical to the unoptimised path, where
/// every line goes through the full parser, one file after another, from plain text.
@Suite struct EquivalenceTests {
    static func json(_ files: [FileResult]) -> String { JSONReporter().report(LintResult(files: files)) }

    /// The events on a second thread, in batches of a few lines (many hand-overs), every other
    /// batch parsed on the scanner's thread.
    static func pipelined(batchRecords: Int) -> LintOptions {
        var o = LintOptions()
        o.pipelined = true
        o.pipeBatch = EventPipe.BatchSize(bytes: 600, records: batchRecords, scannerParsesEvery: 2)
        return o
    }

    static func reference(_ bytes: [UInt8], path: String, options: LintOptions = LintOptions()) -> FileResult {
        var o = options
        o.prefilter = false
        return Linter(options: o).lint(bytes: bytes, path: path)
    }

    @Test func fixturesMatchTheUnoptimisedPath() throws {
        let fixtures = allFixtureLogs()
        #expect(fixtures.count > 20)
        for fixture in fixtures {
            let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture)))
            let fast = Self.json([Linter().lint(bytes: bytes, path: fixture)])
            let slow = Self.json([Self.reference(bytes, path: fixture)])
            #expect(fast == slow, "\(fixture): the candidate search changed the report")
            let piped = Self.json([Linter(options: Self.pipelined(batchRecords: 3)).lint(bytes: bytes, path: fixture, feedSize: 4093)])
            #expect(piped == slow, "\(fixture): the events thread changed the report")
        }
    }

    /// Generated captures in every envelope and dialect, with noise (including lines that mention
    /// callbacks without being events) and faults, at odd chunk boundaries.
    @Test func generatedLogsMatchTheUnoptimisedPath() {
        let faults: [NavigationSimulator.Fault?] = [nil] + NavigationSimulator.Fault.classic
        var compared = 0
        for envelope in EnvelopeFormat.allCases {
            for dialect in NavigationSimulator.Dialect.allCases {
                let seed = UInt64(envelope.index * 31 + compared)
                var o = NavigationSimulator.Options(seed: seed)
                o.envelope = envelope
                o.dialect = dialect
                o.noise = 6
                o.fault = faults[compared % faults.count]
                let bytes = Array(NavigationSimulator.generate(o).text.utf8)
                var fastOptions = LintOptions()
                fastOptions.chunkSize = 4096
                let fast = Self.json([Linter(options: fastOptions).lint(bytes: bytes, path: "gen.log", feedSize: 997)])
                let slow = Self.json([Self.reference(bytes, path: "gen.log")])
                #expect(fast == slow, "seed \(seed) \(envelope) \(dialect): reports differ")
                var pipedOptions = Self.pipelined(batchRecords: 1 + compared % 50)
                pipedOptions.chunkSize = 4096
                let piped = Self.json([Linter(options: pipedOptions).lint(bytes: bytes, path: "gen.log", feedSize: 1009)])
                #expect(piped == slow, "seed \(seed) \(envelope) \(dialect): the events thread changed the report")
                compared += 1
            }
        }
        #expect(compared == EnvelopeFormat.allCases.count * NavigationSimulator.Dialect.allCases.count)
    }

    /// Files linted in parallel give the same report, in input order, as one after another.
    @Test func parallelFilesMatchSequential() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-eq-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var sources: [InputSource] = []
        for i in 0..<9 {
            var o = NavigationSimulator.Options(seed: UInt64(100 + i))
            o.sessions = 1 + i % 3
            o.steps = 10 + 13 * i  // different sizes, so files finish out of order
            o.fault = i % 2 == 0 ? NavigationSimulator.Fault.classic[i % NavigationSimulator.Fault.classic.count] : nil
            let url = dir.appendingPathComponent("capture-\(i).log")
            try NavigationSimulator.generate(o).text.write(to: url, atomically: true, encoding: .utf8)
            sources.append(.file(url.path))
        }
        let sequential = try Linter().lint(sources, jobs: 1)
        let parallel = try Linter().lint(sources, jobs: 4)
        #expect(sequential.findings.count > 0)
        #expect(Self.json(parallel.files) == Self.json(sequential.files))
        // Twice as many threads as files: each file also gets an events thread.
        let pipelined = try Linter().lint(sources, jobs: 2 * sources.count)
        #expect(Self.json(pipelined.files) == Self.json(sequential.files))
        #expect(parallel.files.map(\.stats.path) == sources.map(\.displayPath))
    }

    /// A `.gz` capture is inflated while streaming: the same report as the plain file, also for
    /// concatenated gzip members; a damaged or cut-off stream is an input error, not a clean run.
    @Test func gzipMatchesPlainText() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-gz-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var o = NavigationSimulator.Options(seed: 77)
        o.steps = 400
        o.noise = 8
        o.fault = .leak
        let plain = dir.appendingPathComponent("capture.log")
        try NavigationSimulator.generate(o).text.write(to: plain, atomically: true, encoding: .utf8)
        #expect(try Data(contentsOf: plain).count > 3 * Inflater.blockSize / 2, "spans several inflate blocks")
        let gz = dir.appendingPathComponent("capture.log.gz")
        try shell("gzip -c '\(plain.path)' > '\(gz.path)'")
        let twice = dir.appendingPathComponent("twice.log.gz")
        try shell("cat '\(gz.path)' '\(gz.path)' > '\(twice.path)'")
        let cut = dir.appendingPathComponent("cut.log.gz")
        try shell("head -c 20000 '\(gz.path)' > '\(cut.path)'")

        let a = try Linter().lint([.file(plain.path)]).files[0]
        let b = try Linter().lint([.file(gz.path)]).files[0]
        #expect(a.summary == b.summary)
        #expect(a.summary.contains { $0.hasPrefix("leaked_controller@") })
        #expect(a.stats.lines == b.stats.lines && a.stats.bytes == b.stats.bytes && a.stats.events == b.stats.events)
        let c = try Linter().lint([.file(twice.path)]).files[0]
        #expect(c.stats.lines == 2 * a.stats.lines)

        #expect(InputResolver.isLogName("capture.log.gz") && InputResolver.isLogName("x.NDJSON") && !InputResolver.isLogName("x.gz"))
        #expect(try InputResolver.resolve([dir.path]).count == 4, "capture.log and three .log.gz")

        let outcome = Linter().lintEach([.file(cut.path)])[0]
        guard case .failure(let error) = outcome else {
            Issue.record("a truncated gzip stream linted as complete")
            return
        }
        #expect(error.reason.contains("truncated"))
    }

    /// The micro-benchmarks' inputs are what the scanner hands the timeline, event for event.
    @Test func benchmarkInputsAreTheScannersEvents() {
        var o = NavigationSimulator.Options(seed: 5)
        o.envelope = .ndjson
        o.noise = 4
        let bytes = Array(NavigationSimulator.generate(o).text.utf8)
        let lines = BenchmarkSupport.lifecycleLines(in: bytes)
        let result = Linter().lint(bytes: bytes, path: "gen.log")
        #expect(lines.count == result.stats.events && lines.count > 50)
        let parser = MessageParser()
        #expect(lines.allSatisfy { l in l.message.withUnsafeBufferPointer { parser.parse($0)?.kind == l.event.kind } })
    }

    private func shell(_ command: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(command)")
    }
}
