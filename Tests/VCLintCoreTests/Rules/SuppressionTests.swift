import Foundation
import Testing
@testable import VCLintCore

/// Suppressions next to the code (`--source-root`): `// vclint:disable RULE — reason` on or above a class
/// declaration, `// vclint:disable-next-line RULE — reason` before a deinit, dealloc or callback.
@Suite struct SuppressionTests {
    static let sourceRules = RuleRegistry.descriptions.filter(\.aboutSources)

    /// A source tree holding `files` (relative path → text).
    static func tree(_ files: [String: String]) throws -> String {
        let root = scratchRoot.appendingPathComponent("vclint-supp-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root.path
    }

    /// The example capture (one leaked SessionViewController) linted with `source` as the app's only file.
    static func run(_ source: String, settings: RuleSettings = .default) throws -> (LintResult, String) {
        let root = try tree(["Sources/App/SessionViewController.swift": source])
        var result = LintResult(files: [lint(SourceSuppressions.exampleCapture, rules: settings)])
        result.attachDeclarations(under: root, settings: settings)
        return (result, root)
    }

    @Test func theExampleCaptureLeaksTheSessionScreen() {
        let findings = lint(SourceSuppressions.exampleCapture).findings
        #expect(findings.map(\.rule) == ["leaked_controller"])
        #expect(findings.first?.controller.className == "SessionViewController")
    }

    @Test(arguments: sourceRules)
    func triggeringExamplesYieldExactlyThatRuleOnTheMarkedLine(_ d: RuleDescription) throws {
        for example in d.triggeringExamples {
            let (text, marked) = stripMarkers(example)
            let (result, root) = try Self.run(text)
            let about = result.findings.filter { $0.rule == "invalid_suppression" || $0.rule == "unused_suppression" }
            #expect(about.map(\.rule) == [d.identifier], "\(d.identifier) example gave \(about.map(\.message))\n\(text)")
            #expect(about.first?.line == marked.first)
            #expect(about.first?.path == root + "/Sources/App/SessionViewController.swift")
        }
    }

    @Test(arguments: sourceRules)
    func nonTriggeringExamplesYieldNothing(_ d: RuleDescription) throws {
        for example in d.nonTriggeringExamples {
            let (result, _) = try Self.run(stripMarkers(example).text)
            #expect(result.findings.isEmpty, "\(d.identifier) legal example gave \(result.findings.map(\.message))")
        }
    }

    /// The first "done when": the comment above the class silences its leak, and the JSON report
    /// says what was silenced and by which comment.
    @Test func aCommentAboveTheClassSilencesItsLeak() throws {
        let (result, root) = try Self.run("""
            import UIKit

            // vclint:disable leaked_controller — the app-wide session screen lives forever
            @MainActor
            final class SessionViewController: UIViewController {}
            """)
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.count == 1)
        let s = try #require(result.suppressed.first)
        #expect(s.finding.rule == "leaked_controller")
        #expect(s.comment.path == root + "/Sources/App/SessionViewController.swift")
        #expect(s.comment.line == 3)
        #expect(s.comment.reason == "the app-wide session screen lives forever")
        let json = JSONReporter().report(result)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let entry = try #require((doc["suppressed"] as? [[String: Any]])?.first)
        #expect((entry["finding"] as? [String: Any])?["rule"] as? String == "leaked_controller")
        #expect((entry["by"] as? [String: Any])?["line"] as? Int == 3)
        #expect((doc["violations"] as? [Any])?.isEmpty == true)
    }

    /// Without the reason the comment is obeyed by nothing: the leak stays and the comment is a warning.
    @Test func aCommentWithoutAReasonIsInvalid() throws {
        let (result, root) = try Self.run("// vclint:disable leaked_controller\nfinal class SessionViewController: UIViewController {}\n")
        #expect(result.findings.map(\.rule) == ["leaked_controller", "invalid_suppression"])
        let invalid = try #require(result.findings.last)
        #expect(invalid.severity == .warning)
        #expect(invalid.path == root + "/Sources/App/SessionViewController.swift" && invalid.line == 1)
        #expect(invalid.message.contains("gives no reason"))
        #expect(result.suppressed.isEmpty)
    }

