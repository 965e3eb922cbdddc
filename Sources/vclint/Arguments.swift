import ArgumentParser
import Foundation
import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// The command line before ArgumentParser sees it.
enum CommandArguments {
    /// argv as the kernel gave it. CommandLine.arguments decodes each argument as UTF-8 and replaces
    /// what is not (a file named in Latin-1 became "no such file"); here an argument that is not UTF-8
    /// or holds a control character becomes its escaped display text (`PathName`), and a file it
    /// names is opened by its raw bytes.
    static func raw() -> [String] {
        (1..<Int(CommandLine.argc)).map { i in
            guard let p = CommandLine.unsafeArgv[i] else { return "" }
            let bytes = UnsafeRawBufferPointer(start: p, count: strlen(p))
            guard PathName.needsEscaping(bytes) else { return String(decoding: bytes, as: UTF8.self) }
            // The name may be a part of the argument: `--output=FILE`, `--reporter json:FILE`,
            // `--reporter=json:FILE`. Each part after a `=` or `:` is registered too, so that the
            // name the parser splits off is opened by its bytes (registering more is harmless).
            for (k, b) in bytes.enumerated() where b == UInt8(ascii: "=") || b == UInt8(ascii: ":") {
                PathName.register(bytes[(k + 1)...])
            }
            return PathName.register(bytes)
        }
    }

    /// `@FILE` is `--files-from FILE` (paths one per line), as in many compilers' response files.
    static func expandAtFiles(_ args: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(args.count)
        var rest = false
        for a in args {
            if a == "--" { rest = true }
            if !rest, a.count > 1, a.hasPrefix("@") {
                out.append("--files-from")
                out.append(String(a.dropFirst()))
            } else {
                out.append(a)
            }
        }
        return out
    }

    /// Beyond this many arguments the paths are taken out before ArgumentParser parses the rest:
    /// it removes parsed positional arguments one at a time, each removal a linear search, so 10,000
    /// paths took seconds (quadratic). The first two stay, so the commands' own checks on the paths
    /// (`--follow` reads one input) still see that there are several.
    static let manyArguments = 256

    /// Splits `args` into what ArgumentParser parses and the paths it need not see, which `RuleOptions`
    /// adds after its own (order kept: the two left in come first). Only for commands whose
    /// positional arguments are a list of paths; which options take a value is read from the
    /// parser's own description of the commands, so a new option cannot be mistaken for a path.
    static func split(_ args: [String]) -> (parsed: [String], paths: [String]) {
        guard args.count > manyArguments, let tool = commandTree() else { return (args, []) }
        var command = tool
        var i = 0
        // Subcommand names first (`baseline create`); none means the default, lint.
        while i < args.count, let sub = command.subcommands.first(where: { $0.name == args[i] }) {
            command = sub
            i += 1
        }
        if i == 0, let lint = tool.subcommands.first(where: { $0.name == "lint" }) { command = lint }
        guard command.takesPaths else { return (args, []) }
        var parsed = Array(args[..<i])
        var paths: [String] = []
        var kept = 0
        var afterTerminator = false
        var j = i
        func positional(_ a: String) {
            if kept < 2 { parsed.append(a); kept += 1 } else { paths.append(a) }
        }
        while j < args.count {
            let a = args[j]
            j += 1
            if afterTerminator { positional(a); continue }
            if a == "--" { afterTerminator = true; parsed.append(a); continue }
            if a.hasPrefix("--") {
                parsed.append(a)
                if !a.contains("="), command.valueOptions.contains(a), j < args.count { parsed.append(args[j]); j += 1 }
                continue
            }
            if a.hasPrefix("-") && a.count > 1 {
                parsed.append(a)
                if a.count == 2, command.valueOptions.contains(a), j < args.count { parsed.append(args[j]); j += 1 }
                continue
            }
            positional(a)
        }
        return (parsed, paths)
    }

    struct Command {
        var name: String
        var valueOptions: Set<String>
        var takesPaths: Bool
        var subcommands: [Command]
    }

