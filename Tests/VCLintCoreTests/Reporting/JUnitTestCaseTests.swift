import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import VCLintCore

/// The JUnit report maps to the UI tests the capture shows: one case per test that ran, failing
/// with the findings made while it ran.
@Suite struct JUnitTestCaseTests {
    static let xcodebuild = "Fixtures/tests/xcodebuild-hosted-leak.log"

    /// `xcodebuild test` output with three tests (the fixture without its empty fourth test), one of
    /// which leaks.
    static func threeTests() throws -> FileResult {
        let text = String(decoding: try Data(contentsOf: packageRoot.appendingPathComponent(xcodebuild)), as: UTF8.self)
        let three = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("testViewDidLoadOnce") }.joined(separator: "\n")
        return Linter().lint(bytes: Array(three.utf8), path: "three-tests.log")
    }

    @Test func threeTestsOneLeaking() throws {
        let file = try Self.threeTests()
        #expect(file.findings.count == 1)
        let text = JUnitReporter().report(LintResult(files: [file]))
        try JUnitSchema.check(text)
        let tree = try XMLTree.parse(text)
        let cases = tree.all("testcase")
        #expect(cases.map { "\($0.attributes["classname"]!) \($0.attributes["name"]!)" } == [
            "CheckoutFlowTests testOpenCart", "CheckoutFlowTests testPushDetail", "CheckoutFlowTests testSettingsSheet",
        ])
        #expect(tree.all("testsuite").map { $0.attributes["tests"] } == ["3"])
        #expect(tree.all("testsuites").first?.attributes["tests"] == "3")
        #expect(tree.all("testsuites").first?.attributes["failures"] == "1")
        let failure = try #require(tree.all("failure").first)
        #expect(tree.all("failure").count == 1)
        #expect(failure.text.hasPrefix("three-tests.log:\(file.findings[0].line): error: "))
        #expect(failure.text.hasSuffix("(leaked_controller)"))
        // The failure is inside testPushDetail's case.
        let order = tree.elements.map(\.name)
        let pushDetail = try #require(tree.elements.firstIndex { $0.attributes["name"] == "testPushDetail" })
        #expect(order[pushDetail + 1] == "failure")
    }

    /// junitparser reads what a person would count: three tests, one failed.
    @Test(.requires(.junitparser, for: "reading the JUnit report as test-report tools do"))
    func junitparserCountsTheTests() throws {
        let url = try writeTemp(JUnitReporter().report(LintResult(files: [try Self.threeTests()])), ext: "xml")
        defer { try? FileManager.default.removeItem(at: url) }
        let script = """
        import sys
        from junitparser import JUnitXml, Failure
        xml = JUnitXml.fromfile(sys.argv[1])
        for suite in xml:
            for case in suite:
                failed = any(isinstance(r, Failure) for r in case.result)
                print(case.classname, case.name, "failed" if failed else "passed")
        """
        let r = try python(script, [url.path])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output == "CheckoutFlowTests testOpenCart passed\nCheckoutFlowTests testPushDetail failed\nCheckoutFlowTests testSettingsSheet passed\n")
    }

    /// A finding before the first test (or after the last) is in a case named after the input;
    /// the suite counts it as a test only when it has one.
    @Test func findingsOutsideAnyTestHaveTheInputsCase() throws {
        var file = try Self.threeTests()
        var outside = file.findings[0]
        outside.test = nil
        outside.severity = .warning
        outside.line = 1
        file.findings = FindingList([outside, file.findings[0]])
        let tree = try XMLTree.parse(JUnitReporter().report(LintResult(files: [file])))
        let cases = tree.all("testcase")
        #expect(cases.count == 4)
        #expect(cases.last?.attributes["classname"] == "vclint")
        #expect(cases.last?.attributes["name"] == "three-tests.log")
        #expect(tree.all("system-out").first?.text.hasPrefix("three-tests.log:1: warning: ") == true)
        #expect(tree.all("failure").count == 1)
    }

    /// A merged report has no boundaries, only each finding's test: its tests with findings are cases.
    @Test func mergedFindingsNameTheirTests() throws {
        let file = try Self.threeTests()
        let merged = FileResult(stats: file.stats, findings: FindingList(Array(file.findings)))
        let cases = try XMLTree.parse(JUnitReporter().report(LintResult(files: [merged]))).all("testcase")
        #expect(cases.map { $0.attributes["name"] } == ["testPushDetail"])
    }

    @Test func identities() {
        #expect(JUnitReporter.identity("LoginTests/testLogout") == ("LoginTests", "testLogout"))
        #expect(JUnitReporter.identity("LoginSuite/testLogout()") == ("LoginSuite", "testLogout()"))
        #expect(JUnitReporter.identity("testLogout()") == ("vclint", "testLogout()"))
    }

    /// The schema checker itself refuses what the schema refuses.
    @Test func schemaCheckFails() {
        #expect(throws: JUnitSchema.Violation.self) { try JUnitSchema.check("<testsuites><testsuite name=\"a\" tests=\"2\"><testcase name=\"x\" classname=\"c\"/></testsuite></testsuites>") }
        #expect(throws: JUnitSchema.Violation.self) { try JUnitSchema.check("<testsuites><testsuite name=\"a\" tests=\"1\"><testcase name=\"x\"/></testsuite></testsuites>") }
        #expect(throws: JUnitSchema.Violation.self) { try JUnitSchema.check("<testsuites><testcase name=\"x\" classname=\"c\"/></testsuites>") }
    }

    @Test(arguments: ["sample", "hostile"])
    func goldensFollowTheSchema(_ set: String) throws {
        try JUnitSchema.check(String(decoding: try Data(contentsOf: fixtureURL("reporters/\(set)-junit.expected.xml")), as: UTF8.self))
    }
}

