import Foundation
import Testing
@testable import VCLintCore

/// A capture of `n` findings: a controller that appears once, then `n` viewDidAppear without a
/// viewWillAppear (one `unbalanced_appearance` each).
func manyFindingsCapture(_ n: Int) -> String {
    let head = "2024-03-01 10:00:00.000 Shop[100:200] -[HomeViewController "
    return ["viewDidLoad]", "viewWillAppear:]", "viewDidAppear:]"].map { head + $0 + "\n" }.joined()
        + String(repeating: head + "viewDidAppear:]\n", count: n)
}

/// The buffered writer every report goes through.
@Suite struct ReportWriterTests {
    func temporaryFile() throws -> (Int32, URL) {
        let url = scratchRoot.appendingPathComponent("vclint-writer-\(UUID().uuidString)")
        let fd = open(url.path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        return (fd, url)
    }

    /// Pieces smaller than, as large as and larger than the buffer, across its boundary: to a file
    /// and in memory, every byte arrives once and in order.
    @Test func piecesAroundTheBufferSizeArriveWholeAndInOrder() throws {
        let size = ReportWriter.bufferSize
        let pieces = [1, size - 2, 3, size, 7, size + 1, 2 * size + 5, 11].enumerated().map { i, n in
            String(repeating: String(UnicodeScalar(UInt8(ascii: "a") + UInt8(i))), count: n)
        } + ["é→𝄞"]
        let (fd, url) = try temporaryFile()
        defer { close(fd); try? FileManager.default.removeItem(at: url) }
        let file = ReportWriter(descriptor: fd)
        let memory = ReportWriter()
        for p in pieces {
            try file.write(p)
            try memory.write(p)
        }
        try file.flush()
        let expected = Data(pieces.joined().utf8)  // compared as Data: a mismatch prints sizes, not 200 KiB of text
        #expect(try Data(contentsOf: url) == expected)
        #expect(Data(memory.text.utf8) == expected)
    }

    /// Bytes the buffer cannot hold are written at once, so a device that takes nothing fails the
    /// write that overflows the buffer, not only the last flush.
    @Test func aFailedWriteIsThrownAsSoonAsItHappens() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let out = ReportWriter(descriptor: fd)
        try out.write("small")
        let e = #expect(throws: ReportWriteError.self) { try out.write(String(repeating: "x", count: ReportWriter.bufferSize)) }
        #expect(e?.code == ENOSPC)
        #expect(e?.description == "no space left on device")
        try out.write("small")
        #expect(throws: ReportWriteError.self) { try out.flush() }
    }

    /// What `JSONStream` writes for a document streamed container by container is what
    /// `serialized()` writes for the whole tree, empty containers included.
    @Test func aStreamedJSONDocumentIsTheSerializedOne() throws {
        let doc: JSONValue = .object([
            ("version", .int(1)),
            ("tool", .object([("name", .string("vclint")), ("version", .string(VCLintVersion.version))])),
            ("empty", .array([])),
            ("items", .array([
                .object([("a", .int(1)), ("b", .array([.int(1), .int(2)])), ("c", .object([]))]),
                .object([("nested", .object([("deep", .array([.object([("x", .null)])]))])), ("s", .string("\"q\"\n"))]),
            ])),
            ("runs", .array([.object([("results", .array([])), ("more", .array([.object([("k", .bool(true))])]))])])),
        ])
        /// Streams a container when it holds a container (as the reporters do), writes anything else whole.
        func stream(_ v: JSONValue, key: String?, _ json: JSONStream) throws {
            switch v {
            case .object(let pairs) where pairs.contains(where: { !$0.1.isScalar }):
                try json.openObject(key)
                for (k, member) in pairs { try stream(member, key: k, json) }
                try json.close()
            case .array(let items) where items.contains(where: { !$0.isScalar }):
                try json.openArray(key)
                for item in items { try stream(item, key: nil, json) }
                try json.close()
            default:
                try json.value(v, key: key)
            }
        }
        let out = ReportWriter()
        try stream(doc, key: nil, JSONStream(out))
        #expect(out.text == doc.serialized())
    }
}

