/// JUnit XML, for CI systems that show test results (Jenkins, GitLab, Azure Pipelines, test-report
/// actions): one test suite per input file, one test case per enabled rule. A rule fails in a file
/// only on findings at a failing severity (error; `--strict` has already made warnings errors), so
/// the test report is red exactly when the gate is: warnings and infos are listed in the case's
/// `<system-out>` and counted in the suite's properties. With `--max-warnings N` the gate itself is
/// one more test case, failing when the run has more warnings than that. A finding made while a test
/// ran (the capture shows the runner's lines) is in a test case named after that test instead.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static let summary = "JUnit XML, for CI test results"

    public var rules: RuleSettings
    public var maxWarnings: Int?

    public init(rules: RuleSettings = .default, maxWarnings: Int? = nil) {
        self.rules = rules
        self.maxWarnings = maxWarnings
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let enabled = RuleRegistry.identifiers.filter { rules.enabled.contains($0) }
        // The totals come first: one pass for them, keeping only counts; each suite is grouped again as it is written.
        var tests = 0, failures = 0
        for file in result.files {
            let cases = Self.cases(file, enabled: enabled)
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
            let cases = Self.cases(file, enabled: enabled)
            let failing = cases.filter { !$0.failing.isEmpty }.count
            let path = XMLText.attribute(file.stats.path)
            try out.write("  <testsuite name=\"\(path)\" tests=\"\(cases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n")
            try out.write("    <properties>\n")
            for s in [Severity.error, .warning, .info] {
                try out.write("      <property name=\"\(VCLintVersion.name).\(s.rawValue)s\" value=\"\(file.findings.count(s))\"/>\n")
            }
            try out.write("    </properties>\n")
            let classname = XMLText.attribute("\(VCLintVersion.name).\(file.stats.path)")
            for c in cases {
                let head = "    <testcase classname=\"\(classname)\" name=\"\(XMLText.attribute(c.rule))\""
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

    /// One input's test cases: every enabled rule, then each rule of a finding that is not enabled
    /// (a caller's own findings), then each test that had findings (`Finding.test`), with the indices
    /// of the case's findings that fail the run (errors) and of the others.
    static func cases(_ file: FileResult, enabled: [String]) -> [(rule: String, failing: [Int], other: [Int])] {
        var cases = enabled.map { (rule: $0, failing: [Int](), other: [Int]()) }
        var caseOf = Dictionary(enabled.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for i in file.findings.indices {
            let f = file.findings[i]
            let name = f.test ?? f.rule
            let k = caseOf[name] ?? {
                cases.append((name, [], []))
                caseOf[name] = cases.count - 1
                return cases.count - 1
            }()
            if f.severity == .error { cases[k].failing.append(i) } else { cases[k].other.append(i) }
        }
        return cases
    }

    /// One finding per line, as the xcode reporter prints them.
    static func lines(_ indices: [Int], of file: FileResult, to out: ReportWriter) throws(ReportWriteError) {
        for (k, i) in indices.enumerated() {
            let f = file.findings[i]
            // In a test's case, each line says its rule.
            let rule = f.test == nil ? "" : " (\(f.rule))"
            try out.write((k == 0 ? "" : "\n") + XMLText.text("\(TerminalText.field(f.path)):\(f.line): \(f.severity.rawValue): \(TerminalText.field(f.message))\(rule)"))
        }
    }
}