    @Test func anUnknownRuleIsInvalidAndSuggestsTheRule() throws {
        let (result, _) = try Self.run("final class SessionViewController: UIViewController { // vclint:disable leaked_controler — lives forever\n}\n")
        let invalid = try #require(result.findings.first { $0.rule == "invalid_suppression" })
        #expect(invalid.message.contains("unknown rule 'leaked_controler'; did you mean 'leaked_controller'?"))
        #expect(result.findings.contains { $0.rule == "leaked_controller" })
    }

    @Test func disableNextLineBeforeDeinitSilencesTheLeak() throws {
        let (result, _) = try Self.run("""
            final class SessionViewController: UIViewController {
                override func viewDidLoad() {}

                // vclint:disable-next-line leaked_controller — released with the window at logout
                deinit { print("gone") }
            }
            """)
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.first?.comment.callback == "dealloc")
        #expect(result.suppressed.first?.comment.scope == .nextLine)
    }

    @Test func objectiveCDeclarationsAndDeallocToo() throws {
        let root = try Self.tree(["App/Session.m": """
            /* vclint:disable leaked_controller — the session screen lives forever */
            @implementation SessionViewController
            @end
            """])
        var result = LintResult(files: [lint(SourceSuppressions.exampleCapture)])
        result.attachDeclarations(under: root)
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.map(\.comment.line) == [1])
        #expect(SuppressionComment.declaredCallback("- (void)dealloc {") == "dealloc")
        #expect(SuppressionComment.declaredCallback("- (void)viewDidDisappear:(BOOL)animated {") == "viewDidDisappear")
        #expect(SuppressionComment.declaredCallback("    override func viewWillAppear(_ animated: Bool) {") == "viewWillAppear")
        #expect(SuppressionComment.declaredCallback("    let f = func") == nil)
    }

    @Test func parsesRulesReasonsAndSeparators() {
        func parse(_ s: String) -> SuppressionComment? { SuppressionComment.parse(Substring(s), path: "A.swift", number: 1) }
        #expect(parse("// vclint:disable leaked_controller, late_dealloc — kept")?.rules == ["leaked_controller", "late_dealloc"])
        #expect(parse("// vclint:disable leaked_controller -- kept by the window")?.reason == "kept by the window")
        #expect(parse("// vclint:disable leaked_controller - kept")?.reason == "kept")
        #expect(parse("// vclint:disable leaked_controller —   ")?.reason == nil)
        #expect(parse("// vclint:disable-next-line late_dealloc – slow teardown")?.scope == .nextLine)
        #expect(parse("// vclint:disabled leaked_controller — no") == nil)
        #expect(parse("let s = \"vclint:disable leaked_controller — x\"") == nil, "not in a comment")
        #expect(parse("// vclint:disable — why")?.problem == "it names no rule")
    }

    /// A comment separated from the class by code or a blank line is above nothing: unused.
    @Test func aDetachedCommentAppliesToNoClass() throws {
        let (result, _) = try Self.run("// vclint:disable leaked_controller — forever\n\nfinal class SessionViewController: UIViewController {}\n")
        #expect(result.findings.map(\.rule) == ["leaked_controller", "unused_suppression"])
        #expect(result.findings.last?.severity == .info)
        #expect(result.findings.last?.message.contains("not on or just above a class declaration") == true)
    }

    /// The two rules can be turned off like any other.
    @Test func disabledSuppressionRulesReportNothing() throws {
        let settings = RuleSettings(enabled: RuleSettings.default.enabled.subtracting(["invalid_suppression"]))
        let (result, _) = try Self.run("// vclint:disable leaked_controller\nfinal class SessionViewController: UIViewController {}\n", settings: settings)
        #expect(result.findings.map(\.rule) == ["leaked_controller"])
    }
}
