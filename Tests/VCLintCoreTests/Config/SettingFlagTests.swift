import Foundation
import Testing
@testable import VCLintCore

/// A setting's command-line flag is its `Setting` row (`flag:`): the command line builds the option,
/// its help and its checks from the row, reads its value with the reader `.vclint.yml` uses, and lands
/// it where the key lands, over the file's value.
@Suite(.serialized) struct SettingFlagTests {
    let cli = CLITests()
    static let flagged = Setting.flagged.map(\.key)
    /// The flags of numbers, which the report records (`location` is a display setting: not recorded).
    static let numberFlags = Setting.flagged.filter { $0.kind is NumberKind }.map(\.key)
    static let commands = ["lint", "baseline create", "timeline", "leaks", "report", "inspect"]

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-flags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A value of the setting other than its default, as both the flag and the file write it.
    static func sample(_ s: Setting) throws -> String {
        let number = try #require(s.kind as? NumberKind, "no sample for a flag of kind \(s.type): add one here")
        return NumberKind.plain(number.range.upperBound)
    }

    /// What the JSON report of `Fixtures/seeds/navtest-seed000.log` records for `key`.
    func recorded(_ key: String, _ args: [String], cwd: URL = packageRoot) throws -> Any? {
        let r = try cli.run(["lint", "--reporter", "json", packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log").path] + args, cwd: cwd)
        #expect(r.status == 0, "\(args): \(r.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return (report["configuration"] as? [String: Any])?[key]
    }

    /// The link: the row alone makes the flag an option of every command that reads the settings, with
    /// the row's help (meaning, range, default), and the flag sets what the key sets, over the file.
    @Test(arguments: flagged)
    func aFlaggedSettingIsAnOptionOfEveryCommand(_ key: String) throws {
        let s = try #require(Setting.named(key))
        let flag = try #require(s.flag)
        #expect(flag == key.replacingOccurrences(of: "_", with: "-"), "a flag is spelled as its key, with dashes")
        for command in Self.commands {
            let help = try cli.run(command.split(separator: " ").map(String.init) + ["--help"])
            #expect(help.status == 0)
            // ArgumentParser wraps the help: compare the words.
            let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("\(s.option) <\(flag)> \(s.flagHelp)"), "\(command) --help: \(help.stdout)")
        }
        #expect(s.flagHelp.contains("default \(Setting.text(s.defaultValue));"), "the help names the default")
        guard s.kind is NumberKind else { return }  // `location`: `locationFlagAndFileAgree`

        let value = try Self.sample(s)
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent(".vclint.yml")
        try "\(key): \(value)\n".write(to: config, atomically: true, encoding: .utf8)
        let byFile = try recorded(key, ["--config", config.path])
        let byFlag = try recorded(key, [s.option, value])
        #expect(byFile as? Double == byFlag as? Double)
        #expect(byFlag as? Double != (try recorded(key, [])) as? Double, "the sample is not the default")
        // The flag wins over the file.
        try "\(key): \(Setting.text(s.defaultValue))\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(try recorded(key, ["--config", config.path, "\(s.option)=\(value)"]) as? Double == byFlag as? Double)
    }

    /// Spellings of numbers that YAML, Double or a person may write: the flag and the file take the same
    /// ones, with the same value, and refuse the same ones (`.vclint.yml` took `0x10` as 16, `017` as 15
    /// and `1:30` as 90, which the flag refused or read as 17).
    static let spellings = ["5", "0", "+5", ".5", "5.", "2.5", "017", "86400", "3600000",
                            "0x10", "0o17", "0b101", "1_000", "1:30", "1e3", "1.5e+3", "0x1p16", ".inf", "-.inf", ".nan", "nan", "inf",
                            "-1", "-0", "-0.0", "86401", "3600001", "1e400", "1.2.3", "+", ".", "five", "true", "~"]

    /// `--location` and `location:` take log and source, and refuse the same other words.
    @Test func locationFlagAndFileAgree() throws {
        let s = try #require(Setting.named("location"))
        for text in ["log", "source", "Source", "file", "1", "~"] {
            var byFile = LintOptions(), byFlag = LintOptions()
            let file = Result { try Configuration.parse("location: \(text)\n", path: "c.yml").apply(to: &byFile) }
            let flag = Result { try s.apply(argument: text, to: &byFlag) }
            #expect(file.isSuccess == ["log", "source"].contains(text) && flag.isSuccess == file.isSuccess, "'\(text)'")
            if file.isSuccess { #expect(byFile.location == byFlag.location && byFlag.location.rawValue == text) }
            if case .failure(let e) = file { #expect("\(e)" == "c.yml:1:1: location: expected log or source") }
            if case .failure(let e) = flag { #expect("\(e)" == "--location must be a location, log or source, not '\(text)'") }
        }
    }

    @Test(arguments: numberFlags)
    func theFlagAndTheFileTakeAndRefuseTheSameNumbers(_ key: String) throws {
        let s = try #require(Setting.named(key))
        var taken: Set<String> = []
        for text in Self.spellings {
            var byFile = LintOptions(), byFlag = LintOptions()
            let file = Result { try Configuration.parse("\(key): \(text)\n", path: "c.yml").apply(to: &byFile) }
            let flag = Result { try s.apply(argument: text, to: &byFlag) }
            switch (file, flag) {
            case (.success, .success):
                #expect(s.value(in: byFile) == s.value(in: byFlag), "'\(text)'")
                taken.insert(text)
            case (.failure(let fileError), .failure(let flagError)):
                #expect("\(fileError)" == "c.yml:1:1: \(key): expected a \(s.type)", "'\(text)'")
                #expect("\(flagError)" == "\(s.option) must be a \(s.argumentName), not '\(text)'", "'\(text)'")
            default:
                Issue.record("'\(text)': the file \(file.isSuccess ? "takes" : "refuses") it, the flag \(flag.isSuccess ? "takes" : "refuses") it")
            }
        }
        #expect(taken.isSuperset(of: ["5", "0", "+5", ".5", "5.", "017"]) && taken.isDisjoint(with: ["0x10", "1_000", "1:30", "1e3", "-0", "-1"]), "\(taken.sorted())")
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
