/// Documentation generated from the rule descriptions (`vclint rules`, `vclint explain`, README).
public enum RuleDocumentation {
    public static func textTable() -> String {
        let ds = RuleRegistry.all.map { type(of: $0).description }
        let w = ds.map(\.identifier.count).max() ?? 0
        var out = ""
        for d in ds {
            let id = d.identifier.padding(toLength: w, withPad: " ", startingAt: 0)
            let sev = d.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            let on = (d.isOptIn ? "off" : "on").padding(toLength: 3, withPad: " ", startingAt: 0)
            out += "\(id)  \(sev)  \(on)  \(d.summary)\n"
        }
        return out
    }

    public static func markdownTable() -> String {
        var out = "| id | default | on | finding when | its line |\n| --- | --- | --- | --- | --- |\n"
        for rule in RuleRegistry.all {
            let d = type(of: rule).description
            out += "| `\(d.identifier)` | \(d.severity.rawValue) | \(d.isOptIn ? "opt-in" : "yes") | \(d.summary) | \(d.anchor) |\n"
        }
        return out
    }

    public static func explain(_ d: RuleDescription) -> String {
        var out = "\(d.identifier): \(d.name)\n"
        out += "Default severity: \(d.severity.rawValue)\(d.isOptIn ? " (opt-in: off unless enabled)" : "")\n\n"
        out += d.summary + "\n\n" + d.rationale + "\n\n"
        out += "The finding points at: \(d.anchor).\n"
        out += "\nTriggering (↓ marks the line reported):\n"
        for ex in d.triggeringExamples { out += "\n" + indent(ex) + "\n" }
        out += "\nNot triggering:\n"
        for ex in d.nonTriggeringExamples { out += "\n" + indent(ex) + "\n" }
        return out
    }

    private static func indent(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}
