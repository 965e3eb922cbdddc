import ArgumentParser
import VCLintCore

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule: id, default severity, on/off, one-line summary."
    )

    @Flag(name: .long, help: "Print the table as Markdown (as in the README).")
    var markdown = false

    func run() throws {
        writeStdout(markdown ? RuleDocumentation.markdownTable() : RuleDocumentation.textTable())
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
        guard let rule = RuleRegistry.rule(ruleID) else {
            printError("vclint: error: unknown rule '\(ruleID)'; `vclint rules` lists them")
            throw ExitCode(2)
        }
        writeStdout(RuleDocumentation.explain(type(of: rule).description))
    }
}
