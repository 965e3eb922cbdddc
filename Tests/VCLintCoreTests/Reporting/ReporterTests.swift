import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import VCLintCore

/// The report formats: goldens over real fixtures, and the escaping of hostile text in each.
/// Regenerate the goldens after an intended change with
/// `VCLINT_UPDATE_GOLDENS=1 swift test --filter ReporterGoldenTests` and review the diff.
/// GitLab Code Quality: every finding an issue GitLab shows, each with its own fingerprint, stable
/// from run to run.
@Suite struct CodeClimateReporterTests {
    @Test func everyFindingIsAnIssueWithItsOwnFingerprint() throws {
        var findings = (0..<3).map { Hostile.finding(.error, rule: "leaked_controller", line: 10 + $0, path: "a.log") }
        findings.append(Hostile.finding(.warning, rule: "late_dealloc", line: 20, path: "a.log"))
        findings.append(Hostile.finding(.info, rule: "memory_warning", line: 30, path: "b.log"))
        let result = LintResult(files: [FileResult(stats: InputStats(path: "a.log"), findings: FindingList(findings))])
        let text = CodeClimateReporter().report(result)
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(issues.count == 5)
        let prints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(prints).count == 5, "GitLab shows one issue per fingerprint: \(prints)")
        #expect(prints[0] == findings[0].fingerprint)
        #expect(issues.map { $0["severity"] as? String } == ["major", "major", "major", "minor", "info"])
        #expect(issues.map { $0["check_name"] as? String } == findings.map(\.rule))
        for (issue, f) in zip(issues, findings) {
            let location = try #require(issue["location"] as? [String: Any])
            #expect(location["path"] as? String == f.path)
            #expect((location["lines"] as? [String: Any])?["begin"] as? Int == f.line)
            #expect(issue["description"] as? String == f.message)
        }
        // The same findings tomorrow are the same issues.
        #expect(CodeClimateReporter().report(result) == text)
    }

    @Test func aCleanRunIsAnEmptyList() throws {
        let text = CodeClimateReporter().report(LintResult(files: [FileResult(stats: InputStats(path: "a.log"), findings: [])]))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] != nil)
        #expect(text == "[]\n")
    }
}

@Suite struct ReporterGoldenTests {
    /// Reporter → extension of its golden (never a log extension: the goldens must not be linted).
    static let extensions: [String: String] = [
        "xcode": "xcode", "sarif": "sarif", "junit": "xml", "github-actions": "gha", "checkstyle": "xml", "markdown": "md",
        "codeclimate": "codeclimate",
    ]

    /// Named results the goldens are made from: several files with errors, a warning, infos and a
    /// clean file; and the hostile fixture.
    static let sets: [String: [String]] = [
        "sample": [
            "Fixtures/seeds/navtest-missing-dealloc.log", "Fixtures/flows/late-dealloc.log",
            "Fixtures/flows/memory-warning-ios5.log", "Fixtures/seeds/navtest-seed000.log",
        ],
        "hostile": ["Fixtures/reporters/hostile.log"],
    ]

    struct Case: CustomTestStringConvertible, Sendable {
        let set: String
        let reporter: String
        var testDescription: String { "\(set) → \(reporter)" }
    }

    static let cases: [Case] = sets.keys.sorted().flatMap { set in extensions.keys.sorted().map { Case(set: set, reporter: $0) } }

    static func result(_ set: String) throws -> LintResult {
        LintResult(files: try sets[set]!.map { try lintFixture($0) })
    }

    static func golden(_ c: Case) -> URL {
        fixtureURL("reporters/\(c.set)-\(c.reporter).expected.\(extensions[c.reporter]!)")
    }

    @Test func everyReporterHasAGolden() {
        #expect(Set(Self.extensions.keys).union(["json"]) == Set(ReporterRegistry.names))
    }

    @Test(arguments: cases)
    func reportMatchesGolden(_ c: Case) throws {
        let reporter = try #require(ReporterRegistry.reporter(named: c.reporter))
        let report = releaseVersion(reporter.report(try Self.result(c.set)))
        let url = Self.golden(c)
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_GOLDENS"] == "1" {
            try Data(report.utf8).write(to: url, options: .atomic)
        }
        let expected = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(report == expected, "\(c.testDescription) differs from \(url.lastPathComponent)")
    }

    @Test func goldensAreNotLinted() {
        for c in Self.cases {
            #expect(!InputResolver.logExtensions.contains(Self.golden(c).pathExtension))
        }
    }

    /// The hostile fixture really carries the characters the escaping is about.
    @Test func hostileFixtureIsHostile() throws {
        let messages = try Self.result("hostile").findings.map(\.message).joined()
        for s in ["\"", "&", "%", "::", ",", "'", "{", "|", "`", "@", "\u{1B}", "\u{7}", "\u{FFFD}"] {
            #expect(messages.contains(s), "no \(s.debugDescription) in the hostile fixture's messages")
        }
    }
}

/// Findings built by hand, with text no log line could carry (newlines, `<`, CR, U+FFFE) in the
/// message, the path, the rule and the related notes.
enum Hostile {
    static let message = "Evil\"<script>&amp;'%0A%\n::error file=x::pwned\r\nnext,{0}}|`*_[x](y)@team~$ \u{1}\u{1B}[31m\u{7F}\u{85}\u{2028}\u{FFFE}end"
    static let path = "logs/we<ir>d \"dir\"/a,b:c%25 é#?.log"
    static let note = "view<Will>&Disappear\n\"note\""

