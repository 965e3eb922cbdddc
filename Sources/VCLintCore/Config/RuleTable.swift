/// `vclint rules`: every rule as a run with these options would use it (severity, on or off, and
/// its parameters after the summary), with a header row; what the configuration changed from the
/// defaults is starred.
public enum RuleTable {
    public static func text(_ options: LintOptions, configuration: String?) -> String {
        let settings = options.rules
        var changed = false
        /// `value*` when the configuration changed it.
        func cell(_ value: String, changedFrom original: String) -> String {
            changed = changed || value != original
            return value + (value != original ? "*" : "")
        }
        let rows = RuleRegistry.descriptions.map { d -> (id: String, severity: String, on: String, summary: String) in
            let on = settings.enabled.contains(d.identifier)
            let parameters = Setting.parameters(of: d.identifier).compactMap { s in
                s.value(in: options).map { "\(s.key): " + cell(Setting.text($0), changedFrom: Setting.text(s.defaultValue)) }
            }
            return (d.identifier, cell(settings.severity(of: d).rawValue, changedFrom: d.severity.rawValue),
                    cell(on ? "on" : "off", changedFrom: d.isOptIn ? "off" : "on"),
                    d.summary + (parameters.isEmpty ? "" : " [\(parameters.joined(separator: ", "))]"))
        }
        let w = max("rule".count, rows.map(\.id.count).max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
        var out = "\(pad("rule", w))  \(pad("severity", 8))  \(pad("on", 4))  summary\n"
        for r in rows { out += "\(pad(r.id, w))  \(pad(r.severity, 8))  \(pad(r.on, 4))  \(r.summary)\n" }
        if let configuration {
            let path = TerminalText.field(configuration)
            out += changed ? "* set by \(path)\n" : "(\(path) changes no rule)\n"
        }
        return TerminalText.text(out)
    }

    /// The rule table of docs/rules.md (`id | default | on | finding when | its line`) with this
    /// configuration's severities and switches; without a configuration it is that table itself.
    public static func markdown(_ settings: RuleSettings, configuration: String?) -> String {
        var out = "| id | \(configuration == nil ? "default" : "severity") | on | finding when | its line |\n| --- | --- | --- | --- | --- |\n"
        for d in RuleRegistry.descriptions {
            let on = settings.enabled.contains(d.identifier)
            let onText = configuration == nil ? Self.defaultOn(d) : (on ? "yes" : "no")
            out += "| `\(d.identifier)` | \(settings.severity(of: d).rawValue) | \(onText) | \(d.summary) | \(d.anchor) |\n"
        }
        return TerminalText.text(out)
    }

    /// The "on" cell of docs/rules.md's table: `yes`, `opt-in`, or where a setting gives the rule something to check.
    static func defaultOn(_ d: RuleDescription) -> String {
        d.isOptIn ? "opt-in" : d.configuredBy.map { "where `\($0)` is set" } ?? "yes"
    }
}
