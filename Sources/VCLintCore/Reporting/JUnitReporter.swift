/// JUnit XML, for CI systems that show test results (Jenkins, GitLab, Azure Pipelines, test-report
/// actions): one test suite per input file, one test case per enabled rule; a rule that found
/// something in that file fails, and its failure lists the findings.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public var rules: RuleSettings

    public init(rules: RuleSettings = .default) {
        self.rules = rules
    }

    public func report(_ result: LintResult) -> String {
        let enabled = RuleRegistry.identifiers.filter { rules.enabled.contains($0) }
        var suites: [(path: String, cases: [(rule: String, findings: [Finding])])] = []
        for file in result.files {
            var byRule: [String: [Finding]] = [:]
            // A finding of a rule that is not enabled (a caller's own findings) still gets a case.
            var extra: [String] = []
            for f in file.findings {
                if byRule[f.rule] == nil, !enabled.contains(f.rule) { extra.append(f.rule) }
                byRule[f.rule, default: []].append(f)
            }
            suites.append((file.stats.path, (enabled + extra).map { ($0, byRule[$0] ?? []) }))
        }

        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.cases.filter { !$0.findings.isEmpty }.count }
        var out = XMLText.declaration + "\n"
        out += "<testsuites name=\"\(VCLintVersion.name)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failing = suite.cases.filter { !$0.findings.isEmpty }.count
            let path = XMLText.attribute(suite.path)
            out += "  <testsuite name=\"\(path)\" tests=\"\(suite.cases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n"
            for c in suite.cases {
                let head = "    <testcase classname=\"\(XMLText.attribute("\(VCLintVersion.name).\(suite.path)"))\" name=\"\(XMLText.attribute(c.rule))\""
                guard let worst = c.findings.map(\.severity).max() else {
                    out += head + "/>\n"
                    continue
                }
                let lines = c.findings.map { String($0.line) }.joined(separator: ", ")
                let message = c.findings.count == 1
                    ? "1 finding at line \(lines): \(c.findings[0].message)"
                    : "\(c.findings.count) findings at lines \(lines)"
                let body = c.findings.map {
                    "\($0.path):\($0.line): \($0.severity.rawValue): \(XcodeReporter.oneLine($0.message))"
                }.joined(separator: "\n")
                out += head + ">\n"
                out += "      <failure message=\"\(XMLText.attribute(message))\" type=\"\(worst.rawValue)\">\(XMLText.text(body))</failure>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }
}
