import ArgumentParser
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

@main
struct VCLint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vclint",
        abstract: "Lint iOS view-controller lifecycle logs.",
        discussion: """
        vclint reads captured iOS console logs (NSLog, print, os_log via `log show`/`log stream`, \
        device syslog), rebuilds every view controller's lifecycle timeline and reports what went \
        wrong: callbacks that never completed, controllers that were popped or dismissed but never \
        deallocated, completions that fired too early, UIKit's own warnings.

        Exit codes: 0 clean, 1 findings at a failing severity, 2 the run failed.
        """,
        version: VCLintVersion.version,
        subcommands: [LintCommand.self, MergeCommand.self, InspectCommand.self, TimelineCommand.self, LeaksCommand.self, ReportCommand.self, RulesCommand.self, ExplainCommand.self, BaselineCommand.self, InitCommand.self],
        defaultSubcommand: LintCommand.self
    )

    /// Exit codes are a contract scripts rely on: usage errors are 2 with one stderr line, not
    /// ArgumentParser's 64 and its usage block.
    static func main() {
        LibC.keepFreedMemoryReturnable()
        // `vclint` alone on a terminal: what it does and how to call it, not a wait for stdin.
        if CommandLine.arguments.count == 1, isatty(0) != 0 {
            printText(helpMessage())
            printError("vclint: error: no capture given: name a capture file or directory, or pipe one in (… | vclint lint -)")
            LibC.exit(2)
        }
        let raw = CommandArguments.raw()
        if let line = CommandSuggestion.error(for: raw) {
            printError("vclint: error: \(line)")
            LibC.exit(2)
        }
        do {
            let (parsed, paths) = CommandArguments.split(CommandArguments.expandAtFiles(raw))
            ExtraPaths.values = paths
            var command = try parseAsRoot(parsed)
            try command.run()
        } catch let code as ExitCode {
            LibC.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {  // --help, --version
                writeStdout(fullMessage(for: error) + "\n")
                LibC.exit(0)
            }
            let message = self.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
            printError("vclint: error: \(message) (see `vclint help`)")
            LibC.exit(2)
        }
    }
}

/// What reading the inputs met that the findings do not show (a line longer than the buffer, lines
/// a pattern gave up on), one warning line each on stderr: printed by every command that reads
/// captures, and by `merge` from the shards' reports.
func printInputWarnings(_ result: LintResult) {
    for file in result.files { file.readingWarnings.forEach(printError) }
}

/// Prints one line to stderr. The message may hold paths and text from a capture or a report, so
/// it is made inert and kept on one line (`TerminalText.field`).
func printError(_ message: String) {
    FileHandle_stderr.write(TerminalText.field(message) + "\n")
}

/// Prints vclint's own text of several lines (help, the colored summary line) to stderr: its line
/// feeds and colors stay, and each line is made inert all the same (`TerminalText.text`).
func printText(_ text: String) {
    FileHandle_stderr.write(TerminalText.text(text) + "\n")
}

enum FileHandle_stderr {
    static func write(_ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = LibC.write(2, buf.baseAddress! + off, buf.count - off)
                if n <= 0 { break }
                off += n
            }
        }
    }
}

nonisolated(unsafe) private var stdoutPipeClosed = false

/// Writes text to stdout (`writeStdout(_:)` below).
func writeStdout(_ s: String) {
    writeStdout { out in try out.write(s) }
}

/// Streams what `write` produces to stdout through a buffer, flushed at the end. A closed pipe
/// (EPIPE, when SIGPIPE is ignored) ends the output quietly, as `vclint … | head` expects, and
/// nothing more is written; any other write error (`> /dev/full`, a full disk) fails the run:
/// exit 2 with one line, report temporaries removed, since a CI step must not take a cut-off
/// report for a clean one.
func writeStdout(_ write: ReportWriting) {
    guard !stdoutPipeClosed else { return }
    let out = ReportWriter(descriptor: 1)
    do {
        try write(out)
        try out.flush()
    } catch {
        if (error as? ReportWriteError)?.code == EPIPE { stdoutPipeClosed = true; return }
        TemporaryFiles.removeAll()
        printError("vclint: error: standard output: \(error)")
        LibC.exit(2)
    }
}
