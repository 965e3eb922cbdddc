/// A finding `lint --follow` printed that a later line changed (docs/lifecycle.md#live-mode): a
/// leak printed when its grace period passed, then deallocated (it is now the late_dealloc a batch
/// run reports) or shown never to have been removed (withdrawn). Each streaming format prints it
/// at once (`StreamingReporter.resolution`), so that what was printed and the run's result agree.
public struct Resolution: Sendable {
    /// What the finding is now.
    public enum Outcome: String, Sendable {
        /// The late_dealloc that follows it.
        case lateDealloc = "late_dealloc"
        /// Nothing: the batch run over the same lines has no finding for it.
        case withdrawn
    }

    /// The finding as it was printed.
    public let finding: Finding
    public let now: Outcome
    /// The line that resolved it.
    public let line: Int
    /// One sentence: what that line showed, and what the finding is now.
    public let message: String

    public init(finding: Finding, now: Outcome, line: Int, message: String) {
        self.finding = finding
        self.now = now
        self.line = line
        self.message = message
    }

    /// The resolution of `finding`, printed for the leak `resolution` withdrew.
    init(_ finding: Finding, _ resolution: LeakResolution) {
        let who = finding.controller.display, at = resolution.line
        let now: Outcome, message: String
        switch resolution.cause {
        case .deallocatedLate:
            now = .lateDealloc
            message = "\(who) was deallocated at line \(at), after the grace period: a late dealloc (late_dealloc), not a leak"
        case .deallocated:
            now = .withdrawn
            message = "\(who) was deallocated at line \(at), within the grace period: not leaked"
        case .appearedAgain:
            now = .withdrawn
            message = "\(who) appeared again at line \(at): it was not removed, so it did not leak"
        case .ownerChanged:
            now = .withdrawn
            message = "\(who) was taken by another owner at line \(at): its first owner's dealloc no longer decides it"
        case .addressReused:
            now = .withdrawn
            message = "another object took \(who)'s address at line \(at): it is gone without a logged dealloc"
        case .removedAgain:
            now = .withdrawn
            message = "\(who) was removed again at line \(at): its leak is decided from that removal"
        }
        self.init(finding: finding, now: now, line: at, message: message)
    }
}

/// What `LiveLinter` decided from the bytes it was given: the resolutions of findings printed
/// before, then the findings that became decidable (in that order: a resolution never concerns a
/// finding of the same update). As a collection, the findings.
public struct LiveUpdate: RandomAccessCollection, Sendable {
    public var resolutions: [Resolution] = []
    public var findings: [Finding] = []

    public init(resolutions: [Resolution] = [], findings: [Finding] = []) {
        self.resolutions = resolutions
        self.findings = findings
    }

    public var startIndex: Int { findings.startIndex }
    public var endIndex: Int { findings.endIndex }
    public subscript(i: Int) -> Finding { findings[i] }

    /// Nothing to print.
    public var isQuiet: Bool { resolutions.isEmpty && findings.isEmpty }

    public static func += (a: inout LiveUpdate, b: LiveUpdate) {
        a.resolutions += b.resolutions
        a.findings += b.findings
    }
}
