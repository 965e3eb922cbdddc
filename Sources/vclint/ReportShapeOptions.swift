import Foundation
import ArgumentParser
import VCLintCore

/// How much of a run the formats a person reads show, shared by `lint` and `merge`.
struct ReportShapeOptions: ParsableArguments {
    @Flag(name: .long, help: "List every info in the formats a person reads: xcode on a terminal and markdown fold them into one line per rule with a count (machine formats, and xcode in a file or a pipe, always list each).")
    var infos = false

    @Option(name: .customLong("markdown-rows"), parsing: .unconditional,
            help: ArgumentHelp("The markdown table's rows at most (N: 1 or more), or all; the table also stops before 1 MiB, GitHub's bound on a job summary (default: 100).", valueName: "N|all"))
    var markdownRowsText: String?

    private static func parse(_ text: String) throws -> Int? {
        text.trimmingCharacters(in: .whitespaces) == "all" ? nil : try NumberArgument.whole(text, option: "--markdown-rows", NumberArgument.markdownRows)
    }

    func validate() throws {
        if let markdownRowsText { _ = try Self.parse(markdownRowsText) }
    }

    func apply(to context: inout ReportContext) {
        context.allInfos = infos
        if let markdownRowsText { context.markdownRows = try! Self.parse(markdownRowsText) }
    }
}
