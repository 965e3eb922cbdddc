import Testing
@testable import VCLintCore

/// Which will-callbacks make one transition (docs/lifecycle.md#when-a-transition-is-over): an open
/// transition never takes in the next one, and a completion marker completes the latest move of the
/// controller it names, never an appearance an earlier transition left open.
@Suite struct TransitionJoinTests {
    static func text(_ lines: [(time: String, message: String)], date: String = "2024-05-01 ") -> String {
        lines.map { "\(date)\($0.time) Shop[100:1] \($0.message)" }.joined(separator: "\n") + "\n"
    }

    static func verdicts(_ text: String) -> [String] { lint(text).findings.map { "\($0.rule)@\($0.line)" } }

    /// A controller appearing alone whose did-callback never comes, then a sheet presented and closed
    /// and never deallocated, with words no fixture uses.
    static func openThenSheet(gap: Double, stamp: (Double) -> String) -> String {
        let t0 = 10.0
        return text([
            (stamp(0.0), "-[RecipeListViewController viewDidLoad]"),
            (stamp(0.01), "-[RecipeListViewController viewWillAppear:]"),
            (stamp(0.4), "-[RecipeListViewController viewDidAppear:]"),
            (stamp(t0), "-[PantryViewController viewDidLoad]"),
            (stamp(t0 + 0.01), "-[PantryViewController viewWillAppear:]"),
            (stamp(t0 + gap), "-[TimerSheetViewController viewDidLoad]"),
            (stamp(t0 + gap + 0.01), "-[TimerSheetViewController viewWillAppear:]"),
            (stamp(t0 + gap + 0.4), "-[TimerSheetViewController viewDidAppear:]"),
            (stamp(t0 + gap + 3), "-[TimerSheetViewController viewWillDisappear:]"),
            (stamp(t0 + gap + 3.4), "-[TimerSheetViewController viewDidDisappear:]"),
            (stamp(t0 + gap + 4), "-[GroceryViewController dealloc]"),
            (stamp(t0 + gap + 12), "[Sync] done"),
        ])
    }

    static func millis(_ s: Double) -> String {
        let whole = Int(s), ms = Int(((s - Double(whole)) * 1000).rounded())
        return "12:00:\(whole < 10 ? "0" : "")\(whole).\(String(repeating: "0", count: 3 - String(ms).count))\(ms)"
    }

    @Test func aSheetLaterThanAnyCallbackOfOneTransitionBeginsItsOwn() {
        // 1.5 s after the open appearance: its own transition, closed with nothing appearing: a leak.
        #expect(Self.verdicts(Self.openThenSheet(gap: 1.5, stamp: Self.millis)) == ["leaked_controller@10"])
    }

    @Test func willsWithinMillisecondsJoin() {
        // 0.3 s: a container and the child it shows (or a slow load between them) stay one transition:
        // the sheet's disappearance is then read within it, as before.
        let within = Self.verdicts(Self.openThenSheet(gap: 0.3, stamp: Self.millis))
        #expect(!within.contains("leaked_controller@10"))
    }

    @Test func wholeSecondTimesHideUpToASecond() {
        // syslog-like times: a gap the text shows as 2 s may be 1.01 s: it joins; 3 s does not.
        func seconds(_ s: Double) -> String { "12:00:\(Int(s) < 10 ? "0" : "")\(Int(s))" }
        #expect(!Self.verdicts(Self.openThenSheet(gap: 2, stamp: seconds)).contains("leaked_controller@10"))
        #expect(Self.verdicts(Self.openThenSheet(gap: 3, stamp: seconds)) == ["leaked_controller@10"])
    }

    @Test func withoutTimesTheyJoin() {
        let bare = Self.openThenSheet(gap: 1.5, stamp: Self.millis).split(separator: "\n").map { line in
            String(line.split(separator: " ", maxSplits: 3)[3])
        }.joined(separator: "\n") + "\n"
        #expect(!Self.verdicts(bare).contains("leaked_controller@10"))
    }

    /// `X present end` after the sheet X presented appeared, while X's own appearance (an earlier
    /// transition) is still open: it completes the sheet's presentation, and X's did-callback after X's
    /// next will-callback completes that next move.
    @Test func aMarkerNeverCompletesTheNamedControllersEarlierOpenAppearance() {
        let text = Self.text([
            (Self.millis(0.0), "-[PantryViewController viewDidLoad]"),
            (Self.millis(0.01), "-[PantryViewController viewWillAppear:]"),
            (Self.millis(2.0), "-[TimerSheetViewController viewDidLoad]"),
            (Self.millis(2.01), "-[TimerSheetViewController viewWillAppear:]"),
            (Self.millis(2.4), "-[TimerSheetViewController viewDidAppear:]"),
            (Self.millis(2.41), "PantryViewController present end"),
            (Self.millis(9.0), "-[PantryViewController viewWillAppear:]"),
            (Self.millis(9.4), "-[PantryViewController viewDidAppear:]"),
            (Self.millis(12.0), "-[PantryViewController viewWillDisappear:]"),
            (Self.millis(12.4), "-[PantryViewController viewDidDisappear:]"),
            (Self.millis(20.0), "[Sync] done"),
        ])
        // The second viewWillAppear is a will for the state it is in (its class logs disappearances).
        #expect(Self.verdicts(text) == ["unbalanced_appearance@7"])
    }

    /// The presented controller logging the marker before its own viewDidAppear, in the latest
    /// transition: still `completion_before_appearance`.
    @Test func aMarkerBeforeTheNamedControllersOwnDidIsStillEarly() {
        let text = Self.text([
            (Self.millis(0.0), "-[PantryViewController viewDidLoad]"),
            (Self.millis(0.01), "-[PantryViewController viewWillAppear:]"),
            (Self.millis(0.2), "PantryViewController present end"),
            (Self.millis(0.4), "-[PantryViewController viewDidAppear:]"),
            (Self.millis(9.0), "[Sync] done"),
        ])
        #expect(Self.verdicts(text) == ["completion_before_appearance@3"])
    }
}
