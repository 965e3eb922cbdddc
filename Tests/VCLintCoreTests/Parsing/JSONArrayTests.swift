import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// `log show --style json` (docs/lifecycle.md#envelopes): one pretty-printed array of the objects
/// `--style ndjson` prints one a line, read object by object in bounded memory, each finding on the
/// line of its object's `eventMessage`.
@Suite(.serialized) struct JSONArrayTests {
    static let ndjsonFixture = "Fixtures/envelopes/log-show-twin.ndjson"
    static let jsonFixture = "Fixtures/envelopes/log-show.json"

    static func bytes(_ fixture: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(fixture))) }

    /// What a finding says whatever its line: rule, controller and severity.
    static func kinds(_ result: FileResult) -> [String] {
        result.findings.map { "\($0.rule) \($0.controller.className)#\($0.controller.instance) \($0.severity)" }.sorted()
    }

    static func lines(_ text: [UInt8]) -> [Substring] {
        String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { $0 }
    }

    /// The objects of an ndjson capture as `log show --style json` lays them out (as
    /// Fixtures/envelopes/make-log-show.py does): `[{`, one member a line, `},{`, `}]`. Only flat
    /// objects (the simulator's and the tests' own).
    static func pretty(ndjson: String) -> String {
        var out = ""
        let objects = ndjson.split(separator: "\n").filter { $0.hasPrefix("{") }
        for (i, object) in objects.enumerated() {
            out += i == 0 ? "[{\n" : "},{\n"
            let members = try! JSONSerialization.jsonObject(with: Data(object.utf8)) as! [String: Any]
            // eventMessage first, the time after it, as log prints them.
            let keys = members.keys.sorted { ($0 == "eventMessage" ? 0 : 1, $0) < ($1 == "eventMessage" ? 0 : 1, $1) }
            out += keys.map { key -> String in
                let value = try! JSONSerialization.data(withJSONObject: members[key]!, options: [.fragmentsAllowed])
                return "  \"\(key)\" : " + String(decoding: value, as: UTF8.self)
            }.joined(separator: ",\n") + "\n"
        }
        return out + "}]\n"
    }

    @Test func theFixtureReadsAsItsNDJSONTwinOnTheEventMessageLines() throws {
        let ndjson = Linter().lint(bytes: try Self.bytes(Self.ndjsonFixture), path: Self.ndjsonFixture)
        let jsonBytes = try Self.bytes(Self.jsonFixture)
        let json = Linter().lint(bytes: jsonBytes, path: Self.jsonFixture)
        #expect(Self.kinds(json) == Self.kinds(ndjson))
        #expect(!json.findings.isEmpty)
        #expect(json.stats.events == ndjson.stats.events)
        let lines = Self.lines(jsonBytes)
        for f in json.findings {
            #expect(lines[f.line - 1].hasPrefix("  \"eventMessage\" : "), "\(f.rule)@\(f.line)")
        }
        // Its lines and bytes are the file's; every line counts as json.
        #expect(json.stats.lines == lines.count - 1)
        #expect(json.stats.bytes == jsonBytes.count)
        #expect(json.stats.formats == [.json: json.stats.lines])
        #expect(json.stats.unrecognized == 0)
    }

    /// The simulator's captures in both envelopes (its json is log show's layout): the same findings
    /// by rule, controller and severity, and each at the eventMessage line the ground truth names.
    @Test func simulatedCapturesGiveTheSameFindingsAsNDJSON() {
        // The objects' faults once vclint judges objects (their rules' findings are the truth's).
        let faults: [NavigationSimulator.Fault?] = [nil] + NavigationSimulator.Fault.allCases.filter { !$0.needsObjects || ObjectSimulationTests.judgesObjects }
        for (k, fault) in faults.enumerated() {
            var o = NavigationSimulator.Options(seed: UInt64(700 + k))
            o.noise = 3
            o.fault = fault
            o.envelope = .ndjson
            let ndjson = Linter().lint(text: NavigationSimulator.generate(o).text)
            o.envelope = .json
            let generated = NavigationSimulator.generate(o)
            let json = Linter().lint(text: generated.text)
            #expect(Self.kinds(json) == Self.kinds(ndjson), "\(fault?.rawValue ?? "legal")")
            for (rule, line) in generated.expected {
                #expect(json.findings.contains { $0.rule == rule && $0.line == line }, "\(rule)@\(line)")
            }
            // And the same ndjson laid out by another hand.
            let relaid = Linter().lint(text: Self.pretty(ndjson: NavigationSimulator.generate({ var n = o; n.envelope = .ndjson; return n }()).text))
            #expect(Self.kinds(relaid) == Self.kinds(ndjson), "\(fault?.rawValue ?? "legal") relaid")
        }
    }

    /// The fixtures in ndjson, laid out as json.
    @Test func ndjsonFixturesLaidOutAsJSONGiveTheSameFindings() throws {
        for fixture in ["Fixtures/envelopes/ndjson.ndjson", Self.ndjsonFixture] {
            let text = String(decoding: try Self.bytes(fixture), as: UTF8.self)
            let ndjson = Linter().lint(text: text)
            let json = Linter().lint(text: Self.pretty(ndjson: text))
            #expect(Self.kinds(json) == Self.kinds(ndjson), "\(fixture)")
            #expect(json.stats.events == ndjson.stats.events, "\(fixture)")
        }
    }

    @Test func readsAreIndependentOfWhereTheInputIsSplit() throws {
        let bytes = try Self.bytes(Self.jsonFixture)
        let whole = EquivalenceTests.json([Linter().lint(bytes: bytes, path: "a.json")])
        for feed in [1, 7, 4096] {
            #expect(EquivalenceTests.json([Linter().lint(bytes: bytes, path: "a.json", feedSize: feed)]) == whole, "feed \(feed)")
        }
        var small = LintOptions()
        small.chunkSize = 1024
        #expect(EquivalenceTests.json([Linter(options: small).lint(bytes: bytes, path: "a.json", feedSize: 7)]) == whole)
        #expect(EquivalenceTests.json([EquivalenceTests.reference(bytes, path: "a.json")]) == whole)
    }

    /// Cut anywhere, the array is read up to its last object with a whole eventMessage; never a trap.
    @Test func aTruncatedArrayReadsItsCompleteObjects() throws {
        let bytes = try Self.bytes(Self.jsonFixture)
        let lines = Self.lines(bytes)
        // Cut just after the eventMessage line of the 9th object: its event is read.
        let messageLines = lines.indices.filter { lines[$0].hasPrefix("  \"eventMessage\"") }
        let cut = lines[...messageLines[8]].map { $0.utf8.count + 1 }.reduce(0, +)
        let head = Linter().lint(bytes: Array(bytes[..<cut]), path: "cut.json")
        #expect(head.stats.events == 9)
        // Cut inside the eventMessage value: that object is dropped.
        let inside = Linter().lint(bytes: Array(bytes[..<(cut - 10)]), path: "cut.json")
        #expect(inside.stats.events == 8)
        for size in stride(from: 0, to: bytes.count, by: 97) {
            let r = Linter().lint(bytes: Array(bytes[..<size]), path: "cut.json")
            #expect(r.stats.lines <= lines.count)
        }
        // An array with nothing readable is no_lifecycle_events, not a clean run.
        let broken = Linter().lint(text: "[{\n  \"traceID\" : 1,\n  \"eventMessage\" : \"HomeView")
        #expect(broken.summary == ["no_lifecycle_events@1"])
    }

    /// Garbage between and inside objects costs the objects it breaks, not the ones after it.
    @Test func garbageInTheArrayIsSkipped() {
        let text = """
        [{
          "eventMessage" : "-[HomeViewController viewDidLoad]",
          "timestamp" : "2020-04-01 16:30:40.000000+0800",
          "processID" : 7
        },
        not json at all ]]] }}} "unclosed
        ,{
          "eventMessage" : "-[HomeViewController viewWillAppear:]",
          GARBAGE "timestamp" : 3,
          "processID" : 7
        },{
          "timestamp" : "2020-04-01 16:30:40.200000+0800",
          "processID" : 7,
          "eventMessage" : "-[HomeViewController viewDidAppear:]"
        },17,"x",[1,2],{
          "eventMessage" : "-[HomeViewController viewWillDisappear:]",
          "processID" : 7
        }]
        trailing words
        """
        let r = Linter().lint(text: text)
        #expect(r.stats.events == 4)
        #expect(r.stats.lines == 19)
        #expect(r.stats.formats == [.json: 19])
        #expect(Linter().lint(bytes: Array(text.utf8), path: "g.json", feedSize: 1).stats.events == 4)
    }

    /// A compact array (jq -c): objects that share a line each get one after it.
    @Test func aCompactArrayIsReadToo() {
        let text = #"[{"eventMessage":"-[A viewDidLoad]","processID":1},{"eventMessage":"-[A viewWillAppear:]","processID":1}]"#
        let r = Linter().lint(text: text)
        #expect(r.stats.events == 2)
        #expect(r.stats.lines == 2)
    }

    @Test func anOversizedObjectIsSkippedAndCounted() throws {
        let huge = String(repeating: "x", count: JSONArrayReader.maxObjectBytes + 10)
        let text = "[{\n  \"eventMessage\" : \"-[A viewDidLoad] \(huge)\"\n},{\n  \"eventMessage\" : \"-[A viewWillAppear:]\"\n}]\n"
        let r = Linter().lint(text: text)
        #expect(r.stats.oversizedObjects == 1)
        #expect(r.stats.events == 1)
        #expect(r.stats.lines == 5)
        // Through a file, the count is a warning for stderr.
        let path = scratchRoot.appendingPathComponent("vclint-big-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let viaFile = try Linter().lint(fd: fd, path: path)
        #expect(viaFile.warnings == [JSONArrayReader.oversizedWarning(1, path: path)])
        #expect(viaFile.stats.bytes == text.utf8.count)
    }

    /// One object at a time: 16 MiB of objects (nested backtraces and all) through the translator
    /// hold no more than a chunk and an object, and keep the line count.
    @Test func memoryStaysBoundedOverAGeneratedArray() {
        let object = Array("""
        {
          "traceID" : 1234,
          "eventMessage" : "-[DetailViewController viewDidLoad]",
          "backtrace" : {
            "frames" : [
              {
                "imageOffset" : 40000,
                "imageUUID" : "A1D6C3E0-7F2B-3B19-9E44-51C0D8F2A6B7"
              }
            ]
          },
          "timestamp" : "2020-04-01 16:30:45.465638+0800",
          "processID" : 63209
        }
        """.utf8)
        var chunk: [UInt8] = Array("[".utf8)
        var lines = 0
        var ends = LineEndTranslator()
        var out = 0, outLines = 0, largest = 0
        var fed = 0
        while fed < 16 << 20 {
            chunk.removeAll(keepingCapacity: true)
            if fed == 0 { chunk += Array("[".utf8) }
            while chunk.count < 64 * 1024 {
                chunk += object
                chunk += Array(",".utf8)
            }
            lines += chunk.filter { $0 == 0x0A }.count
            fed += chunk.count
            chunk.withUnsafeBytes { ends.pass($0) { b in out += b.count; outLines += b.filter { $0 == 0x0A }.count; largest = max(largest, b.count) } }
            #expect(ends.heldBytes < 2 * JSONArrayReader.maxObjectBytes)
        }
        Array("{}]\n".utf8).withUnsafeBytes { ends.pass($0) { b in out += b.count; outLines += b.filter { $0 == 0x0A }.count } }
        ends.finish { b in out += b.count; outLines += b.filter { $0 == 0x0A }.count }
        #expect(ends.mode == .json)
        #expect(outLines == lines + 1)
        #expect(largest < 256 * 1024)
        #expect(out < fed / 2)
    }

    @Test func theStartDecides() {
        func mode(_ text: String) -> LineEndTranslator.Mode {
            var t = LineEndTranslator()
            Array(text.utf8).withUnsafeBytes { t.pass($0) { _ in } }
            t.finish { _ in }
            return t.mode
        }
        #expect(mode("[{\n  \"a\" : 1\n}]\n") == .json)
        #expect(mode("\u{FEFF}\n\n  [\n  {\n\"eventMessage\":\"x\"}]") == .json)
        #expect(mode("[7397:f803] -[A viewDidLoad]\n") == .plain)
        #expect(mode("[{(\n") == .plain)
        #expect(mode("[]\n") == .plain)
        #expect(mode("{\"eventMessage\":\"x\"}\n") == .plain)
        #expect(mode("a\rb\r") == .classic)
        // A log array, not any JSON, for a folder walk.
        #expect(JSONArraySniff.isLogArray(Array("[{\n  \"traceID\" : 1,\n  \"eventMessage\" : \"x\"".utf8)))
        #expect(!JSONArraySniff.isLogArray(Array("[{\"id\": 1, \"name\": \"timestampish\"}]".utf8)))
        #expect(!JSONArraySniff.isLogArray(Array("{\"name\": \"x\", \"timestamp\": 1}".utf8)))
    }

    /// A folder walk reads the log arrays among its .json files (and .json.gz), and leaves the others.
    @Test func aFolderWalkReadsLogArraysOnly() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.bytes(Self.jsonFixture)
        try Data(log).write(to: dir.appendingPathComponent("capture.json"))
        try Data("{\"name\": \"app\", \"version\": \"1.0.0\"}\n".utf8).write(to: dir.appendingPathComponent("package.json"))
        try Data("[{\"id\" : 1}]\n".utf8).write(to: dir.appendingPathComponent("other.json"))
        let report = EquivalenceTests.json([Linter().lint(bytes: log, path: "capture.json")])
        try Data(report.utf8).write(to: dir.appendingPathComponent("report.json"))
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/sh")
        gz.arguments = ["-c", "gzip -c capture.json > zipped.json.gz"]
        gz.currentDirectoryURL = dir
        try gz.run()
        gz.waitUntilExit()
        let found = try InputResolver.resolve([dir.path], ignoring: false).map(\.displayPath).map { ($0 as NSString).lastPathComponent }
        #expect(found == ["capture.json", "zipped.json.gz"])
        let result = try Linter().lint(InputResolver.resolve([dir.path], ignoring: false))
        #expect(result.files.map { Self.kinds($0) } == [Self.kinds(Linter().lint(bytes: log, path: "x"))] + [Self.kinds(Linter().lint(bytes: log, path: "x"))])
        #expect(result.files[1].findings.map(\.line) == result.files[0].findings.map(\.line))
        // Named, any file is read (and a report is not a capture: no event).
        let named = try Linter().lint(InputResolver.resolve([dir.appendingPathComponent("package.json").path]))
        #expect(named.files[0].summary == ["no_lifecycle_events@1"])
    }

    /// `--follow` on a growing json capture: each object is read once its closing brace is written,
    /// and the result is the batch one.
    @Test func followingAGrowingArray() throws {
        let bytes = try Self.bytes(Self.jsonFixture)
        let live = LiveLinter(path: "live.json")
        var streamed: [Finding] = []
        var i = 0
        while i < bytes.count {
            let n = min(333, bytes.count - i)
            streamed += bytes[i..<(i + n)].withUnsafeBytes { live.consume($0) }
            i += n
        }
        #expect(!streamed.isEmpty, "the leak is decided before the input ends")
        let (late, result) = live.finish()
        let batch = Linter().lint(bytes: bytes, path: "live.json")
        #expect((streamed + late).map(LiveFollowerTests.key).sorted() == batch.findings.map(LiveFollowerTests.key).sorted())
        #expect(result.stats.formats == [.json: batch.stats.lines])
        #expect(result.stats.bytes == bytes.count)
    }

    @Test func inspectShowsTheJSONEnvelope() throws {
        var o = LintOptions()
        o.inspect = true
        let r = Linter(options: o).lint(bytes: try Self.bytes(Self.jsonFixture), path: Self.jsonFixture)
        let inspection = try #require(r.inspection)
        #expect(inspection.envelopes.map(\.format) == [.json])
        #expect(inspection.envelopes.first?.example != nil)
        #expect(inspection.unreadGroups.isEmpty)
    }
}
