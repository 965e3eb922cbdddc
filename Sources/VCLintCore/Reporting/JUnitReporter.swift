/// JUnit XML, for CI systems that show test results (Jenkins, GitLab, Azure Pipelines, test-report
/// actions): one test suite per input file, one test case per enabled rule; a rule that found
/// something in that file fails, and its failure lists the findings.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public var rules: RuleSettings

    public init(rules: RuleSettings = .default) {
        self.rules = rules
    }

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let enabled = RuleRegistry.identifiers.filter { rules.enabled.contains($0) }
        // The totals come first: one pass for them, keeping only counts; each suite is grouped again as it is written.
        var tests = 0, failures = 0
        for file in result.files {
            let cases = Self.cases(file, enabled: enabled)
            tests += cases.count
            failures += cases.filter { !$0.findings.isEmpty }.count
        }
        try out.write(XMLText.declaration + "\n")
        try out.write("<testsuites name=\"\(VCLintVersion.name)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n")
        for file in result.files {
            let cases = Self.cases(file, enabled: enabled)
            let failing = cases.filter { !$0.findings.isEmpty }.count
            let path = XMLText.attribute(file.stats.path)
            try out.write("  <testsuite name=\"\(path)\" tests=\"\(cases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n")
            let classname = XMLText.attribute("\(VCLintVersion.name).\(file.stats.path)")
            for c in cases {
                let head = "    <testcase classname=\"\(classname)\" name=\"\(XMLText.attribute(c.rule))\""
                guard let worst = c.worst else {
                    try out.write(head + "/>\n")
                    continue
                }
                try out.write(head + ">\n")
                // The message: the one finding's line and message, or every line (digits and ", ", nothing to escape).
                if c.findings.count == 1 {
                    let f = file.findings[c.findings[0]]
                    try out.write("      <failure message=\"\(XMLText.attribute("1 finding at line \(f.line): \(f.message)"))\"")
                } else {
                    try out.write("      <failure message=\"\(c.findings.count) findings at lines ")
                    for (k, i) in c.findings.enumerated() { try out.write(k == 0 ? String(file.findings[i].line) : ", \(file.findings[i].line)") }
                    try out.write("\"")
                }
                try out.write(" type=\"\(worst.rawValue)\">")
                for (k, i) in c.findings.enumerated() {
                    let f = file.findings[i]
                    try out.write((k == 0 ? "" : "\n") + XMLText.text("\(f.path):\(f.line): \(f.severity.rawValue): \(XcodeReporter.oneLine(f.message))"))
                }
                try out.write("</failure>\n")
                try out.write("    </testcase>\n")
            }
            try out.write("  </testsuite>\n")
        }
        try out.write("</testsuites>\n")
    }

    /// One input's test cases: every enabled rule, then each rule of a finding that is not enabled
    /// (a caller's own findings), with the indices of the rule's findings and their worst severity.
    static func cases(_ file: FileResult, enabled: [String]) -> [(rule: String, findings: [Int], worst: Severity?)] {
        var cases = enabled.map { (rule: $0, findings: [Int](), worst: Severity?.none) }
        var caseOf = Dictionary(enabled.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        for i in file.findings.indices {
            let f = file.findings[i]
            let k = caseOf[f.rule] ?? {
                cases.append((f.rule, [], nil))
                caseOf[f.rule] = cases.count - 1
                return cases.count - 1
            }()
            cases[k].findings.append(i)
            cases[k].worst = max(cases[k].worst ?? f.severity, f.severity)
        }
        return cases
    }
}
