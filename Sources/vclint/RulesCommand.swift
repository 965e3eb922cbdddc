import ArgumentParser
import VCLintCore

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule: id, severity, on/off, one-line summary and parameters, as the configuration sets them.",
        discussion: """
        The configuration is .vclint.yml in this directory or the nearest parent, or --config FILE, \
        as for lint; what it changes from the defaults is marked with *. Without one, the defaults.
        """
    )

    @Flag(name: .long, help: "Print the table as Markdown (as in docs/rules.md).")
    var markdown = false

    @Option(name: .long, help: "Configuration file (default: .vclint.yml in this directory or a parent).")
    var config: String?

    func run() throws {
        var options = LintOptions()
        var source: String?
        if let path = config ?? Configuration.discover() {
            do {
                try Configuration.load(path: path).apply(to: &options)
            } catch {
                printError("vclint: error: \(error.description)")
                throw ExitCode(2)
            }
            source = path
        }
        writeStdout(markdown ? RuleTable.markdown(options.rules, configuration: source) : RuleTable.text(options, configuration: source))
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Explain a rule: why it exists, a failing and a passing log excerpt."
    )

    @Argument(help: "A rule id, as `vclint rules` lists them.")
    var ruleID: String

    func run() throws {
        guard let description = RuleRegistry.description(of: ruleID) else {
            printError("vclint: error: \(RuleRegistry.unknown(ruleID)); `vclint rules` lists them")
            throw ExitCode(2)
        }
        writeStdout(RuleDocumentation.explain(description))
    }
}
