import Foundation
import Testing
@testable import VCLintCore

/// GitHub shows 10 annotations of each severity a step: the `github-actions` reporter spends them
/// on the most important findings and says in one notice what it left out.
@Suite struct AnnotationBudgetTests {
    static func result(_ findings: [Finding]) -> LintResult {
        var stats = InputStats(path: "a.log")
        stats.lines = 10_000
        return LintResult(files: [FileResult(stats: stats, findings: findings)])
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    /// `n` findings of each severity, their lines shuffled (a seeded order, so a failure replays):
    /// the errors are of an error rule and of a warning rule raised to an error, the warnings of
    /// two rules, the infos of one.
    static func mixed(_ n: Int) -> [Finding] {
        var rng = SplitMix(seed: UInt64(n))
        var lines = Array(1...(3 * n + 1)).shuffled(using: &rng)
        var findings: [Finding] = []
        for k in 0..<n {
            findings.append(Hostile.finding(.error, rule: k % 3 == 0 ? "late_dealloc" : "leaked_controller", line: lines.removeLast(), path: "a.log"))
            findings.append(Hostile.finding(.warning, rule: k % 2 == 0 ? "late_dealloc" : "unbalanced_appearance", line: lines.removeLast(), path: "a.log"))
            findings.append(Hostile.finding(.info, rule: "memory_warning", line: lines.removeLast(), path: "a.log"))
        }
        return findings.sorted { $0.line < $1.line }
    }

    @Test(arguments: [0, 9, 10, 11, 500])
    func eachSeverityGetsTenAnnotationsAtMost(_ n: Int) {
        let findings = Self.mixed(n)
        let out = GitHubActionsReporter().report(Self.result(findings))
        let lines = Self.lines(out)
        let errors = lines.filter { $0.hasPrefix("::error ") }, warnings = lines.filter { $0.hasPrefix("::warning ") }
        let notices = lines.filter { $0.hasPrefix("::notice ") }
        #expect(errors.count == min(n, 10))
        #expect(warnings.count == min(n, 10))
        #expect(lines.count == errors.count + warnings.count + notices.count)
        // The errors come first, then the warnings, then the one notice.
        #expect(Array(lines.prefix(errors.count)) == errors)
        #expect(notices.count == (n == 0 ? 0 : 1))
        #expect(notices.last.map { lines.last == $0 } ?? true)

        // The annotated ones are the most important: an error rule's errors before a raised
        // warning rule's, then by line.
        for s in [Severity.error, .warning] {
            let expected = findings.filter { $0.severity == s }
                .sorted { a, b in
                    let ra = RuleRegistry.description(of: a.rule)!.severity, rb = RuleRegistry.description(of: b.rule)!.severity
                    return ra != rb ? ra > rb : a.line < b.line
                }
                .prefix(10).map { "::\(s == .error ? "error" : "warning") file=a.log,line=\($0.line),title=\($0.rule)::" }
            let printed = s == .error ? errors : warnings
            #expect(zip(printed, expected).allSatisfy { $0.hasPrefix($1) } && printed.count == expected.count, "\(s)")
        }

        switch n {
        case 0:
            #expect(out == "")
        case 1...10:
            #expect(notices == ["::notice title=vclint::\(n) info\(n == 1 ? " is" : "s are") not annotated (memory_warning: \(n)); the other report formats list them"])
        default:
            let e = n - 10, w = n - 10
            let errorRules = Self.counts(findings.filter { $0.severity == .error }, annotated: errors)
            let warningRules = Self.counts(findings.filter { $0.severity == .warning }, annotated: warnings)
            #expect(notices == ["::notice title=vclint::\(e) error\(e == 1 ? "" : "s") (\(errorRules)), \(w) warning\(w == 1 ? "" : "s") (\(warningRules)) and \(n) infos (memory_warning: \(n)) are not annotated: GitHub shows 10 annotations of each severity a step; the job summary and the other report formats list every finding"])
        }
    }

    /// `rule: count` of the findings that were not annotated, the most frequent first.
    static func counts(_ findings: [Finding], annotated: [Substring]) -> String {
        var left: [String: Int] = [:]
        for f in findings where !annotated.contains(where: { $0.contains(",line=\(f.line),") }) { left[f.rule, default: 0] += 1 }
        return left.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }

    /// The issue's case: 26 errors, 9 warnings, 2 infos give the 10 most important errors, the 9
    /// warnings and one notice naming the 16 errors and the 2 infos left out.
    @Test func twentySixErrorsNineWarningsTwoInfos() {
        // Six late deallocations raised to errors, on the earliest lines: less important than any leak.
        var findings = (1...6).map { Hostile.finding(.error, rule: "late_dealloc", line: $0, path: "a.log") }
        findings += (1...20).map { Hostile.finding(.error, rule: "leaked_controller", line: 100 - $0, path: "a.log") }
        findings += (1...9).map { Hostile.finding(.warning, rule: "late_dealloc", line: 200 + $0, path: "a.log") }
        findings += [Hostile.finding(.info, rule: "memory_warning", line: 300, path: "a.log"), Hostile.finding(.info, rule: "memory_warning", line: 301, path: "a.log")]
        let lines = Self.lines(GitHubActionsReporter().report(Self.result(findings)))
        #expect(lines.count == 20)
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error file=a.log,line=") && $0.contains("title=leaked_controller::") })
        #expect(lines.prefix(10).map { Int($0.split(separator: ",")[1].dropFirst(5))! } == Array(80...89))
        #expect(lines[10..<19].allSatisfy { $0.hasPrefix("::warning file=a.log,line=2") })
        // The job summary the Action writes (`--infos --markdown-rows all`) has all 37.
        let summary = ReporterRegistry.reporter(named: "markdown", context: ReportContext(allInfos: true, markdownRows: nil))!.report(Self.result(findings))
        #expect(summary.split(separator: "\n").filter { $0.hasPrefix("| a.log:") }.count == 37)
        #expect(lines[19] == "::notice title=vclint::16 errors (leaked_controller: 10, late_dealloc: 6) and 2 infos (memory_warning: 2) are not annotated: GitHub shows 10 annotations of each severity a step; the job summary and the other report formats list every finding")
    }

    /// `lint --follow` cannot sort what it has not seen: the first 10 of each severity, in the order
    /// they are decided, and the notice of the rest at the end.
    @Test func aStreamAnnotatesTheFirstTenAndCountsTheRest() throws {
        let findings = (1...12).map { Hostile.finding(.error, line: 100 - $0, path: "a.log") } + [Hostile.finding(.warning, rule: "late_dealloc", line: 1, path: "a.log")]
        var reporter = GitHubActionsReporter()
        let out = ReportWriter()
        try reporter.begin(to: out)
        try reporter.input("a.log", to: out)
        for f in findings { try reporter.finding(f, to: out) }
        try reporter.end(Self.result(findings), to: out)
        let lines = Self.lines(out.text)
        #expect(lines.prefix(10).map { Int($0.split(separator: ",")[1].dropFirst(5))! } == Array((90...99).reversed()))
        #expect(lines[10].hasPrefix("::warning file=a.log,line=1,"))
        #expect(lines[11] == "::notice title=vclint::2 errors (leaked_controller: 2) are not annotated: GitHub shows 10 annotations of each severity a step; the job summary and the other report formats list every finding")
        #expect(lines.count == 12)
    }

    /// Resolutions are notices: nine of them at most, the step's tenth notice is the summary's.
    @Test func resolutionsKeepANoticeForTheSummary() throws {
        var reporter = GitHubActionsReporter()
        let out = ReportWriter()
        try reporter.begin(to: out)
        for k in 1...12 { try reporter.resolution(Resolution(finding: Hostile.finding(line: k, path: "a.log"), now: .withdrawn, line: 50 + k, message: "deallocated"), to: out) }
        try reporter.end(Self.result([]), to: out)
        let lines = Self.lines(out.text)
        #expect(lines.count == 10)
        #expect(lines.prefix(9).allSatisfy { $0.hasPrefix("::notice file=a.log,line=") })
        #expect(lines[9] == "::notice title=vclint::3 resolutions are not annotated: GitHub shows 10 annotations of each severity a step; the job summary and the other report formats list every finding")
    }
}

extension SplitMix: RandomNumberGenerator {}