/// Every reporter writes finding by finding, through the buffer, the same bytes as its report in
/// memory, for reports many times the buffer's size.
@Suite struct StreamingReporterTests {
    static let many = LintResult(files: [
        Linter().lint(text: manyFindingsCapture(1500), path: "first.log"),
        Linter().lint(text: "", path: "empty.log"),
        Linter().lint(text: manyFindingsCapture(700), path: "second.log"),
    ])

    @Test(arguments: ReporterRegistry.names)
    func aReportStreamedToAFileIsTheReportInMemory(name: String) throws {
        let reporter = try #require(ReporterRegistry.reporter(named: name))
        let url = scratchRoot.appendingPathComponent("vclint-stream-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        let out = ReportWriter(descriptor: fd)
        try reporter.write(Self.many, to: out)
        try out.flush()
        close(fd)
        let streamed = try Data(contentsOf: url)
        // (Markdown and GitHub's annotations are bounded: a table's rows, a step's annotations.)
        #expect(name == MarkdownReporter.identifier || name == GitHubActionsReporter.identifier || streamed.count > 4 * ReportWriter.bufferSize)
        #expect(streamed == Data(reporter.report(Self.many).utf8))
    }

    /// The documents hold every finding, read back by parsers rather than compared to another rendering.
    @Test func theDocumentsHoldEveryFinding() throws {
        let total = Self.many.files.reduce(0) { $0 + $1.findings.count }
        #expect(total == 2201)  // 1500 + 700 + the empty input's no_lifecycle_events
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter().report(Self.many).utf8)) as? [String: Any])
        #expect((json["violations"] as? [Any])?.count == total)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter().report(Self.many).utf8)) as? [String: Any])
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == total)
        #expect((run["artifacts"] as? [Any])?.count == 3)
        #expect(try XMLTree.parse(CheckstyleReporter().report(Self.many)).all("error").count == total)
        let failures = try XMLTree.parse(JUnitReporter().report(Self.many)).all("failure")
        #expect(failures.map { $0.text.split(separator: "\n").count } == [1500, 1, 700])
        #expect(failures.first?.attributes["message"] == "1500 findings at lines " + (4...1503).map(String.init).joined(separator: ", "))
        #expect(XcodeReporter().report(Self.many).split(separator: "\n").count == total)
        // GitHub shows 10 annotations of a severity: the rest are one notice's count.
        let annotations = GitHubActionsReporter().report(Self.many).split(separator: "\n")
        #expect(annotations.count == 11)
        #expect(annotations.last?.hasPrefix("::notice title=vclint::\(RunSummary.plural(Self.many.count(.error) - 10, "error")) (") == true)
        #expect(MarkdownReporter().report(Self.many).hasSuffix("\n… and \(total - 100) more findings not shown.\n"))
    }

    /// Checkstyle groups findings by their own path, in order of first appearance, across inputs
    /// and with paths interleaved in one input.
    @Test func checkstyleGroupsByPathAcrossInputs() throws {
        let result = LintResult(files: [
            FileResult(stats: InputStats(path: "a.log"), findings: [
                Hostile.finding(line: 1, path: "h.log"), Hostile.finding(line: 2, path: "x.log"), Hostile.finding(line: 3, path: "h.log"),
            ]),
            FileResult(stats: InputStats(path: "x.log"), findings: [Hostile.finding(line: 4, path: "x.log")]),
            FileResult(stats: InputStats(path: "b.log"), findings: []),
        ])
        let tree = try XMLTree.parse(CheckstyleReporter().report(result))
        #expect(tree.all("file").map { $0.attributes["name"] } == ["a.log", "h.log", "x.log", "b.log"])
        #expect(tree.all("error").map { $0.attributes["line"] } == ["1", "3", "2", "4"])
    }
}
