/// Checkstyle XML (the format SwiftLint, ESLint and many CI plugins share): one `<file>` per input,
/// clean ones included, so a viewer can tell a clean file from one that was not linted.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"
    public init() {}

    public func report(_ result: LintResult) -> String {
        // Findings are grouped by their own path, the input's first (present even when clean).
        var order: [String] = []
        var byPath: [String: [Finding]] = [:]
        for file in result.files {
            if byPath[file.stats.path] == nil { order.append(file.stats.path); byPath[file.stats.path] = [] }
            for f in file.findings {
                if byPath[f.path] == nil { order.append(f.path); byPath[f.path] = [] }
                byPath[f.path]!.append(f)
            }
        }
        var out = XMLText.declaration + "\n<checkstyle version=\"4.3\">\n"
        for path in order {
            let findings = byPath[path]!
            let name = "  <file name=\"\(XMLText.attribute(path))\""
            if findings.isEmpty {
                out += name + "/>\n"
                continue
            }
            out += name + ">\n"
            for f in findings {
                out += "    <error line=\"\(f.line)\" severity=\"\(f.severity.rawValue)\" message=\"\(XMLText.attribute(f.message))\" source=\"\(XMLText.attribute("\(VCLintVersion.name).\(f.rule)"))\"/>\n"
            }
            out += "  </file>\n"
        }
        out += "</checkstyle>\n"
        return out
    }
}
