import Foundation
import Testing
@testable import VCLintCore
import VCLintSimulation

/// The package root, found from this file's location.
/// The package's folder: the nearest folder above this file that holds Package.swift (test files sit
/// in folders by stage, at any depth under Tests/).
let packageRoot: URL = {
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
        dir = dir.deletingLastPathComponent()
    }
    return dir
}()

/// The folder the tests write their files in: one per test process, under the system's temporary folder,
/// and removed with everything in it when the process exits, so that a run of the tests leaves nothing
/// behind (a test may still remove its own files sooner).
let scratchRoot: URL = {
    let dir = URL(fileURLWithPath: scratchPath, isDirectory: true)
    try? FileManager.default.removeItem(at: dir)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchPath) }
    return dir
}()

private let scratchPath = FileManager.default.temporaryDirectory.appendingPathComponent("vclint-tests-\(getpid())").path

func fixtureURL(_ relative: String) -> URL { packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative) }

/// Every log fixture, as paths relative to the package root, sorted.
func allFixtureLogs() -> [String] {
    let fm = FileManager.default
    let root = packageRoot.appendingPathComponent("Fixtures").path
    guard let walker = fm.enumerator(atPath: root) else { return [] }
    var out: [String] = []
    while let rel = walker.nextObject() as? String {
        let ext = (rel as NSString).pathExtension
        if InputResolver.logExtensions.contains(ext) { out.append("Fixtures/" + rel) }
        // `log show --style json` captures, not the goldens and reports beside them.
        if ext == "json", !rel.hasSuffix(".expected.json"), InputResolver.holdsLog(atPath: root + "/" + rel) { out.append("Fixtures/" + rel) }
    }
    return out.sorted()
}

/// Lints a fixture (path relative to the package root) as the CLI would name it.
func lintFixture(_ relative: String, options: LintOptions = LintOptions(), feedSize: Int? = nil) throws -> FileResult {
    let data = try Data(contentsOf: packageRoot.appendingPathComponent(relative))
    return Linter(options: options).lint(bytes: [UInt8](data), path: relative, feedSize: feedSize)
}

func lint(_ text: String, rules: RuleSettings = .default, grace: Double = 3) -> FileResult {
    var options = LintOptions()
    options.rules = rules
    options.timeline.leakGraceSeconds = grace
    return Linter(options: options).lint(text: text)
}

/// The options a rule's examples run with: every rule on, and the configuration the rule documents for
/// its examples (`RuleDescription.exampleConfiguration`), if any.
func exampleOptions(_ d: RuleDescription) -> LintOptions {
    var options = LintOptions()
    if let yaml = d.exampleConfiguration {
        do {
            try Configuration.parse(yaml, path: ".vclint.yml").apply(to: &options)
        } catch {
            Issue.record("\(d.identifier)'s example configuration: \(error.description)")
        }
    }
    options.rules = .all
    return options
}

/// Rule examples mark the reported line with a leading `↓` (as SwiftLint does).
func stripMarkers(_ example: String) -> (text: String, markedLines: [Int]) {
    var lines: [String] = []
    var marked: [Int] = []
    for (i, line) in example.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if line.hasPrefix("↓") {
            marked.append(i + 1)
            lines.append(String(line.dropFirst()))
        } else {
            lines.append(String(line))
        }
    }
    return (lines.joined(separator: "\n") + "\n", marked)
}

extension FileResult {
    var summary: [String] { findings.map { "\($0.rule)@\($0.line)" } }
}

/// Runs the built vclint in `cwd` (NO_COLOR set, stdin empty).
func runVCLint(_ args: [String], cwd: URL, env: [String: String?] = [:], timeout: Double = CLITests.defaultTimeout) throws -> CLITests.Run {
    try CLITests().run(args, cwd: cwd, env: env, timeout: timeout)
}

/// Something a few tests need that a plain clone on a plain machine may lack: a program (Chromium,
/// util-linux's `script`, python3), a python3 package (jsonschema, check-jsonschema, junitparser),
/// or the real captures others publish beside this checkout. Every such test skips the same way,
/// with one line that names what is missing, what is skipped and how to get it:
///
///     @Test(.requires(.chromium, for: "the headless-browser test of the HTML report"))
///
/// (`.requires` is `.enabled(if: tool.available, tool.note(for: …))`). `.ci/run` installs them all.
struct OptionalTool: Sendable {
    /// How the note names it: "chromium", "python3's jsonschema".
    let name: String
    /// "is not installed", "is not there".
    let missing: String
    /// How to get it: "install it with apt-get install chromium".
    let remedy: String
    let available: Bool

