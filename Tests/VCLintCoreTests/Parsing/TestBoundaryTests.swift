import Foundation
import Testing
@testable import VCLintCore

/// A capture made while tests ran carries the runner's lines (docs/lifecycle.md#test-boundaries): they
/// are neither events nor unread lines, they never end or split a session, and every finding inside a
/// test names it.
@Suite struct TestBoundaryTests {
    static let xcodebuild = "Fixtures/tests/xcodebuild-hosted-leak.log"
    static let swiftTesting = "Fixtures/tests/swift-testing-leak.log"

    static func read(_ line: String) -> TestRunnerLine? {
        Array(line.utf8).withUnsafeBufferPointer { TestRunnerLine.read($0) }
    }

    @Test func xctestLines() {
        #expect(Self.read("Test Case '-[LoginTests testLogout]' started.") == TestRunnerLine(kind: .testStarted, runner: .xctest, name: "LoginTests/testLogout"))
        #expect(Self.read("Test Case '-[ShopUITests.LoginTests testLogout]' passed (0.412 seconds).")
                == TestRunnerLine(kind: .testEnded, runner: .xctest, name: "LoginTests/testLogout"))
        #expect(Self.read("Test Case '-[LoginTests testLogout]' failed (1.002 seconds).")?.kind == .testEnded)
        #expect(Self.read("Test Case '-[LoginTests testLogout]' skipped (0.001 seconds).")?.kind == .testEnded)
        // swift-corelibs-xctest (Linux) and xcodebuild's summary of parallel runs.
        #expect(Self.read("Test Case 'LoginTests.testLogout' started at 2024-03-01 10:00:00.000")?.name == "LoginTests/testLogout")
        #expect(Self.read("Test case 'LoginTests.testLogout()' passed on 'Clone 1 of iPhone 15 - Shop (4242)' (0.412 seconds)")
                == TestRunnerLine(kind: .testEnded, runner: .xctest, name: "LoginTests/testLogout()"))
        #expect(Self.read("Test Suite 'LoginTests' started at 2024-03-01 10:00:00.000.") == TestRunnerLine(kind: .suiteStarted, runner: .xctest, name: "LoginTests"))
        #expect(Self.read("Test Suite 'All tests' passed at 2024-03-01 10:00:08.002.")?.kind == .suiteEnded)
    }

    @Test func swiftTestingLines() {
        #expect(Self.read("◇ Test testLogout() started.") == TestRunnerLine(kind: .testStarted, runner: .swiftTesting, name: "testLogout()"))
        #expect(Self.read("✔ Test testLogout() passed after 0.412 seconds.")?.kind == .testEnded)
        #expect(Self.read("✘ Test testLogout() failed after 0.412 seconds with 1 issue.")?.name == "testLogout()")
        #expect(Self.read("✘ Test jsonTimeline(_:) with 6 test cases failed after 221.903 seconds with 1 issue.")?.name == "jsonTimeline(_:)")
        #expect(Self.read("➜ Test \"Logs out\" skipped.")?.kind == .testEnded)
        #expect(Self.read("◇ Suite LoginTests started.") == TestRunnerLine(kind: .suiteStarted, runner: .swiftTesting, name: "LoginTests"))
        // A Mac terminal prints SF Symbols instead.
        #expect(Self.read("\u{1007C8} Test testLogout() started.")?.kind == .testStarted)
        // Lines of the run itself, and a case of a parameterised test, are not tests.
        #expect(Self.read("◇ Test run started.")?.kind == .other)
        #expect(Self.read("✔ Test run with 3 tests in 1 suite passed after 6.871 seconds.")?.kind == .other)
        #expect(Self.read("◇ Test case passing 1 argument signal → 2 to aSignal(signal:) started.")?.kind == .other)
        #expect(Self.read("✘ Test testLogout() recorded an issue at LoginTests.swift:12:5: Expectation failed")?.kind == .other)
    }

    @Test func appLinesAreNotRunnerLines() {
        for line in ["TestViewController viewDidLoad", "Test Case viewDidLoad", "Tests started", "◇ viewDidLoad started.",
                     "- Test foo() started.", "Test Case '' started.", "✔ Test  passed"] {
            #expect(Self.read(line) == nil || Self.read(line)?.kind == .other, "\(line)")
        }
    }

    /// Intervals: the latest test started before a line and not ended before it; XCTest's next start
    /// ends an unfinished one (a crash); parallel Swift Testing runs overlap.
    @Test func intervals() {
        var t = TestBoundaries()
        t.read(TestRunnerLine(kind: .testStarted, runner: .xctest, name: "A/a"), at: 10)
        t.read(TestRunnerLine(kind: .testEnded, runner: .xctest, name: "A/a"), at: 20)
        t.read(TestRunnerLine(kind: .testStarted, runner: .xctest, name: "A/b"), at: 30)
        t.read(TestRunnerLine(kind: .testStarted, runner: .xctest, name: "A/c"), at: 40)  // b never ended
        #expect(t.test(at: 5) == nil)
        #expect(t.test(at: 15) == "A/a")
        #expect(t.test(at: 25) == nil)
        #expect(t.test(at: 35) == "A/b")
        #expect(t.test(at: 45) == "A/c")
        var p = TestBoundaries()
        p.read(TestRunnerLine(kind: .testStarted, runner: .swiftTesting, name: "x()"), at: 1)
        p.read(TestRunnerLine(kind: .testStarted, runner: .swiftTesting, name: "y()"), at: 2)
        p.read(TestRunnerLine(kind: .testEnded, runner: .swiftTesting, name: "y()"), at: 5)
        #expect(p.test(at: 3) == "y()")
        #expect(p.test(at: 6) == "x()")
    }

    /// An interval keeps its test's runner and its end however far apart the lines are (16 bytes a
    /// test); lines past 4 billion from the start of one test end it there.
    @Test func packedIntervals() {
        var t = TestBoundaries()
        let far = 5_000_000_000
        t.read(TestRunnerLine(kind: .testStarted, runner: .swiftTesting, name: "s()"), at: far)
        t.read(TestRunnerLine(kind: .testEnded, runner: .swiftTesting, name: "s()"), at: far + 3_000_000_000)
        t.read(TestRunnerLine(kind: .testStarted, runner: .xctest, name: "A/a"), at: far + 3_000_000_001)
        #expect(MemoryLayout<TestBoundaries.Interval>.stride == 16)
        #expect(t.test(at: far + 2_999_999_999) == "s()")
        #expect(t.test(at: far + 3_000_000_000) == nil)
        #expect(t.test(at: far + 9_000_000_000) == "A/a")  // still running: a start ends only XCTest's own
        t.read(TestRunnerLine(kind: .testEnded, runner: .xctest, name: "A/a"), at: far + 3_000_000_001 + 4_300_000_000)
        #expect(t.test(at: far + 3_000_000_001 + Int(UInt32.max) - 2) == "A/a")
        #expect(t.test(at: far + 3_000_000_001 + Int(UInt32.max)) == nil)
        #expect(t.ran == ["s()", "A/a"])
    }

    /// The runner's lines removed: the same findings, timed the same (the leak's "session went on").
    static func withoutRunnerLines(_ fixture: String) throws -> (FileResult, FileResult) {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(fixture), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let kept = lines.filter { Self.read($0) == nil }
        return (Linter().lint(text: text, path: fixture), Linter().lint(text: kept.joined(separator: "\n"), path: fixture))
    }

    @Test(arguments: [xcodebuild, swiftTesting])
    func findingsNameTheirTestAndKeepTheirTiming(_ fixture: String) throws {
        let (with, without) = try Self.withoutRunnerLines(fixture)
        #expect(with.stats.unrecognized == 0, "runner lines are not unread lines (a test named testViewDidLoadOnce included)")
        #expect(with.stats.sessions == 1 && without.stats.sessions == 1)
        #expect(with.findings.map(\.rule) == ["leaked_controller"])
        #expect(with.findings.map(\.severity) == without.findings.map(\.severity))
        // The messages quote line numbers, which moved: compare past them.
        func words(_ f: Finding) -> String { f.message.replacing(/line \d+/, with: "line N") }
        #expect(with.findings.map(words) == without.findings.map(words))
        #expect(with.findings.first?.test == (fixture == Self.xcodebuild ? "CheckoutFlowTests/testPushDetail" : "CheckoutFlowTests/pushDetail()"))
        #expect(without.findings.first?.test == nil)
        #expect(with.tests.count == (fixture == Self.xcodebuild ? 4 : 3))
    }

    @Test func liveFindingsNameTheirTest() throws {
        let bytes = [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(Self.xcodebuild)))
        let live = LiveLinter(path: Self.xcodebuild)
        var found = bytes.withUnsafeBytes { live.consume($0) }
        found += live.finish().late
        #expect(found.map(\.test) == ["CheckoutFlowTests/testPushDetail"])
    }

    @Test func reportsCarryTheTest() throws {
        let file = Linter().lint(bytes: [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(Self.xcodebuild))), path: Self.xcodebuild)
        let result = LintResult(files: [file])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter().report(result).utf8)) as? [String: Any])
        let violation = try #require((json["violations"] as? [[String: Any]])?.first)
        #expect(violation["test"] as? String == "CheckoutFlowTests/testPushDetail")
        // Absent, not null, outside tests.
        let plain = LintResult(files: [try lintFixture("Fixtures/seeds/navtest-missing-dealloc.log")])
        #expect(!JSONReporter().report(plain).contains("\"test\""))
        // SARIF: in the result's properties.
        #expect(SARIFReporter().report(result).replacingOccurrences(of: " ", with: "").contains("\"test\":\"CheckoutFlowTests/testPushDetail\""))
        // JUnit: the finding's test case is its test's.
        let junit = JUnitReporter().report(result)
        #expect(junit.contains("<testcase classname=\"CheckoutFlowTests\" name=\"testPushDetail\">"))
        #expect(junit.contains("(leaked_controller)"))
    }

    @Test func mergeKeepsTheTest() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = dir.appendingPathComponent("shard.json").path
        _ = try CLITests().run(["lint", Self.xcodebuild, "--reporter", "json:\(shard)"])
        let merged = try CLITests().run(["merge", shard, "--reporter", "json"])
        #expect(merged.stdout.contains("\"test\": \"CheckoutFlowTests/testPushDetail\""))
    }

    @Test func leaksAreGroupedByTest() throws {
        let run = try CLITests().run(["leaks", Self.xcodebuild])
        #expect(run.stdout.contains("By test"))
        #expect(run.stdout.contains("CheckoutFlowTests/testPushDetail: 1 leak: ProductDetailViewController"))
        let json = try CLITests().run(["leaks", "--format", "json", Self.xcodebuild])
        #expect(json.stdout.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "").contains("\"tests\":[{\"test\":\"CheckoutFlowTests/testPushDetail\""))
    }
}
