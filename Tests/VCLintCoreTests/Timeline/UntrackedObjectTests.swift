import Testing
@testable import VCLintCore

/// Objects of a class that never logs its deinit are counted, not tracked, past the first
/// `SessionTimeline.trackedObjectsPerClass` (docs/performance.md#memory): memory follows what can
/// still be reported, and the findings are those of a run that tracks every object.
@Suite struct UntrackedObjectTests {
    static let tracked = SessionTimeline.trackedObjectsPerClass

    /// Home set up with `objects` view models made during its setup (those in `deinits` deallocated
    /// right after their init), then Home's dealloc, which leaves the others behind, and a line 30 s
    /// later (the session went on past the grace).
    static func capture(objects: Int, deinits: [Int] = [], homeGoes: Bool = true) -> String {
        var lines = ["-[HomeViewController viewDidLoad]"]
        func vm(_ k: Int) -> String { "<ItemViewModel: 0x\(String(0x6000_0000_0000 + 16 * k, radix: 16))>" }
        for k in 0..<objects {
            lines.append("\(vm(k)) init")
            if deinits.contains(k) { lines.append("\(vm(k)) dealloc") }
        }
        lines += ["-[HomeViewController viewWillAppear:]", "-[HomeViewController viewDidAppear:]"]
        var text = lines.enumerated().map { k, m in Self.stamp(k) + m }.joined(separator: "\n") + "\n"
        if homeGoes { text += Self.stamp(lines.count) + "-[HomeViewController dealloc]\n" + Self.stamp(lines.count + 30_000) + "-[LoginViewController viewDidLoad]\n" }
        return text
    }

    /// The time `ms` milliseconds into the capture.
    static func stamp(_ ms: Int) -> String {
        String(format: "2024-03-01 10:%02d:%02d.%03d Shop[100:200] ", ms / 60000 % 60, ms / 1000 % 60, ms % 1000)
    }

    static func lint(_ text: String) -> FileResult { Linter().lint(text: text, path: "x.log") }

    @Test func pastTheTrackedOnesObjectsAreCountedAndStillCount() {
        let result = Self.lint(Self.capture(objects: Self.tracked + 900))
        #expect(result.findings.isEmpty)
        // Every object counts among the input's instances (Home's and Login's too).
        #expect(result.stats.controllers == Self.tracked + 900 + 2)
    }

    /// A class that logs a deinit among its first objects is tracked throughout: each object
    /// Home's dealloc leaves behind is a leak, the counted ones included.
    @Test func aClassThatLogsItsDeinitIsTrackedThroughout() {
        let n = Self.tracked + 50
        let result = Self.lint(Self.capture(objects: n, deinits: [0]))
        let leaks = result.findings.filter { $0.rule == "leaked_object" }
        #expect(leaks.count == n - 1)
    }

    /// A deinit logged after the class was taken not to log it makes its later objects tracked
    /// again, numbered as if none had been skipped.
    @Test func aLaterDeinitTracksTheNextObjects() {
        var text = Self.capture(objects: Self.tracked + 10, homeGoes: false)
        for (k, m) in ["<ItemViewModel: 0x1> dealloc", "-[LoginViewController viewDidLoad]", "<ItemViewModel: 0x2> init",
                       "-[LoginViewController viewWillAppear:]", "-[LoginViewController viewDidAppear:]",
                       "-[LoginViewController viewWillDisappear:]", "-[LoginViewController viewDidDisappear:]",
                       "-[LoginViewController dealloc]", "-[HomeViewController dealloc]"].enumerated() {
            text += Self.stamp(3_000_000 + k) + m + "\n"
        }
        text += Self.stamp(3_100_000) + "-[SettingsViewController viewDidLoad]\n"
        let result = Self.lint(text)
        let leaks = result.findings.filter { $0.rule == "leaked_object" }
        // Home's tracked ones and Login's, made after the deinit; not the ten only counted.
        #expect(leaks.count == Self.tracked + 1)
        #expect(leaks.contains { $0.controller.instance == "ItemViewModel#\(Self.tracked + 12)" })
    }
}
