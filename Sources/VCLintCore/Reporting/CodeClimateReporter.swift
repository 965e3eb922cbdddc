/// GitLab Code Quality: the subset of the Code Climate issue format that GitLab reads from a job's
/// `artifacts: reports: codequality:` file and shows in the merge request. A JSON array, one issue
/// per finding: `description`, `check_name` (the rule id), `fingerprint`, `severity`, and
/// `location` (`path`, `lines.begin`).
///
/// GitLab tells issues apart, and matches them between the target branch's report and the merge
/// request's, by `fingerprint`, and shows one issue per fingerprint. A vclint fingerprint is stable
/// across runs but shared by the findings of one cause (two leaks of one class); the n-th finding of
/// a fingerprint (in report order) gets the fingerprint with `-n` hashed in, so each is shown, and
/// is the same issue in the next run.
public struct CodeClimateReporter: Reporter {
    public static let identifier = "codeclimate"
    public static let summary = "GitLab Code Quality JSON (Code Climate issues)"
    public init() {}

    public func write(_ result: LintResult, to out: ReportWriter) throws(ReportWriteError) {
        let json = JSONStream(out)
        try json.openArray()
        var seen: [String: Int] = [:]
        for file in result.files {
            for f in file.findings {
                let n = (seen[f.fingerprint] ?? 0) + 1
                seen[f.fingerprint] = n
                try json.value(Self.issue(f, occurrence: n))
            }
        }
        try json.close()
        try out.write("\n")
    }

    /// GitLab's scale: info, minor, major, critical, blocker. A failing finding is `major`, the
    /// level GitLab's own analyzers give a likely bug.
    static func severity(_ s: Severity) -> String {
        switch s {
        case .error: return "major"
        case .warning: return "minor"
        case .info: return "info"
        }
    }

    static func fingerprint(_ f: Finding, occurrence n: Int) -> String {
        n == 1 ? f.fingerprint : Fingerprint.hash("\(f.fingerprint)-\(n)")
    }

    static func issue(_ f: Finding, occurrence n: Int) -> JSONValue {
        .object([
            ("type", .string("issue")),
            ("engine_name", .string(VCLintVersion.name)),
            ("check_name", .string(f.rule)),
            ("description", .string(f.message)),
            ("categories", .array([.string("Bug Risk")])),
            ("fingerprint", .string(fingerprint(f, occurrence: n))),
            ("severity", .string(severity(f.severity))),
            ("location", .object([("path", .string(f.path)), ("lines", .object([("begin", .int(f.line))]))])),
        ])
    }
}
