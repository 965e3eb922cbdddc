import Foundation
import Testing
@testable import VCLintCore

/// The goldens of `vclint leaks` and `vclint inspect` in every format:
/// `Fixtures/views/NAME.VIEW.FORMAT` (`leak-pop.leaks.html`, `noise-mentions.inspect.json`), each the
/// output for one case of captures. The timeline's formats have theirs in `TimelineGoldenTests`.
/// Regenerate after an intended change with `VCLINT_UPDATE_GOLDENS=1 swift test --filter ViewGoldenTests`
/// and review the diff.
@Suite struct ViewGoldenTests {
    /// Captures read as `vclint leaks` reads them, with their grace period.
    struct LeakCase: CustomStringConvertible, Sendable {
        var name: String
        var fixtures: [String]
        var grace: Double = 3
        /// Whether the JSON records the run's configuration, as `vclint leaks --format json` does.
        var recordsConfiguration = false
        var description: String { name }
    }

    static let leakCases: [LeakCase] = [
        LeakCase(name: "leak-pop", fixtures: ["Fixtures/flows/leak-pop.log"]),
        // Every leak still within the grace period: unconfirmed.
        LeakCase(name: "leak-pop-within-grace", fixtures: ["Fixtures/flows/leak-pop.log"], grace: 100_000),
        LeakCase(name: "navtest-seed000", fixtures: ["Fixtures/seeds/navtest-seed000.log"]),
        LeakCase(name: "swift-testing-leak", fixtures: ["Fixtures/tests/swift-testing-leak.log"]),
        LeakCase(name: "mvvm-screens", fixtures: ["Fixtures/objects/mvvm-screens.log"]),
        LeakCase(name: "described-leak", fixtures: ["Fixtures/objects/described-leak.log"]),
        LeakCase(name: "html-injection", fixtures: ["Fixtures/hostile/html-injection.log"]),
        LeakCase(name: "terminal-nslog", fixtures: ["Fixtures/hostile/terminal-nslog.log"]),
        LeakCase(name: "matrix", fixtures: ["Fixtures/flows/leak-pop.log", "Fixtures/seeds/navtest-missing-dealloc.log",
                                            "Fixtures/tests/xcodebuild-hosted-leak.log", "Fixtures/dialects/named-invoke.log",
                                            "Fixtures/objects/late-object.log", "Fixtures/flows/late-dealloc.log"],
                 recordsConfiguration: true),
    ]

    /// Captures read as `vclint inspect` reads them.
    static let inspectCases: [(name: String, fixtures: [String])] = [
        ("leak-pop", ["Fixtures/flows/leak-pop.log"]),
        ("noise-mentions", ["Fixtures/formats/noise-mentions.log"]),
        ("redacted-labels", ["Fixtures/formats/redacted-labels.log"]),
        ("mvvm-screens", ["Fixtures/objects/mvvm-screens.log"]),
        ("uikit-warnings", ["Fixtures/dialects/uikit-warnings.log"]),
        ("terminal-nslog", ["Fixtures/hostile/terminal-nslog.log"]),
        ("html-injection", ["Fixtures/hostile/html-injection.log"]),
        ("two-inputs", ["Fixtures/envelopes/compact.log", "Fixtures/envelopes/logcat.log"]),
    ]

    static func golden(_ name: String, view: String, format: String) -> URL {
        packageRoot.appendingPathComponent("Fixtures/views/\(name).\(view).\(format)")
    }

    /// The options `VisualRun.load` gives `leaks` (`inspect: false`) and `inspect`: the timeline
    /// recorded, no lanes.
    static func options(grace: Double = 3, inspect: Bool) -> LintOptions {
        var options = LintOptions()
        options.timeline.recordTimeline = true
        options.timeline.recordLanes = false
        options.timeline.leakGraceSeconds = grace
        options.inspect = inspect
        return options
    }

    static func leakReport(_ c: LeakCase) throws -> (LeakReport, RunConfiguration?) {
        let options = Self.options(grace: c.grace, inspect: false)
        let files = try c.fixtures.map { try lintFixture($0, options: options) }
        let report = LeakReport(inputs: TimelineInput.from(LintResult(files: files)), graceSeconds: c.grace)
        return (report, c.recordsConfiguration ? RunConfiguration(options: options) : nil)
    }

    static func inspections(_ fixtures: [String]) throws -> [Inspection] {
        try fixtures.map { try #require(try lintFixture($0, options: options(inspect: true)).inspection) }
    }

    static let leakFormats = ["text", "json", "markdown", "html"]
    static let inspectFormats = ["text", "json"]

    static func leakOutput(_ format: String, _ report: LeakReport, _ configuration: RunConfiguration?) -> String {
        switch format {
        case "text": return report.text()
        case "json": return report.json(configuration: configuration)
        case "markdown": return report.markdown()
        default: return report.html()
        }
    }

    @Test(arguments: leakCases) func leaks(_ c: LeakCase) throws {
        let (report, configuration) = try Self.leakReport(c)
        for format in Self.leakFormats {
            try TimelineGoldenTests.check(Self.leakOutput(format, report, configuration), Self.golden(c.name, view: "leaks", format: format))
        }
    }

    @Test(arguments: inspectCases.map(\.name)) func inspect(_ name: String) throws {
        let inspections = try Self.inspections(Self.inspectCases.first { $0.name == name }!.fixtures)
        for format in Self.inspectFormats {
            let out = format == "json" ? InspectionReport.json(inspections) : InspectionReport.text(inspections)
            try TimelineGoldenTests.check(out, Self.golden(name, view: "inspect", format: format))
        }
    }
}