    static func finding(_ severity: Severity = .error, rule: String = "leaked_controller", line: Int = 7, path: String = path) -> Finding {
        Finding(
            rule: rule, severity: severity, message: message, path: path, line: line,
            time: LogTime(seconds: 0, iso: "2024-03-01T10:00:00.000"),
            controller: ControllerRef(className: "Evil\"<&>", address: 0x7fa1c8d0a200, instance: "Evil\"<&>#1"),
            related: [Finding.Related(path: path, line: 3, note: note)],
            fingerprint: "0123456789abcdef")
    }

    static func result() -> LintResult {
        var stats = InputStats(path: path)
        stats.lines = 20
        stats.bytes = 1000
        let findings = [finding(), finding(.warning, rule: "late_dealloc", line: 9), finding(.info, rule: "memory_warning", line: 11)]
        var clean = InputStats(path: "clean & <quiet>.log")
        clean.lines = 1
        return LintResult(files: [FileResult(stats: stats, findings: findings), FileResult(stats: clean, findings: [])])
    }

    /// The message as an XML parser must read it back: characters XML cannot hold become U+FFFD.
    static var xmlMessage: String {
        String(String.UnicodeScalarView(message.unicodeScalars.map { XMLText.isAllowed($0) ? $0 : "\u{FFFD}" }))
    }
}

/// Runs python3 on a script with arguments; returns exit status and output.
func python(_ script: String, _ args: [String]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script] + args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

func writeTemp(_ text: String, ext: String) throws -> URL {
    let url = scratchRoot.appendingPathComponent("vclint-report-\(UUID().uuidString).\(ext)")
    try Data(text.utf8).write(to: url)
    return url
}

/// An XML document as elements with their attributes and text, read by Foundation's parser.
final class XMLTree: NSObject, XMLParserDelegate {
    struct Element { var name: String; var attributes: [String: String]; var text = "" }
    var elements: [Element] = []
    private var open: [Int] = []
    var error: Error?

