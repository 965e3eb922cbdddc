/// A test runner's own line (docs/lifecycle.md#test-boundaries): XCTest's `Test Case '-[LoginTests
/// testLogout]' started.` / `… passed (0.412 seconds).` / `failed` / `skipped` (and the Linux spelling
/// `Test Case 'LoginTests.testLogout' started at …`), `Test Suite 'LoginTests' started at …`, and
/// Swift Testing's `◇ Test testLogout() started.` / `✔ Test testLogout() passed after 0.4 seconds.` /
/// `✘ …` / `➜ … skipped`, `◇ Suite LoginTests started.`. Such a line is neither an event nor a line
/// vclint failed to read: it tells which test was running.
struct TestRunnerLine: Equatable {
    enum Kind: UInt8 { case testStarted, testEnded, suiteStarted, suiteEnded, other }
    enum Runner: UInt8 { case xctest, swiftTesting }
    var kind: Kind
    var runner: Runner
    /// `LoginTests/testLogout` (XCTest: class and method); Swift Testing: the test as printed
    /// (`testLogout()`), or the suite's name.
    var name: String

    /// Names longer than this are cut (a runner's name is short; a hostile line is not).
    static let maxName = 256

    /// Where a runner's line may begin in these bytes, else nil (`read` gives nil then): after spaces, XCTest's `T` or
    /// the first byte of Swift Testing's symbol.
    @inline(__always)
    static func start(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < b.count, b[i] == .space || b[i] == .tab { i += 1 }
        return i < b.count && (b[i] == UInt8(ascii: "T") || b[i] >= 0xC0) ? i : nil
    }

    /// The runner's line in these message bytes, if they are one. Inlined where it is called: most messages cannot begin
    /// one (`start`), and are not read further.
    @inline(__always)
    static func read(_ b: UnsafeBufferPointer<UInt8>) -> TestRunnerLine? {
        guard let i = start(b) else { return nil }
        return read(b, from: i)
    }

    /// The runner's line that may begin at `i` (`start`).
    private static func read(_ b: UnsafeBufferPointer<UInt8>, from first: Int) -> TestRunnerLine? {
        var i = first
        let n = b.count
        if b[i] == UInt8(ascii: "T") {  // T
            return xctest(b, from: i)
        }
        // Swift Testing: one symbol (any non-ASCII scalar: ◇ ✔ ✘ ➜, or the SF Symbols a Mac
        // terminal shows), a space, then `Test ` or `Suite `.
        i += 1
        while i < n, b[i] & 0xC0 == 0x80 { i += 1 }
        guard i < n, b[i] == .space else { return nil }
        i += 1
        return swiftTesting(b, from: i)
    }

    /// androidx.test's runner (the `TestRunner` tag, docs/lifecycle.md#android-tests): `started: testFoo(com.example.FooTest)`,
    /// `finished: …`, `failed: …`, and its other lines (`run started: 2 tests`, `ignored: …`, …), which name no
    /// test that starts or ends. The test is `com.example.FooTest/testFoo`, as XCTest's are named.
    static func androidx(_ b: UnsafeBufferPointer<UInt8>) -> TestRunnerLine? {
        let text = String(decoding: b, as: UTF8.self)
        let kind: Kind, rest: Substring
        if text.hasPrefix("started: ") { (kind, rest) = (.testStarted, text.dropFirst(9)) }
        else if text.hasPrefix("finished: ") { (kind, rest) = (.testEnded, text.dropFirst(10)) }
        else if text.hasPrefix("failed: ") { (kind, rest) = (.testEnded, text.dropFirst(8)) }
        else { return TestRunnerLine(kind: .other, runner: .xctest, name: "") }
        guard let open = rest.firstIndex(of: "("), let close = rest.lastIndex(of: ")"), open < close else {
            return TestRunnerLine(kind: .other, runner: .xctest, name: "")
        }
        let method = rest[..<open], cls = rest[rest.index(after: open)..<close]
        guard !method.isEmpty, !cls.isEmpty else { return TestRunnerLine(kind: .other, runner: .xctest, name: "") }
        return TestRunnerLine(kind: kind, runner: .xctest, name: String((cls + "/" + method).prefix(maxName)))
    }