    /// "chromium is not installed: skipping the headless-browser test … (install it with …)".
    func note(for what: String) -> String { "\(name) \(missing): skipping \(what) (\(remedy))" }

    /// An executable found on PATH under one of these names.
    static func onPath(_ names: String...) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in names where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        }
        return nil
    }

    /// python3 can import this module (false when there is no python3 at all).
    static func pythonImports(_ module: String) -> Bool {
        guard onPath("python3") != nil else { return false }
        return (try? python("import \(module)", []))?.status == 0
    }

    static let python3 = OptionalTool(name: "python3", missing: "is not installed", remedy: "install it with apt-get install python3",
                                      available: onPath("python3") != nil)
    static let chromium = OptionalTool(name: "chromium", missing: "is not installed", remedy: "install it with apt-get install chromium",
                                       available: onPath("chromium", "chromium-browser") != nil)
    /// util-linux's `script`, which runs a command on a pseudo-terminal.
    static let script = OptionalTool(name: "util-linux's script", missing: "is not installed", remedy: "install it with apt-get install util-linux",
                                     available: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"))
    static let jsonschema = OptionalTool(name: "python3's jsonschema", missing: "is not installed", remedy: "install it with pip install jsonschema",
                                         available: pythonImports("jsonschema"))
    /// check-jsonschema, with the ruamel.yaml it depends on (the workflow checks read YAML with it).
    static let checkJSONSchema = OptionalTool(name: "check-jsonschema", missing: "is not installed", remedy: "install it with pip install check-jsonschema",
                                              available: pythonImports("check_jsonschema") && pythonImports("ruamel.yaml"))
    static let junitparser = OptionalTool(name: "python3's junitparser", missing: "is not installed", remedy: "install it with pip install junitparser",
                                          available: pythonImports("junitparser"))
    /// Real console captures published by others, with their verdicts and `check.py`: the one thing
    /// the suite reads from outside the repository, beside the checkout.
    static let sharedCaptures = OptionalTool(
        name: "../shared/captures", missing: "is not there",
        remedy: "put the published captures, their verdicts and check.py in ../shared/captures beside this checkout",
        available: FileManager.default.fileExists(atPath: sharedCapturesFolder.appendingPathComponent("check.py").path))
    static var sharedCapturesFolder: URL { packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures") }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when `tool` is available; otherwise Swift Testing reports it skipped with
    /// the tool's one-line note.
    static func requires(_ tool: OptionalTool, for what: String) -> Self {
        .enabled(if: tool.available, Comment(rawValue: tool.note(for: what)))
    }
}

/// A whole-program output as its golden holds it: the tool's version is the release's
/// (`1.0.0`), whatever commit built the tests (`1.0.0+g1a2b3c4`), so the goldens do not change
/// with every commit.
func releaseVersion(_ output: String) -> String {
    var out = VCLintVersion.version == VCLintVersion.release ? output
        : output.replacingOccurrences(of: "\"\(VCLintVersion.version)\"", with: "\"\(VCLintVersion.release)\"")
    // A build that knows its repository links SARIF rules to their help (`helpUri`); goldens are
    // made without one, whatever remote the checkout has.
    if let page = VCLintVersion.rulesDocumentation {
        out = out.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("\"helpUri\": \"\(page)#") }
            .joined(separator: "\n")
    }
    return out
}

/// A simulated app of `family` whose shape the seed varies: one session or two, dealloc logged or not, objects
/// or not, and one seed in three a fault of the family.
func variedSimulatedApp(_ family: NavigationSimulator.Family, seed: UInt64, steps: Int) -> String {
    var o = NavigationSimulator.Options(seed: seed)
    o.families = [family]
    o.steps = steps
    o.sessions = seed % 3 == 0 ? 2 : 1
    o.logsDealloc = seed % 2 == 0
    o.objects = seed % 4 < 2
    o.fault = seed % 3 == 1 ? NavigationSimulator.Fault.allCases.filter { $0.family == family }.dropFirst(Int(seed / 3)).first : nil
    return NavigationSimulator.generate(o).text
}
