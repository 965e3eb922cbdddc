import Foundation
import PackagePlugin

/// `swift package vclint ARGUMENTS…`: runs the vclint of the version the package pins, with the
/// arguments as given (`swift package vclint lint capture.ndjson`, `swift package vclint explain
/// leaked_controller`, every subcommand). vclint is built in release, as a linter of gigabyte
/// captures needs (the first run takes a few minutes; later runs only check the build). Its output is
/// vclint's; relative paths are read from the directory `swift package` runs in. It ends as vclint
/// ends: 0 clean; otherwise SwiftPM fails the command and names vclint's exit code ("Plugin ended with
/// exit code 1": findings at a failing severity; 2: the run failed).
@main
struct VCLintCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(.product("vclint"), parameters: .init(configuration: .release, logging: .concise))
        guard build.succeeded,
              let tool = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "vclint" }) else {
            Diagnostics.error("vclint could not be built:\n\(build.logText)")
            exit(2)
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            Diagnostics.error("vclint was stopped by signal \(process.terminationStatus)")
            exit(2)
        }
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