    private static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ s: StaticString) -> Bool {
        let k = s.utf8CodeUnitCount
        guard i + k <= b.count else { return false }
        return s.withUTF8Buffer { p in (0..<k).allSatisfy { b[i + $0] == p[$0] } }
    }

    private static func text(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[r.lowerBound..<min(r.upperBound, r.lowerBound + maxName)]), as: UTF8.self)
    }

    /// `Test Case '…' started.` and its outcomes, `Test Suite '…' started at …`; also xcodebuild's
    /// `Test case '…' passed on '…' (0.4 seconds)` after parallel runs (an outcome without a start).
    private static func xctest(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> TestRunnerLine? {
        var i = start
        let suite: Bool
        if hasPrefix(b, at: i, "Test Case '") || hasPrefix(b, at: i, "Test case '") {
            suite = false
            i += 11
        } else if hasPrefix(b, at: i, "Test Suite '") {
            suite = true
            i += 12
        } else {
            return nil
        }
        // The name runs to the quote followed by a space and the outcome word.
        var q = i
        while q < b.count, !(b[q] == .apostrophe && q + 1 < b.count && b[q + 1] == .space) { q += 1 }
        guard q < b.count, q > i else { return nil }
        let rest = q + 2
        let kind: Kind
        if hasPrefix(b, at: rest, "started") {
            kind = suite ? .suiteStarted : .testStarted
        } else if hasPrefix(b, at: rest, "passed") || hasPrefix(b, at: rest, "failed") || hasPrefix(b, at: rest, "skipped") {
            kind = suite ? .suiteEnded : .testEnded
        } else {
            return nil
        }
        return TestRunnerLine(kind: kind, runner: .xctest, name: suite ? text(b, i..<q) : testName(b, i..<q))
    }

    /// `-[Module.LoginTests testLogout]` or `LoginTests.testLogout` (or `LoginTests.testLogout()`)
    /// → `LoginTests/testLogout`.
    private static func testName(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
        var s = r.lowerBound, e = r.upperBound
        if e - s > 4, b[s] == .hyphen || b[s] == .plus, b[s + 1] == .openBracket, b[e - 1] == .closeBracket {  // -[ … ]
            s += 2
            e -= 1
            guard let space = (s..<e).first(where: { b[$0] == .space }) else { return text(b, s..<e) }
            var cls = s
            if let dot = (s..<space).last(where: { b[$0] == .dot }) { cls = dot + 1 }  // the module
            return text(b, cls..<space) + "/" + text(b, space + 1..<e)
        }
        // `Class.method` (swift-corelibs-xctest, xcodebuild's summary): the last dot before any `(`.
        let paren = (s..<e).first { b[$0] == .openParen } ?? e
        if let dot = (s..<paren).last(where: { b[$0] == .dot || b[$0] == .slash }) {
            var cls = s
            if let outer = (s..<dot).last(where: { b[$0] == .dot }) { cls = outer + 1 }
            return text(b, cls..<dot) + "/" + text(b, dot + 1..<e)
        }
        return text(b, s..<e)
    }

    /// After the symbol: `Test NAME started.`, `Test NAME passed after …`, `failed after …`,
    /// `skipped`, `recorded an issue …`; `Suite NAME started.` and its outcomes.
    private static func swiftTesting(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> TestRunnerLine? {
        var i = start
        let suite: Bool
        if hasPrefix(b, at: i, "Test ") {
            suite = false
            i += 5
        } else if hasPrefix(b, at: i, "Suite ") {
            suite = true
            i += 6
        } else {
            return nil
        }
        let n = b.count
        // The outcome is the last of these words on the line; the name is what comes before it.
        let words: [(StaticString, Kind)] = [
            (" started", suite ? .suiteStarted : .testStarted),
            (" passed", suite ? .suiteEnded : .testEnded), (" failed", suite ? .suiteEnded : .testEnded),
            (" skipped", suite ? .suiteEnded : .testEnded), (" recorded ", .other),
        ]
        var k = i
        while k < n {
            if b[k] == .space {
                for (w, kind) in words where hasPrefix(b, at: k, w) {
                    var name = i..<k
                    // `Test case passing 1 argument … to f(x:) started.`: a case of a test already running.
                    if !suite, hasPrefix(b, at: i, "case passing ") { return TestRunnerLine(kind: .other, runner: .swiftTesting, name: "") }
                    // `Test run started.`, `Test run with 407 tests …`: the run itself.
                    if !suite, hasPrefix(b, at: i, "run with ") || k - i == 3 && hasPrefix(b, at: i, "run") {
                        return TestRunnerLine(kind: .other, runner: .swiftTesting, name: "")
                    }
                    // `✘ Test f() with 6 test cases failed after …`
                    if let with = (name.lowerBound..<name.upperBound).first(where: { hasPrefix(b, at: $0, " with ") }) { name = name.lowerBound..<with }
                    guard !name.isEmpty else { return nil }
                    return TestRunnerLine(kind: kind, runner: .swiftTesting, name: text(b, name))
                }
            }
            k += 1
        }
        return nil
    }
}

/// Which test was running at which line of one input: the runner's lines as intervals, so that a
/// finding can name its test (`Finding.test`). One entry a test (its name kept once), whatever the
/// input's size.
public struct TestBoundaries: Sendable {
    /// One test in 16 bytes (a capture may run hundreds of thousands: docs/performance.md#memory).
    struct Interval: Sendable {
        let start: Int
        /// Lines from `start` to its outcome, `UInt32.max` while it runs (or when the capture never
        /// showed one). A test longer than 4 billion lines ends there.
        private var span: UInt32 = .max
        /// Its name's number above the runner's bit.
        private let nameAndRunner: UInt32

        init(start: Int, name: Int, runner: TestRunnerLine.Runner) {
            self.start = start
            nameAndRunner = UInt32(truncatingIfNeeded: name) << 1 | UInt32(runner.rawValue & 1)
        }

        /// The line of its outcome; `Int.max` while it runs (or when the capture never showed one).
        var end: Int {
            get { span == .max ? Int.max : start + Int(span) }
            set { span = newValue == Int.max ? .max : UInt32(clamping: min(newValue - start, Int(UInt32.max - 1))) }
        }
        var name: Int { Int(nameAndRunner >> 1) }
        var runner: TestRunnerLine.Runner { nameAndRunner & 1 == 0 ? .xctest : .swiftTesting }
    }
    private var intervals: [Interval] = []
    /// Each test's name once (a few hundred thousand tests cost their names' bytes, not a String each).
    private var names = StringArena()
    /// Swift Testing's suites that are running (their names), to prefix a test's name when only one is.
    private var suites: [String] = []
    /// Runner lines read (of any kind), for `vclint inspect`.
    public private(set) var lines = 0
    /// The test that ended last (a run listener's heap analysis after it names it: docs/lifecycle.md#android-tests).
    private(set) var lastEnded: String?
    /// Tests beyond this many are not recorded (their findings name no test).
    static let maxTests = 1 << 20
    /// How many started tests the lookup looks back over for one that is still running (parallel runs).
    static let lookBack = 64

    public init() {}

    /// The tests a report read back names (`vclint merge`), without the lines they ran at.
    public init(ran tests: [String]) {
        for t in tests { _ = names.intern(t) }
    }

    public var isEmpty: Bool { intervals.isEmpty }
    public var count: Int { intervals.count }

    mutating func read(_ line: TestRunnerLine, at number: Int) {
        lines += 1
        switch line.kind {
        case .other:
            return
        case .suiteStarted:
            if line.runner == .swiftTesting, suites.count < 64 { suites.append(line.name) }
        case .suiteEnded:
            if line.runner == .swiftTesting, let k = suites.lastIndex(of: line.name) { suites.remove(at: k) }
        case .testStarted:
            guard intervals.count < Self.maxTests else { return }
            // XCTest runs a process's tests one after another: a start ends the one before it.
            if line.runner == .xctest, let last = intervals.indices.last, intervals[last].runner == .xctest, intervals[last].end == Int.max {
                intervals[last].end = number
            }
            var name = line.name
            if line.runner == .swiftTesting, suites.count == 1 { name = suites[0] + "/" + name }
            guard let id = names.intern(name) else { return }
            intervals.append(Interval(start: number, name: id, runner: line.runner))
        case .testEnded:
            var name = line.name
            if line.runner == .swiftTesting, suites.count == 1 { name = suites[0] + "/" + name }
            guard let id = names.find(name) else { return }
            for k in intervals.indices.reversed().prefix(Self.lookBack) where intervals[k].name == id && intervals[k].end == Int.max {
                intervals[k].end = number
                lastEnded = name
                return
            }
        }
    }

    /// The test running at `line`: the latest started that had not ended before it.
    public func test(at line: Int) -> String? {
        guard !intervals.isEmpty else { return nil }
        // The last interval that started before the line.
        var lo = 0, hi = intervals.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if intervals[mid].start < line { lo = mid + 1 } else { hi = mid }
        }
        var k = lo - 1
        var looked = 0
        while k >= 0, looked < Self.lookBack {
            if intervals[k].end > line { return names[intervals[k].name] }
            k -= 1
            looked += 1
        }
        return nil
    }

    /// Each test that ran, once, in the order they first started (the JUnit report's cases).
    public var ran: [String] { names.all }

    /// The tests, in the order they started (`vclint inspect`).
    public var tests: [String] { intervals.map { names[$0.name] } }
}