/// The rules of the JUnit schema Jenkins, GitLab and most test-report tools read (Jenkins' junit-10.xsd,
/// after Ant's): which element may hold which, the attributes each requires, integer counts; and
/// that the counts add up (`tests` the cases, `failures` the failing ones).
enum JUnitSchema {
    struct Violation: Error, CustomStringConvertible { let description: String }

    static let children: [String: Set<String>] = [
        "testsuites": ["testsuite"],
        "testsuite": ["properties", "testcase", "system-out", "system-err"],
        "properties": ["property"],
        "testcase": ["skipped", "error", "failure", "system-out", "system-err"],
    ]
    static let required: [String: [String]] = [
        "testsuite": ["name", "tests"], "testcase": ["name", "classname"], "property": ["name", "value"],
    ]
    static let integers = ["tests", "failures", "errors", "skipped"]

    static func check(_ text: String) throws {
        let tree = try ParentTree.parse(text)
        guard tree.nodes.first?.name == "testsuites" else { throw Violation(description: "the root is not <testsuites>") }
        for (k, n) in tree.nodes.enumerated() {
            if let p = n.parent {
                let parent = tree.nodes[p].name
                guard children[parent]?.contains(n.name) == true else { throw Violation(description: "<\(n.name)> in <\(parent)>") }
            }
            for a in required[n.name] ?? [] where n.attributes[a] == nil { throw Violation(description: "<\(n.name)> without \(a)") }
            for a in integers where n.attributes[a] != nil && Int(n.attributes[a]!) == nil { throw Violation(description: "\(a)=\(n.attributes[a]!)") }
            if n.name == "testsuite" || n.name == "testsuites" {
                let cases = tree.nodes.indices.filter { tree.nodes[$0].name == "testcase" && tree.isInside($0, k) }
                let failing = cases.filter { c in tree.nodes.indices.contains { tree.nodes[$0].name == "failure" && tree.nodes[$0].parent == c } }
                if let t = n.attributes["tests"], Int(t) != cases.count { throw Violation(description: "<\(n.name)> tests=\(t), \(cases.count) cases") }
                if let f = n.attributes["failures"], Int(f) != failing.count { throw Violation(description: "<\(n.name)> failures=\(f), \(failing.count) failing") }
            }
        }
    }

    /// Elements with their parent.
    final class ParentTree: NSObject, XMLParserDelegate {
        struct Node { var name: String; var attributes: [String: String]; var parent: Int? }
        var nodes: [Node] = []
        private var open: [Int] = []

        static func parse(_ text: String) throws -> ParentTree {
            let tree = ParentTree()
            let parser = XMLParser(data: Data(text.utf8))
            parser.delegate = tree
            guard parser.parse() else { throw Violation(description: "not XML: \(String(describing: parser.parserError))") }
            return tree
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            nodes.append(Node(name: name, attributes: attributes, parent: open.last))
            open.append(nodes.count - 1)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { open.removeLast() }

        func isInside(_ node: Int, _ ancestor: Int) -> Bool {
            var p = nodes[node].parent
            while let q = p {
                if q == ancestor { return true }
                p = nodes[q].parent
            }
            return false
        }
    }
}
