import ArgumentParser
import VCLintCore
import Foundation

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .vclint.yml in the current directory."
    )

    @Flag(name: .long, help: "Replace an existing .vclint.yml.")
    var force = false

    func run() throws {
        let path = Configuration.fileName
        if FileManager.default.fileExists(atPath: path) && !force {
            printError("vclint: error: \(path): already exists (use --force to replace it)")
            throw ExitCode(2)
        }
        do {
            let file = try PendingReportFile(path: path)
            try file.commit(Configuration.starter)
        } catch {
            printError("vclint: error: \(error.description)")
            throw ExitCode(2)
        }
        printError("vclint: wrote \(path)")
    }
}