    /// The commands, their options that take a value, and whether they take a list of paths, from
    /// ArgumentParser's `--experimental-dump-help` description.
    static func commandTree() -> Command? {
        let json: String
        do {
            _ = try VCLint.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            json = VCLint.fullMessage(for: error)
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let command = root["command"] as? [String: Any] else { return nil }
        func build(_ c: [String: Any]) -> Command {
            var options: Set<String> = []
            var paths = false
            for a in c["arguments"] as? [[String: Any]] ?? [] {
                let kind = a["kind"] as? String
                if kind == "positional", a["isRepeating"] as? Bool == true { paths = true }
                guard kind == "option" else { continue }
                for n in a["names"] as? [[String: Any]] ?? [] {
                    guard let name = n["name"] as? String else { continue }
                    options.insert((n["kind"] as? String == "short" ? "-" : "--") + name)
                }
            }
            let subs = (c["subcommands"] as? [[String: Any]] ?? []).map(build)
            return Command(name: c["commandName"] as? String ?? "", valueOptions: options, takesPaths: paths, subcommands: subs)
        }
        return build(command)
    }
}

/// Paths taken out of a long command line before parsing (`CommandArguments.split`).
enum ExtraPaths {
    nonisolated(unsafe) static var values: [String] = []
}

/// A mistyped command (`vclint lnt capture.log`) is a usage error with a suggestion, not a path to
/// lint: exit 2 with one line, as git and cargo do.
enum CommandSuggestion {
    /// The error line for `args`, or nil when they start with a command, an option or a path. A
    /// first word that names an existing file, or has a `/` or a `.` in it, is a path (lint, the
    /// default command, reports it when it is missing); a bare word that is neither is a mistyped
    /// command. Commands with subcommands and no default (`baseline`) and `help` are checked too.
    static func error(for args: [String]) -> String? {
        guard let first = args.first else { return nil }
        let commands = VCLint.configuration.subcommands
        func name(_ c: ParsableCommand.Type) -> String { c.configuration.commandName ?? c._commandName }
        if first == "help" {
            var level = commands
            var said = ["vclint", "help"]
            for word in args.dropFirst() where !word.hasPrefix("-") {
                guard let c = level.first(where: { name($0) == word }) else {
                    return unknown(word, among: level.map(name), prefix: said.dropFirst(2).joined(separator: " "), help: true)
                }
                said.append(word)
                level = c.configuration.subcommands
            }
            return nil
        }
        if let command = commands.first(where: { name($0) == first }) {
            let subs = command.configuration.subcommands
            guard !subs.isEmpty, command.configuration.defaultSubcommand == nil, args.count > 1 else { return nil }
            let word = args[1]
            if word.hasPrefix("-") || subs.contains(where: { name($0) == word }) { return nil }
            return unknown(word, among: subs.map(name), prefix: first, help: false)
        }
        if first.hasPrefix("-") || first.hasPrefix("@") || first.contains("/") || first.contains(".") { return nil }
        var st = stat()
        if PathName.withCString(first, { lstat($0, &st) }) == 0 { return nil }
        return unknown(first, among: commands.map(name), prefix: "", help: false)
    }

    private static func unknown(_ word: String, among names: [String], prefix: String, help: Bool) -> String {
        let full = { (n: String) in (["vclint"] + (help ? ["help"] : []) + (prefix.isEmpty ? [] : [prefix]) + [n]).joined(separator: " ") }
        let what = help ? "'\(word)' is not a command" : prefix.isEmpty ? "'\(word)' is neither a command nor a file" : "'\(word)' is not a command of vclint \(prefix)"
        if names.isEmpty {
            // `vclint help lint bogus`: the command has no subcommands to list.
            return "\(what): vclint \(prefix) has no subcommands (`vclint help \(prefix)` says what it takes)"
        }
        let ranked = names.map { ($0, EditDistance.between(word.lowercased(), $0)) }.sorted { $0.1 < $1.1 }
        if let best = ranked.first, best.1 <= max(2, best.0.count / 3) {
            return "\(what); did you mean `\(full(best.0))`?"
        }
        return "\(what); the commands are \(names.joined(separator: ", ")) (`vclint help` says what each does)"
    }
}