    static func parse(_ text: String) throws -> XMLTree {
        let tree = XMLTree()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = tree
        let ok = parser.parse()
        if !ok { throw tree.error ?? parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
        return tree
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = open.last { elements[i].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }

    func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

/// python3's expat is strict about what XML 1.0 allows; every XML report must pass it too.
func expectPythonParsesXML(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = try writeTemp(text, ext: "xml")
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try python("import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])", [url.path])
    #expect(r.status == 0, "python3 could not parse the XML: \(r.output)", sourceLocation: sourceLocation)
}

@Suite struct SARIFReporterTests {
    /// The OASIS SARIF 2.1.0 schema, carried in the repository (Fixtures/schemas/README.md says where it comes from).
    static let schema = fixtureURL("schemas/sarif-2.1.0.json").path

    /// Validates against the SARIF 2.1.0 JSON schema with python3's jsonschema: a test that calls it
    /// carries `.requires(.jsonschema, …)`.
    func expectValid(_ sarif: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let schema = Self.schema
        let url = try writeTemp(sarif, ext: "sarif")
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            print("python3 needs the jsonschema package: pip install jsonschema"); sys.exit(3)
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        doc = json.load(open(sys.argv[2], encoding="utf-8"))
        errors = list(jsonschema.Draft4Validator(schema).iter_errors(doc))
        for e in errors[:5]: print(list(e.absolute_path), e.message)
        sys.exit(1 if errors else 0)
        """
        let r = try python(script, [schema, url.path])
        #expect(r.status == 0, "SARIF is not valid against \(schema): \(r.output)", sourceLocation: sourceLocation)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(.requires(.jsonschema, for: "the SARIF schema validation"), arguments: ["sample", "hostile"])
    func fixtureReportsAreValid(_ set: String) throws {
        try expectValid(SARIFReporter().report(try ReporterGoldenTests.result(set)))
    }

    @Test(.requires(.jsonschema, for: "the SARIF schema validation")) func handBuiltHostileReportIsValidAndReadsBack() throws {
        let text = SARIFReporter().report(Hostile.result())
        try expectValid(text)
        let run = try #require((try json(text)["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        let r = results[0]
        let message = try #require((r["message"] as? [String: Any])?["text"] as? String)
        // Literal braces are doubled (placeholders); everything else survives JSON exactly.
        #expect(message == Hostile.message.replacingOccurrences(of: "{", with: "{{").replacingOccurrences(of: "}", with: "}}"))
        let location = try #require(((r["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
        #expect(uri == "logs/we%3Cir%3Ed%20%22dir%22/a%2Cb%3Ac%2525%20%C3%A9%23%3F.log")
        #expect(uri.removingPercentEncoding == Hostile.path)
        #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 7)
        let related = try #require((r["relatedLocations"] as? [[String: Any]])?.first)
        #expect((related["message"] as? [String: Any])?["text"] as? String == Hostile.note)
        #expect(((related["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int == 3)
        #expect((r["partialFingerprints"] as? [String: String]) == ["vclint/v1": "0123456789abcdef"])
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "note"])
        // The clean input is an artifact too.
        let artifacts = try #require(run["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 2)
    }

    @Test func driverListsEveryRule() throws {
        let run = try #require((try json(SARIFReporter().report(LintResult(files: [])))["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "vclint")
        #expect(driver["version"] as? String == VCLintVersion.version)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == RuleRegistry.identifiers)
        for (rule, d) in zip(rules, RuleRegistry.all.map { type(of: $0).description }) {
            #expect(rule["name"] as? String == d.name)
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == d.summary)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == d.rationale)
            #expect(((rule["help"] as? [String: Any])?["text"] as? String)?.hasPrefix(d.rationale) == true)
            let config = try #require(rule["defaultConfiguration"] as? [String: Any])
            #expect(config["enabled"] as? Bool == !d.isOptIn)
            #expect(config["level"] as? String == ["error": "error", "warning": "warning", "info": "note"][d.severity.rawValue])
        }
        #expect(rules.first { $0["id"] as? String == "slow_transition" }.flatMap { ($0["defaultConfiguration"] as? [String: Any])?["enabled"] as? Bool } == false)
        // Default settings: no overrides.
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["ruleConfigurationOverrides"] == nil)
    }

    @Test func ruleIndexPointsAtTheRule() throws {
        let text = SARIFReporter().report(try ReporterGoldenTests.result("sample"))
        let run = try #require((try json(text)["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for r in results {
            let i = try #require(r["ruleIndex"] as? Int)
            #expect(rules[i]["id"] as? String == r["ruleId"] as? String)
        }
    }

    @Test(.requires(.jsonschema, for: "the SARIF schema validation")) func runSettingsAreConfigurationOverrides() throws {
        var enabled = RuleSettings.default.enabled
        enabled.insert("slow_transition")
        enabled.remove("memory_warning")
        let settings = RuleSettings(enabled: enabled, severities: ["late_dealloc": .error])
        let text = SARIFReporter(rules: settings).report(LintResult(files: []))
        try expectValid(text)
        let run = try #require((try json(text)["runs"] as? [[String: Any]])?.first)
        let overrides = try #require((run["invocations"] as? [[String: Any]])?.first?["ruleConfigurationOverrides"] as? [[String: Any]])
        let byID = Dictionary(uniqueKeysWithValues: overrides.map { (($0["descriptor"] as? [String: Any])?["id"] as? String ?? "", $0["configuration"] as? [String: Any] ?? [:]) })
        #expect(Set(byID.keys) == ["slow_transition", "memory_warning", "late_dealloc"])
        #expect(byID["slow_transition"]?["enabled"] as? Bool == true)
        #expect(byID["memory_warning"]?["enabled"] as? Bool == false)
        #expect(byID["late_dealloc"]?["level"] as? String == "error")
    }

    @Test func uris() {
        #expect(SARIFReporter.uri("Fixtures/seeds/navtest-seed000.log") == "Fixtures/seeds/navtest-seed000.log")
        #expect(SARIFReporter.uri("/tmp/ci run/capture.log") == "file:///tmp/ci%20run/capture.log")
        #expect(SARIFReporter.uri("C:x.log") == "C%3Ax.log")  // would otherwise read as a scheme
        #expect(SARIFReporter.uri("<stdin>") == "%3Cstdin%3E")
        #expect(SARIFReporter.uri("caf\u{E9}\u{FFFD}.log") == "caf%C3%A9%EF%BF%BD.log")
    }

    @Test func levels() {
        #expect(SARIFReporter.level(.error) == "error")
        #expect(SARIFReporter.level(.warning) == "warning")
        #expect(SARIFReporter.level(.info) == "note")
    }
}

@Suite struct JUnitReporterTests {
    /// Without test boundaries, each input is one test case, failing on its errors.
    @Test(.requires(.python3, for: "parsing the XML with python3's expat")) func oneSuiteAndOneCasePerInputWithoutTests() throws {
        let result = try ReporterGoldenTests.result("sample")
        let text = JUnitReporter().report(result)
        try expectPythonParsesXML(text)
        try JUnitSchema.check(text)
        let tree = try XMLTree.parse(text)
        let suites = tree.all("testsuite")
        #expect(suites.map { $0.attributes["name"] } == result.files.map(\.stats.path))
        for (suite, file) in zip(suites, result.files) {
            #expect(suite.attributes["tests"] == "1")
            #expect(suite.attributes["failures"] == (file.findings.contains { $0.severity == .error } ? "1" : "0"))
        }
        let cases = tree.all("testcase")
        #expect(cases.map { $0.attributes["name"] } == result.files.map(\.stats.path))
        #expect(cases.allSatisfy { $0.attributes["classname"] == "vclint" })
        let root = try #require(tree.all("testsuites").first)
        #expect(root.attributes["tests"] == "4")
        #expect(root.attributes["failures"] == "1")
    }

    /// A test report is red exactly when the gate is: only errors fail (the run exits 0 on warnings
    /// and infos, so they must not show as failures); warnings and infos are in `<system-out>` and
    /// counted in the suite's properties.
    @Test func onlyFailingSeveritiesAreFailures() throws {
        let result = try ReporterGoldenTests.result("sample")
        let tree = try XMLTree.parse(JUnitReporter().report(result))
        let failures = tree.all("failure")
        #expect(failures.count == 1)  // leaked_controller; late_dealloc (warning) and memory_warning (info) pass
        #expect(failures.map { $0.attributes["type"] } == ["error"])
        let out = tree.all("system-out").map(\.text)
        #expect(out.count == 2)
        #expect(out.contains { $0.hasPrefix("Fixtures/flows/late-dealloc.log:18: warning: ") })
        #expect(out.contains { $0.hasPrefix("Fixtures/flows/memory-warning-ios5.log:18: info: ") && $0.split(separator: "\n").count == 1 })
        let properties = tree.all("property").map { "\($0.attributes["name"]!)=\($0.attributes["value"]!)" }
        #expect(properties.filter { $0 == "vclint.warnings=1" }.count == 1)
        #expect(properties.filter { $0 == "vclint.infos=1" }.count == 1)
        #expect(properties.filter { $0 == "vclint.errors=1" }.count == 1)

        // A run with only a warning and an info exits 0, and its JUnit says failures="0".
        let green = LintResult(files: [try lintFixture("Fixtures/flows/late-dealloc.log"), try lintFixture("Fixtures/flows/memory-warning-ios5.log")])
        #expect(try XMLTree.parse(JUnitReporter().report(green)).all("testsuites").first?.attributes["failures"] == "0")
        // With --strict the warning is an error, and fails.
        let strict = try XMLTree.parse(JUnitReporter().report(green.promotingWarnings()))
        #expect(strict.all("testsuites").first?.attributes["failures"] == "1")
        #expect(strict.all("failure").first?.text.hasPrefix("Fixtures/flows/late-dealloc.log:18: error: ") == true)
    }

    /// junitparser (PyPI), which test-report tools build on, counts what the gate counts: one
    /// failure (the error), and the warning and the info as passed cases with output.
    @Test(.requires(.junitparser, for: "reading the JUnit report as test-report tools do"))
    func junitparserReadsOnlyErrorsAsFailures() throws {
        let url = try writeTemp(JUnitReporter().report(try ReporterGoldenTests.result("sample")), ext: "xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
        import sys
        from junitparser import JUnitXml, Failure
        xml = JUnitXml.fromfile(sys.argv[1])
        tests = failures = passed_with_output = 0
        for suite in xml:
            for case in suite:
                tests += 1
                if any(isinstance(r, Failure) for r in case.result):
                    failures += 1
                elif case.system_out:
                    passed_with_output += 1
        print(tests, failures, passed_with_output)
        """
        let r = try python(script, [url.path])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.trimmingCharacters(in: .whitespacesAndNewlines) == "4 1 2")  // one case per input
    }

    /// `--max-warnings N` is a test case of its own, failing exactly when the run fails on it.
    @Test func maxWarningsIsATestCase() throws {
        let result = LintResult(files: [try lintFixture("Fixtures/flows/late-dealloc.log")])
        let over = try XMLTree.parse(JUnitReporter(maxWarnings: 0).report(result))
        let gate = try #require(over.all("testcase").last)
        #expect(gate.attributes["name"] == "max_warnings")
        #expect(over.all("failure").map { $0.attributes["message"] } == ["1 warning, more than --max-warnings 0 allows"])
        #expect(over.all("testsuites").first?.attributes["failures"] == "1")
        let within = try XMLTree.parse(JUnitReporter(maxWarnings: 1).report(result))
        #expect(within.all("failure").isEmpty)
        #expect(within.all("testcase").last?.attributes["name"] == "max_warnings")
        #expect(try XMLTree.parse(JUnitReporter().report(result)).all("testcase").allSatisfy { $0.attributes["name"] != "max_warnings" })
    }

    @Test(.requires(.python3, for: "parsing the XML with python3's expat")) func hostileTextParsesBack() throws {
        let text = JUnitReporter().report(Hostile.result())
        try expectPythonParsesXML(text)
        let tree = try XMLTree.parse(text)
        #expect(tree.all("testsuite").first?.attributes["name"] == Hostile.path)
        #expect(tree.all("testsuite").last?.attributes["name"] == "clean & <quiet>.log")
        #expect(tree.all("testcase").first?.attributes["classname"] == "vclint")
        #expect(tree.all("testcase").first?.attributes["name"] == Hostile.path)
        let failure = try #require(tree.all("failure").first)
        #expect(failure.attributes["message"] == "1 finding at line 7: " + Hostile.xmlMessage)
        // The body lists one finding per line: the message's own line breaks are flattened.
        #expect(failure.text.split(separator: "\n", omittingEmptySubsequences: false).count == 1)
        #expect(failure.text.hasPrefix(Hostile.path + ":7: error: Evil\"<script>&amp;'"))
        #expect(!text.contains("\u{1}") && !text.contains("\u{FFFE}") && !text.contains("<script>"))
    }
}

@Suite struct CheckstyleReporterTests {
    @Test(.requires(.python3, for: "parsing the XML with python3's expat")) func oneFileElementPerInputCleanOnesIncluded() throws {
        let result = try ReporterGoldenTests.result("sample")
        let text = CheckstyleReporter().report(result)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"))
        try expectPythonParsesXML(text)
        let tree = try XMLTree.parse(text)
        #expect(tree.all("file").map { $0.attributes["name"] } == result.files.map(\.stats.path))
        let errors = tree.all("error")
        #expect(errors.count == result.findings.count)
        for (e, f) in zip(errors, result.findings) {
            #expect(e.attributes["line"] == String(f.line))
            #expect(e.attributes["severity"] == f.severity.rawValue)
            #expect(e.attributes["message"] == f.message)
            #expect(e.attributes["source"] == "vclint." + f.rule)
        }
    }

    @Test(.requires(.python3, for: "parsing the XML with python3's expat")) func hostileTextParsesBack() throws {
        let text = CheckstyleReporter().report(Hostile.result())
        try expectPythonParsesXML(text)
        let tree = try XMLTree.parse(text)
        #expect(tree.all("file").map { $0.attributes["name"] } == [Hostile.path, "clean & <quiet>.log"])
        let errors = tree.all("error")
        #expect(errors.map { $0.attributes["severity"] } == ["error", "warning", "info"])
        // Newlines, CR and tabs survive attribute normalisation; only what XML cannot hold is replaced.
        #expect(errors.first?.attributes["message"] == Hostile.xmlMessage)
        #expect(!text.contains("\u{1}") && !text.contains("\u{FFFE}") && !text.contains("<script>"))
    }
}

@Suite struct XMLTextTests {
    @Test func escapesMarkupAndReplacesWhatXMLCannotHold() {
        #expect(XMLText.attribute("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(XMLText.attribute("1\n2\r3\t4") == "1&#10;2&#13;3&#9;4")
        #expect(XMLText.text("1\n2\r3\t4]]>") == "1\n2&#13;3\t4]]&gt;")
        #expect(XMLText.text("\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\u{FFFF}") == String(repeating: "\u{FFFD}", count: 8))
        // Allowed, but not raw: a printed report must not carry DEL or C1 controls to a terminal.
        #expect(XMLText.text("\u{7F}\u{85}é\u{1F600}") == "&#x7F;&#x85;é\u{1F600}")
    }
}

@Suite struct GitHubActionsReporterTests {
    @Test func escapingIsExact() {
        #expect(GitHubActionsReporter.data("100% done\r\nnext::x,y:z") == "100%25 done%0D%0Anext::x,y:z")
        #expect(GitHubActionsReporter.property("100% done\r\nnext::x,y:z") == "100%25 done%0D%0Anext%3A%3Ax%2Cy%3Az")
        #expect(GitHubActionsReporter.data("%0A") == "%250A")
        #expect(GitHubActionsReporter.data("esc\u{1B}[31m bell\u{7} nel\u{85} ls\u{2028} tab\t") == "esc\u{FFFD}[31m bell\u{FFFD} nel\u{FFFD} ls\u{FFFD} tab\t")
    }

    /// One command per error or warning; the infos are one notice at the end, not annotations.
    @Test func oneCommandPerErrorOrWarning() {
        let out = GitHubActionsReporter().report(Hostile.result())
        let p = "logs/we<ir>d \"dir\"/a%2Cb%3Ac%2525 é#?.log"
        let m = "Evil\"<script>&amp;'%250A%25%0A::error file=x::pwned%0D%0Anext,{0}}|`*_[x](y)@team~$ \u{FFFD}\u{FFFD}[31m\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFE}end"
        #expect(out == """
        ::error file=\(p),line=7,title=leaked_controller::\(m)
        ::warning file=\(p),line=9,title=late_dealloc::\(m)
        ::notice title=vclint::1 info is not annotated (memory_warning: 1); the other report formats list them

        """)
    }

    /// A capture with a memory warning in every session: hundreds of infos are one line, after
    /// every error and warning, with each rule's count (the most frequent first) escaped as a
    /// message is, so that a rule name read from a merged report cannot end the command.
    @Test func infosAreOneSummaryLineAtTheEnd() {
        var findings = (0..<335).map { Hostile.finding(.info, rule: "memory_warning", line: 10 + $0, path: "a.log") }
        findings.insert(Hostile.finding(.error, line: 5, path: "a.log"), at: 100)
        findings += [Hostile.finding(.info, rule: "slow_transition", line: 400, path: "a.log"),
                     Hostile.finding(.info, rule: "evil\n::error::x%,y:z", line: 401, path: "a.log"),
                     Hostile.finding(.info, rule: "slow_transition", line: 402, path: "a.log"),
                     Hostile.finding(.warning, rule: "late_dealloc", line: 403, path: "a.log")]
        let result = LintResult(files: [FileResult(stats: InputStats(path: "a.log"), findings: findings)])
        let lines = GitHubActionsReporter().report(result).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last == "")
        #expect(lines[0].hasPrefix("::error file=a.log,line=5,title=leaked_controller::"))
        #expect(lines[1].hasPrefix("::warning file=a.log,line=403,title=late_dealloc::"))
        #expect(lines[2] == "::notice title=vclint::338 infos are not annotated (memory_warning: 335, slow_transition: 2, evil%0A::error::x%25,y:z: 1); the other report formats list them")
        #expect(!GitHubActionsReporter().report(result).contains("::notice file="))
    }

    /// A reporter used for a second stream counts that stream's infos only.
    @Test func eachStreamCountsItsOwnInfos() throws {
        let result = try ReporterGoldenTests.result("sample")
        var reporter = GitHubActionsReporter()
        let first = ReportWriter(), second = ReportWriter()
        try reporter.begin(to: first)
        for file in result.files { for f in file.findings { try reporter.finding(f, to: first) } }
        try reporter.end(result, to: first)
        #expect(reporter.report(result) == first.text)
        try reporter.stream(result, to: second)
        #expect(second.text == first.text)
        #expect(first.text.hasSuffix("::notice title=vclint::1 info is not annotated (memory_warning: 1); the other report formats list them\n"))
    }

    /// `lint --follow` prints the summary of the infos last, once the stream is over, as the batch run does.
    @Test func followPrintsTheInfoSummaryLast() throws {
        let cli = CLITests()
        let input = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/flows/memory-warning-ios5.log"))
        let live = try cli.run(["lint", "--follow", "--reporter", "github-actions", "-"], stdin: input)
        let batch = try cli.run(["lint", "--reporter", "github-actions", "-"], stdin: input)
        #expect(live.status == 0 && batch.status == 0)
        #expect(live.stdout == batch.stdout)
        #expect(live.stdout == "::notice title=vclint::1 info is not annotated (memory_warning: 1); the other report formats list them\n", "\(live.stdout)")
    }

    @Test func cleanRunPrintsNothing() throws {
        #expect(GitHubActionsReporter().report(LintResult(files: [try lintFixture("Fixtures/seeds/navtest-seed000.log")])) == "")
    }
}

@Suite struct MarkdownReporterTests {
    @Test func cleanRun() throws {
        let out = MarkdownReporter().report(LintResult(files: [try lintFixture("Fixtures/seeds/navtest-seed000.log")]))
        #expect(out == "## vclint\n\n0 errors, 0 warnings, 0 infos in 1 file (29 lines)\n\nNo lifecycle violations.\n")
    }

    @Test func cellEscaping() {
        #expect(MarkdownText.cell("a|b\nc\r\nd\re\tf") == "a\\|b<br>c<br>d<br>e f")
        #expect(MarkdownText.cell("<img src=x>&amp;") == "\\<img src=x\\>\\&amp;")
        #expect(MarkdownText.cell("*b* _i_ `c` [l](u) ~~s~~ $m$ \\") == "\\*b\\* \\_i\\_ \\`c\\` \\[l\\](u) \\~\\~s\\~\\~ \\$m\\$ \\\\")
        #expect(MarkdownText.cell("cc @team") == "cc @\u{200B}team")
        #expect(MarkdownText.cell("\u{1}\u{1B}\u{85}") == "\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test func hostileRowsStayRows() {
        let out = MarkdownReporter().report(Hostile.result())
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        let rows = lines.filter { $0.hasPrefix("| ") }
        #expect(rows.count == 2 + 3)  // header, separator, three findings
        for row in rows {
            // Exactly five unescaped pipes: four columns.
            var pipes = 0
            var escaped = false
            for c in row {
                if c == "|" && !escaped { pipes += 1 }
                escaped = c == "\\" && !escaped
            }
            #expect(pipes == 5, "\(row)")
        }
        #expect(out.contains("| `leaked_controller` |"))
        #expect(!out.contains("<script>"))
        #expect(!out.contains("@team"))
        #expect(out.contains("**1 error**, **1 warning**, 1 info in 2 files (21 lines)"))
    }

    @Test func longReportsAreCut() {
        var stats = InputStats(path: "big.log")
        stats.lines = 500
        let findings = (1...250).map { Hostile.finding(line: $0) }
        let out = MarkdownReporter(maxRows: 100).report(LintResult(files: [FileResult(stats: stats, findings: findings)]))
        #expect(out.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 102)
        #expect(out.hasSuffix("\n… and 150 more findings not shown.\n"))
    }
}

/// Infos folded where a person reads: one line per rule with its count, unless `--infos`.
@Suite struct InfoFoldingTests {
    static func result() -> LintResult {
        var findings = [Hostile.finding(.error, line: 2, path: "a.log")]
        findings += (0..<5).map { Hostile.finding(.info, rule: "memory_warning", line: 10 + $0, path: "a.log") }
        findings.insert(Hostile.finding(.info, rule: "slow_transition", line: 4, path: "a.log"), at: 1)
        findings.append(Hostile.finding(.warning, rule: "late_dealloc", line: 30, path: "a.log"))
        return LintResult(files: [FileResult(stats: InputStats(path: "a.log"), findings: findings)])
    }

    @Test func xcodeFoldsOnATerminalOnly() {
        let folded = XcodeReporter(foldInfos: true).report(Self.result()).split(separator: "\n")
        #expect(folded.count == 4)
        #expect(folded[0].hasPrefix("a.log:2: error: ") && folded[1].hasPrefix("a.log:30: warning: "))
        // The rules in the order they first occurred; a rule's only info as it is.
        #expect(folded[2] == "a.log:4: info: \(TerminalText.field(Hostile.message)) (slow_transition)")
        #expect(folded[3] == "a.log:10: info: 5 infos of this rule, the first here: \(TerminalText.field(Hostile.message)); --infos prints each (memory_warning)")
        #expect(XcodeReporter().report(Self.result()).split(separator: "\n").count == 8)
        // The registry folds when the context says the report is on a terminal, and --infos did not ask for each.
        let terminal = ReporterRegistry.reporter(named: "xcode", context: ReportContext(terminal: true))!
        #expect(terminal.report(Self.result()).split(separator: "\n").count == 4)
        #expect(ReporterRegistry.reporter(named: "xcode", context: ReportContext(terminal: true, allInfos: true))!.report(Self.result()).split(separator: "\n").count == 8)
        #expect(ReporterRegistry.reporter(named: "xcode", context: ReportContext())!.report(Self.result()).split(separator: "\n").count == 8)
    }

    @Test func markdownFoldsUnlessAllInfos() {
        let rows = { (r: any Reporter) in r.report(Self.result()).split(separator: "\n").filter { $0.hasPrefix("| a.log") } }
        let folded = rows(ReporterRegistry.reporter(named: "markdown", context: ReportContext())!)
        #expect(folded.count == 4)
        #expect(folded[3].hasPrefix("| a.log:10 | info | `memory_warning` | 5 infos of this rule, the first here: "))
        #expect(folded[3].hasSuffix(" (`--infos` lists each) |"))
        #expect(rows(ReporterRegistry.reporter(named: "markdown", context: ReportContext(allInfos: true))!).count == 8)
        // Folded rows count the findings they stand for when the table is cut.
        let cut = MarkdownReporter(maxRows: 3, foldInfos: true).report(Self.result())
        #expect(cut.hasSuffix("\n… and 5 more findings not shown.\n"))
    }

    /// GitHub keeps 1 MiB of a step's summary: the table stops before it, and says so.
    @Test func markdownStopsBeforeItsByteBound() {
        let findings = (1...20_000).map { Hostile.finding(line: $0, path: "big.log") }
        let result = LintResult(files: [FileResult(stats: InputStats(path: "big.log"), findings: findings)])
        let out = MarkdownReporter(maxRows: nil).report(result)
        #expect(out.utf8.count <= MarkdownReporter.summaryBytes)
        #expect(out.utf8.count > MarkdownReporter.summaryBytes - 2 * MarkdownReporter.cutLineRoom - 1000)
        let rows = out.split(separator: "\n").filter { $0.hasPrefix("| big.log:") }.count
        #expect(rows > 1000 && rows < 20_000)
        #expect(out.hasSuffix("\n… and \(20_000 - rows) more findings not shown: a job summary holds 1 MiB; the other report formats list every finding.\n"))
        let small = MarkdownReporter(maxRows: nil, maxBytes: 4096).report(result)
        #expect(small.utf8.count <= 4096)
        #expect(MarkdownReporter(maxRows: nil).report(Self.result()).split(separator: "\n").filter { $0.hasPrefix("| a.log") }.count == 8)
    }

    /// `--infos` and `--markdown-rows` on lint and merge; xcode in a pipe keeps each info.
    @Test func commandLine() throws {
        let cli = CLITests()
        let capture = "Fixtures/flows/memory-warning-ios5.log"
        let piped = try cli.run(["lint", capture])
        #expect(piped.stdout.contains(": info: The session received"))
        let rows = try cli.run(["lint", capture, "--reporter", "markdown", "--markdown-rows", "all", "--infos"])
        #expect(rows.status == 0 && rows.stdout.contains("| info | `memory_warning` |"))
        let zero = try cli.run(["lint", capture, "--markdown-rows", "0"])
        #expect(zero.status != 0 && zero.status != 1 && zero.stderr.contains("--markdown-rows must be a whole number 1 or more, not '0'"), "\(zero.stderr)")
        let dir = scratchRoot.appendingPathComponent("vclint-fold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = dir.appendingPathComponent("s.json").path
        _ = try cli.run(["lint", capture, "--reporter", "json:\(shard)"])
        let merged = try cli.run(["merge", shard, "--reporter", "markdown", "--infos", "--markdown-rows", "5"])
        #expect(merged.status == 0 && merged.stdout.contains("`memory_warning`"), "\(merged.stderr)")
    }
}

@Suite struct XcodeReporterEscapingTests {
    @Test func oneLinePerFinding() {
        let out = XcodeReporter().report(Hostile.result())
        #expect(out.split(separator: "\n").count == 3)
        #expect(!out.contains("\r") && !out.contains("\u{1B}"))
    }
}

@Suite struct ReporterRequestTests {
    @Test func parsing() throws {
        #expect(try ReporterRequest.parse("xcode") == ReporterRequest(name: "xcode"))
        #expect(try ReporterRequest.parse("sarif:out.sarif") == ReporterRequest(name: "sarif", path: "out.sarif"))
        #expect(try ReporterRequest.parse("junit:reports/a:b.xml") == ReporterRequest(name: "junit", path: "reports/a:b.xml"))
        #expect(try ReporterRequest.parse("json:-") == ReporterRequest(name: "json"))
        for name in ReporterRegistry.names { #expect(try ReporterRequest.parse(name).name == name) }
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parse("yaml") }
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parse("yaml:out.yml") }
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parse("sarif:") }
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parse("") }
    }

    @Test func sets() throws {
        #expect(try ReporterRequest.parseAll([]) == [ReporterRequest(name: "xcode")])
        #expect(try ReporterRequest.parseAll(["xcode", "sarif:a.sarif", "junit:a.xml"]).count == 3)
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parseAll(["xcode", "json"]) }
        #expect(throws: ReporterRequestError.self) { try ReporterRequest.parseAll(["sarif:a", "json:./a"]) }
    }
}

@Suite struct PendingReportFileTests {
    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func contents(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func commitReplacesTheTargetAtOnce() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.sarif")
        try Data("old".utf8).write(to: target)
        let file = try PendingReportFile(path: target.path)
        #expect(try contents(dir).count == 2)  // the target and the hidden temporary file
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        try file.commit("new report\n")
        #expect(try String(contentsOf: target, encoding: .utf8) == "new report\n")
        #expect(try contents(dir) == ["out.sarif"])
    }

    @Test func discardLeavesTheTargetAlone() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out.xml")
        try Data("old".utf8).write(to: target)
        let file = try PendingReportFile(path: target.path)
        file.discard()
        #expect(try contents(dir) == ["out.xml"])
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        let fresh = try PendingReportFile(path: dir.appendingPathComponent("new.xml").path)
        fresh.discard()
        #expect(try contents(dir) == ["out.xml"])
    }

    /// A link would have the report replace whatever it leads to: refused, dangling or not, and
    /// nothing changes; a link to a target written in place (standard output, /dev/null) is written.
    @Test func aSymbolicLinkIsRefused() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("real.sarif")
        try Data("old".utf8).write(to: real)
        let link = dir.appendingPathComponent("link.sarif")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.sarif")
        let toFile = #expect(throws: ReportFileError.self) { _ = try PendingReportFile(path: link.path) }
        #expect(toFile?.description == "\(link.path): is a symbolic link to a regular file, not a regular file; a report is written to a regular file (not through a link, which would replace what it leads to), or to - (standard output), /dev/stdout, /dev/stderr or /dev/null")
        let dangling = dir.appendingPathComponent("dangling.sarif")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "missing/nowhere.sarif")
        let nowhere = #expect(throws: ReportFileError.self) { _ = try PendingReportFile(path: dangling.path) }
        #expect(nowhere?.description.hasPrefix("\(dangling.path): is a symbolic link leading nowhere, not a regular file;") == true)
        #expect(try String(contentsOf: real, encoding: .utf8) == "old")
        #expect(try contents(dir) == ["dangling.sarif", "link.sarif", "real.sarif"])
        let null = dir.appendingPathComponent("null.sarif")
        try FileManager.default.createSymbolicLink(atPath: null.path, withDestinationPath: "/dev/null")
        try PendingReportFile(path: null.path).commit("report\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: null.path) == "/dev/null")
    }

    /// `/dev/null` (like `/dev/stderr`) is written, not replaced.
    @Test func aDeviceIsWrittenInPlace() throws {
        var before = stat()
        #expect(stat("/dev/null", &before) == 0)
        try PendingReportFile(path: "/dev/null").commit("report\n")
        var after = stat()
        #expect(stat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev)
    }

    @Test func unwritableTargetsFailUpFront() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("no/such/dir/out.sarif").path
        let noDir = #expect(throws: ReportFileError.self) { _ = try PendingReportFile(path: missing) }
        #expect(noDir?.description == "\(missing): no such file or directory")
        let isDir = #expect(throws: ReportFileError.self) { _ = try PendingReportFile(path: dir.path) }
        #expect(isDir?.description == "\(dir.path): is a directory")
        let file = dir.appendingPathComponent("plain")
        try Data().write(to: file)
        let underFile = file.path + "/out.sarif"
        let notDir = #expect(throws: ReportFileError.self) { _ = try PendingReportFile(path: underFile) }
        #expect(notDir?.description == "\(underFile): not a directory")
    }
}

/// SARIF rules link their help (`helpUri`) to their section of docs/rules.md at the release's tag, in
/// the repository the build came from (`VCLintVersion.rulesDocumentation`).
@Suite struct SARIFHelpUriTests {
    @Test func theRemoteGivesTheRulesPageAtTheReleaseTag() {
        let page = "https://github.com/acme/vclint/blob/v1.2.3/" + VCLintVersion.rulesPage
        for remote in ["https://github.com/acme/vclint.git", "https://github.com/acme/vclint", "git@github.com:acme/vclint.git",
                       "ssh://git@github.com/acme/vclint.git", "https://user:s3cret@github.com/acme/vclint.git", "https://github.com/acme/vclint/"] {
            #expect(VCLintVersion.documentationPage(remote: remote, release: "1.2.3") == page, "\(remote)")
        }
        #expect(VCLintVersion.documentationPage(remote: "git@gitlab.example.com:mobile/tools/vclint.git", release: "1.0.0")
                == "https://gitlab.example.com/mobile/tools/vclint/-/blob/v1.0.0/" + VCLintVersion.rulesPage)
        for none in ["", "/srv/git/vclint.git", "file:///srv/git/vclint", "https://github.com/vclint", "vclint", "https://github.com/a/../b"] {
            #expect(VCLintVersion.documentationPage(remote: none, release: "1.0.0") == nil, "\(none)")
        }
    }

    @Test func everyRuleLinksItsSection() throws {
        let page = "https://github.com/acme/vclint/blob/v1.0.0/" + VCLintVersion.rulesPage
        let text = SARIFReporter(documentation: page).report(LintResult(files: []))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.count == RuleRegistry.descriptions.count)
        for r in rules { #expect(r["helpUri"] as? String == "\(page)#\(r["id"] as? String ?? "")") }
        // The anchors exist: each rule is a `## \`id\`` heading of docs/rules.md.
        let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for d in RuleRegistry.descriptions { #expect(reference.contains("\n## `\(d.identifier)`\n"), "\(d.identifier)") }
        // Without a repository, no helpUri.
        #expect(!SARIFReporter(documentation: nil).report(LintResult(files: [])).contains("helpUri"))
    }

    @Test(.requires(.jsonschema, for: "the SARIF schema validation")) func withHelpUriTheReportIsValid() throws {
        try SARIFReporterTests().expectValid(SARIFReporter(documentation: "https://github.com/acme/vclint/blob/v1.0.0/" + VCLintVersion.rulesPage)
            .report(try ReporterGoldenTests.result("sample")))
    }
}
