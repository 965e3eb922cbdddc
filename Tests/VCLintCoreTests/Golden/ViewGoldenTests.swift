import Foundation
import Testing
@testable import VCLintCore

/// Every format of every view's registry (`ViewFormats`), rendered through the registry for
/// several cases of captures and compared byte for byte with its golden: `leaks` and `inspect` in
/// `Fixtures/views/NAME.VIEW.FORMAT` (`leak-pop.leaks.html`, `noise-mentions.inspect.json`, first
/// written by the String-building code these formats replaced), the timeline's in `Fixtures/timeline/`
/// (`TimelineGoldenTests`). A format added to a registry fails here until its goldens exist.
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
        // Android: LeakCanary's proven leaks, with their chains, grouped by the test LeakCanary's analysis names.
        LeakCase(name: "android-leakcanary", fixtures: ["Fixtures/android/leakcanary-application-leak-in-test.log",
                                                        "Fixtures/android/leaked-object.log", "Fixtures/android/leaked-fragment-view.log"]),
        // Android without LeakCanary: the classes it could not judge, with the fix; a ViewModel under its owner.
        LeakCase(name: "android-no-evidence", fixtures: ["Fixtures/android/capture-57-studio-rotation-recreate-pids.log",
                                                         "Fixtures/android/viewmodel-compose-recreate-legal.log"], recordsConfiguration: true),
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

    @Test(arguments: leakCases) func leaks(_ c: LeakCase) throws {
        let (report, configuration) = try Self.leakReport(c)
        for e in ViewFormats.leaks.entries {
            try TimelineGoldenTests.check(e.make(configuration).render(report), Self.golden(c.name, view: "leaks", format: e.identifier))
        }
    }

    @Test(arguments: inspectCases.map(\.name)) func inspect(_ name: String) throws {
        let inspections = try Self.inspections(Self.inspectCases.first { $0.name == name }!.fixtures)
        for e in ViewFormats.inspect.entries {
            try TimelineGoldenTests.check(e.make(()).render(inspections), Self.golden(name, view: "inspect", format: e.identifier))
        }
    }

    /// The timeline's goldens, by format (100 columns, no color, the whole timeline).
    static let timelineGoldens = ["text": "timeline.golden", "json": "timeline.json", "chrome-trace": "trace.json"]

    @Test(arguments: TimelineGoldenTests.fixtures) func timeline(_ fixture: String) throws {
        let inputs = [try timelineInput(fixture)]
        for e in ViewFormats.timeline.entries {
            let suffix = try #require(Self.timelineGoldens[e.identifier], "no golden of timeline --format \(e.identifier)")
            try TimelineGoldenTests.check(e.make(TimelineDrawing(width: 100)).render(inputs), TimelineGoldenTests.golden(fixture, suffix))
        }
    }
}

/// The registries themselves: what `--format` takes, its help and its errors.
@Suite struct ViewFormatRegistryTests {
    @Test func everyViewListsItsFormatsOnceWithTextFirst() {
        for names in [ViewFormats.timeline.names, ViewFormats.leaks.names, ViewFormats.inspect.names] {
            #expect(names.first == "text")
            #expect(Set(names).count == names.count, "\(names)")
        }
        #expect(ViewFormats.timeline.names == ["text", "json", "chrome-trace"])
        #expect(ViewFormats.leaks.names == ["text", "json", "markdown", "html"])
        #expect(ViewFormats.inspect.names == ["text", "json"])
    }

    @Test func theHelpNamesEachFormatWithItsSummary() {
        #expect(ViewFormats.timeline.help == "text (swimlanes), json (the timeline as data) or chrome-trace (Perfetto, chrome://tracing).")
        #expect(ViewFormats.inspect.help == "text (for a terminal) or json (for scripts).")
        for e in ViewFormats.leaks.entries { #expect(ViewFormats.leaks.help.contains("\(e.identifier) (\(e.summary))")) }
    }

    @Test func aKnownNameHasNoProblem() {
        for name in ViewFormats.leaks.names { #expect(ViewFormats.leaks.problem(with: name) == nil) }
        #expect(ViewFormats.leaks.format(named: "html", context: nil) is LeakHTML)
        #expect(ViewFormats.inspect.format(named: "json") is InspectionJSON)
        #expect(ViewFormats.timeline.format(named: "xml", context: TimelineDrawing()) == nil)
    }

    /// A name within two edits of a format's is a typo, and the error says which one was meant.
    @Test(arguments: [("htm", "html"), ("HTML", "html"), ("markdwon", "markdown"), ("jsno", "json"), ("txt", "text")])
    func aCloseNameIsSuggested(_ typed: String, _ meant: String) {
        #expect(ViewFormats.leaks.problem(with: typed)
            == "unknown format '\(typed)' for vclint leaks; did you mean '\(meant)'? (expected one of: text, json, markdown, html)")
    }

    @Test func aFarNameListsTheFormats() {
        #expect(ViewFormats.timeline.problem(with: "perfetto") == "unknown format 'perfetto' for vclint timeline; expected one of: text, json, chrome-trace")
        #expect(ViewFormats.inspect.problem(with: "") == "unknown format '' for vclint inspect; expected one of: text, json")
    }

    @Test func editDistances() {
        #expect(EditDistance.between("", "") == 0)
        #expect(EditDistance.between("", "json") == 4)
        #expect(EditDistance.between("html", "") == 4)
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("chrome-trace", "chrome-trace") == 0)
        #expect(EditDistance.between("jsno", "json") == 2)
    }
}

/// The documents list each view's formats as its registry does.
@Suite struct ViewFormatDocsTests {
    @Test func outputMdsSynopsisListsEachViewsFormats() throws {
        let synopsis = try Docs.read("docs/output.md")
        for (command, names) in [("inspect", ViewFormats.inspect.names), ("timeline", ViewFormats.timeline.names), ("leaks", ViewFormats.leaks.names)] {
            let line = try #require(synopsis.split(separator: "\n").first { $0.hasPrefix("vclint \(command) [") }, "no synopsis of vclint \(command)")
            #expect(line.contains("[--format \(names.joined(separator: "|"))]"), "\(line)")
        }
    }

    /// Each view's section of docs/visual.md has a sentence `` `--format` is … `` that names its formats.
    @Test func visualMdNamesEveryFormat() throws {
        let text = try Docs.read("docs/visual.md").replacingOccurrences(of: "\n", with: " ")
        let sentences = text.components(separatedBy: "`--format` is ").dropFirst().map { $0.components(separatedBy: ". ")[0] }
        for (command, names) in [("timeline", ViewFormats.timeline.names), ("leaks", ViewFormats.leaks.names)] {
            #expect(sentences.contains { s in names.allSatisfy { s.contains("`\($0)`") } }, "docs/visual.md names no \(command) formats \(names) in a sentence")
        }
    }
}
