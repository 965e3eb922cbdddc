/// JUnit XML, for CI systems that show test results (Jenkins, GitLab, Azure Pipelines, test-report
/// actions): one test suite per input file, one test case per enabled rule. A rule fails in a file
/// only on findings at a failing severity (error; `--strict` has already made warnings errors), so
/// the test report is red exactly when the gate is: warnings and infos are listed in the case's
/// `<system-out>` and counted in the suite's properties. With `--max-warnings N` the gate itself is
/// one more test case, failing when the run has more warnings than that.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public var rules: RuleSettings
    public var maxWarnings: Int?

    public init(rules: RuleSettings = .default, maxWarnings: Int? = nil) {
        self.rules = rules
        self.maxWarnings = maxWarnings
    }

    struct Case {
        var rule: String
        var findings: [Finding]
        var failing: [Finding] { findings.filter { $0.severity == .error } }
        var other: [Finding] { findings.filter { $0.severity != .error } }
    }

    public func report(_ result: LintResult) -> String {
        let enabled = RuleRegistry.identifiers.filter { rules.enabled.contains($0) }
        var suites: [(path: String, cases: [Case])] = []
        for file in result.files {
            var byRule: [String: [Finding]] = [:]
            // A finding of a rule that is not enabled (a caller's own findings) still gets a case.
            var extra: [String] = []
            for f in file.findings {
                if byRule[f.rule] == nil, !enabled.contains(f.rule) { extra.append(f.rule) }
                byRule[f.rule, default: []].append(f)
            }
            suites.append((file.stats.path, (enabled + extra).map { Case(rule: $0, findings: byRule[$0] ?? []) }))
        }
        let warnings = result.count(.warning)
        let gateFails = maxWarnings.map { warnings > $0 } ?? false

        let tests = suites.reduce(0) { $0 + $1.cases.count } + (maxWarnings == nil ? 0 : 1)
        let failures = suites.reduce(0) { $0 + $1.cases.filter { !$0.failing.isEmpty }.count } + (gateFails ? 1 : 0)
        var out = XMLText.declaration + "\n"
        out += "<testsuites name=\"\(VCLintVersion.name)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failing = suite.cases.filter { !$0.failing.isEmpty }.count
            let path = XMLText.attribute(suite.path)
            let all = suite.cases.flatMap(\.findings)
            out += "  <testsuite name=\"\(path)\" tests=\"\(suite.cases.count)\" failures=\"\(failing)\" errors=\"0\" skipped=\"0\">\n"
            out += "    <properties>\n"
            for s in [Severity.error, .warning, .info] {
                out += "      <property name=\"\(VCLintVersion.name).\(s.rawValue)s\" value=\"\(all.filter { $0.severity == s }.count)\"/>\n"
            }
            out += "    </properties>\n"
            for c in suite.cases {
                let head = "    <testcase classname=\"\(XMLText.attribute("\(VCLintVersion.name).\(suite.path)"))\" name=\"\(XMLText.attribute(c.rule))\""
                if c.findings.isEmpty {
                    out += head + "/>\n"
                    continue
                }
                out += head + ">\n"
                let failing = c.failing
                if !failing.isEmpty {
                    let lines = failing.map { String($0.line) }.joined(separator: ", ")
                    let message = failing.count == 1
                        ? "1 finding at line \(lines): \(failing[0].message)"
                        : "\(failing.count) findings at lines \(lines)"
                    out += "      <failure message=\"\(XMLText.attribute(message))\" type=\"error\">\(XMLText.text(Self.lines(failing)))</failure>\n"
                }
                let other = c.other
                if !other.isEmpty {
                    out += "      <system-out>\(XMLText.text(Self.lines(other)))</system-out>\n"
                }
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        if let maxWarnings {
            let head = "    <testcase classname=\"\(VCLintVersion.name)\" name=\"max_warnings\""
            out += "  <testsuite name=\"\(VCLintVersion.name) --max-warnings \(maxWarnings)\" tests=\"1\" failures=\"\(gateFails ? 1 : 0)\" errors=\"0\" skipped=\"0\">\n"
            if gateFails {
                let message = "\(warnings) warning\(warnings == 1 ? "" : "s"), more than --max-warnings \(maxWarnings) allows"
                out += head + ">\n      <failure message=\"\(XMLText.attribute(message))\" type=\"max_warnings\">\(XMLText.text(message))</failure>\n    </testcase>\n"
            } else {
                out += head + "/>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// One finding per line, as the xcode reporter prints them.
    static func lines(_ findings: [Finding]) -> String {
        findings.map { "\($0.path):\($0.line): \($0.severity.rawValue): \(XcodeReporter.oneLine($0.message))" }.joined(separator: "\n")
    }
}
