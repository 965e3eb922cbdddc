/// JUnit XML, for CI systems that show test results (Jenkins, GitLab, Azure Pipelines, test-report
/// actions): one test suite per input file, and in it one test case per UI test that ran, so that a
/// leak fails the test that caused it (docs/reporters.md#junit).
///
/// When the capture shows the test runner's lines (`FileResult.tests`, or a merged report's
/// `Finding.test`), each test that ran is a case, named as xcodebuild's JUnit converters name it:
/// classname the test class, name the test method (`LoginTests/testLogout` → `LoginTests`,
/// `testLogout`); findings outside any test are in a case named after the input. Without test
/// boundaries the input is one case. A case fails only on findings at a failing severity (error;
/// `--strict` has already made warnings errors), so the test report is red exactly when the gate
/// is: warnings and infos are listed in the case's `<system-out>` and counted in the suite's
/// properties. With `--max-warnings N` the gate itself is one more test case, failing when the run
/// has more warnings than that.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static let summary = "JUnit XML, for CI test results"

    public var maxWarnings: Int?

    public init(maxWarnings: Int? = nil) {
        self.maxWarnings = maxWarnings
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        // The totals come first: one pass for them, keeping only counts; each suite is grouped again as it is written.
        var tests = 0, failures = 0
        for file in result.files {
            let cases = Self.cases(file)
            tests += cases.count
            failures += cases.filter { !$0.failing.isEmpty }.count
        }
        let warnings = result.count(.warning)
        let gateFails = maxWarnings.map { warnings > $0 } ?? false
        if maxWarnings != nil { tests += 1 }
        if gateFails { failures += 1 }
        try out.write(XMLText.declaration + "\n")
        try out.write("<testsuites name=\"\(VCLintVersion.name)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n")
        for file in result.files {
            let cases = Self.cases(file)
            let failing = cases.filter { !$0.failing.isEmpty }.count
            let path = XMLText.attribute(file.stats.path)
            try out.write("  <testsuite name=\"\(path)\" tests=\"\(cases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n")
            try out.write("    <properties>\n")
            for s in [Severity.error, .warning, .info] {
                try out.write("      <property name=\"\(VCLintVersion.name).\(s.rawValue)s\" value=\"\(file.findings.count(s))\"/>\n")
            }
            try out.write("    </properties>\n")
            for c in cases {
                let head = "    <testcase classname=\"\(XMLText.attribute(c.classname))\" name=\"\(XMLText.attribute(c.name))\""
                if c.failing.isEmpty && c.other.isEmpty {
                    try out.write(head + "/>\n")
                    continue
                }
                try out.write(head + ">\n")
                if !c.failing.isEmpty {
                    // The message: the one finding's line and message, or every line (digits and ", ", nothing to escape).
                    if c.failing.count == 1 {
                        let f = file.findings[c.failing[0]]
                        try out.write("      <failure message=\"\(XMLText.attribute("1 finding at line \(f.line): \(f.message)"))\"")
                    } else {
                        try out.write("      <failure message=\"\(c.failing.count) findings at lines ")
                        for (k, i) in c.failing.enumerated() { try out.write(k == 0 ? String(file.findings[i].line) : ", \(file.findings[i].line)") }
                        try out.write("\"")
                    }
                    try out.write(" type=\"error\">")
                    try Self.lines(c.failing, of: file, to: out)
                    try out.write("</failure>\n")
                }
                if !c.other.isEmpty {
                    try out.write("      <system-out>")
                    try Self.lines(c.other, of: file, to: out)
                    try out.write("</system-out>\n")
                }
                try out.write("    </testcase>\n")
            }
            try out.write("  </testsuite>\n")
        }
        if let maxWarnings {
            let head = "    <testcase classname=\"\(VCLintVersion.name)\" name=\"max_warnings\""
            try out.write("  <testsuite name=\"\(VCLintVersion.name) --max-warnings \(maxWarnings)\" tests=\"1\" failures=\"\(gateFails ? 1 : 0)\" errors=\"0\" skipped=\"0\">\n")
            if gateFails {
                let message = "\(warnings) warning\(warnings == 1 ? "" : "s"), more than --max-warnings \(maxWarnings) allows"
                try out.write(head + ">\n      <failure message=\"\(XMLText.attribute(message))\" type=\"max_warnings\">\(XMLText.text(message))</failure>\n    </testcase>\n")
            } else {
                try out.write(head + "/>\n")
            }
            try out.write("  </testsuite>\n")
        }
        try out.write("</testsuites>\n")
    }

    /// One test case: its JUnit identity and the indices of its findings that fail the run (errors)
    /// and of the others.
    struct Case {
        var classname: String
        var name: String
        var failing: [Int] = []
        var other: [Int] = []
    }

    /// One input's test cases: each test that ran, in the order they started (then each test a
    /// finding names that the boundaries do not, as in a merged report), and the input's own case for
    /// the findings outside any test, when there are any; without tests, the input's case alone.
    static func cases(_ file: FileResult) -> [Case] {
        var cases: [Case] = []
        var caseOf: [String: Int] = [:]
        func index(_ test: String) -> Int {
            if let k = caseOf[test] { return k }
            let (classname, name) = identity(test)
            cases.append(Case(classname: classname, name: name))
            caseOf[test] = cases.count - 1
            return cases.count - 1
        }
        for t in file.tests.ran { _ = index(t) }
        var outside = Case(classname: VCLintVersion.name, name: file.stats.path)
        for i in file.findings.indices {
            let f = file.findings[i]
            let error = f.severity == .error
            if let t = f.test {
                let k = index(t)
                if error { cases[k].failing.append(i) } else { cases[k].other.append(i) }
            } else if error {
                outside.failing.append(i)
            } else {
                outside.other.append(i)
            }
        }
        if cases.isEmpty || !outside.failing.isEmpty || !outside.other.isEmpty { cases.append(outside) }
        return cases
    }

    /// `LoginTests/testLogout` → classname `LoginTests`, name `testLogout`, as xcpretty and
    /// xcbeautify name an XCTest case (Swift Testing: the suite and `testLogout()`); a test without a
    /// class or suite is in classname `vclint`.
    static func identity(_ test: String) -> (classname: String, name: String) {
        guard let slash = test.lastIndex(of: "/") else { return (VCLintVersion.name, test) }
        return (String(test[..<slash]), String(test[test.index(after: slash)...]))
    }

    /// One finding per line, as the xcode reporter prints them.
    static func lines(_ indices: [Int], of file: FileResult, to out: ReportWriter) throws(ReportWriteError) {
        for (k, i) in indices.enumerated() {
            let f = file.findings[i]
            try out.write((k == 0 ? "" : "\n") + XMLText.text("\(TerminalText.field(f.path)):\(f.line): \(f.severity.rawValue): \(TerminalText.field(f.message)) (\(TerminalText.field(f.rule)))"))
        }
    }
}
