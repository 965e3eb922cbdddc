import Foundation
import Testing
@testable import VCLintCore

/// Nothing from a log is executed by its reader (docs/output.md#what-a-log-cannot-do-to-your-terminal-or-runner):
/// text from a capture or a report reaches a terminal and a GitHub runner's log through every
/// output, and none of it may act there: no control character but newline and tab, no DEL, no C1
/// control, no bidirectional control, and no line a runner would run as a workflow command (`::` at
/// the start of a line, `##[` anywhere), except the github-actions reporter's own commands.
@Suite struct TerminalTextTests {
    @Test func controlsAreEscapedVisibly() {
        #expect(TerminalText.field("a\nb\rc\u{1B}[2J\u{7}\u{0}\u{7F}\u{85}\u{9B}31m\tend")
            == "a\\nb\\rc\\x1B[2J\\x07\\x00\\x7F\\x85\\x9B31m\tend")
        #expect(TerminalText.field("\u{202A}\u{202E}\u{2066}\u{2069}\u{200E}\u{200F}\u{61C}\u{2028}\u{2029}")
            == "\\u{202A}\\u{202E}\\u{2066}\\u{2069}\\u{200E}\\u{200F}\\u{061C}\\u{2028}\\u{2029}")
        // OSC 52 (clipboard) and OSC 8 (hyperlink): their ESC and BEL are shown, so nothing is sent.
        #expect(TerminalText.field("\u{1B}]52;c;eA==\u{7}\u{1B}]8;;https://x\u{7}l\u{1B}]8;;\u{7}")
            == "\\x1B]52;c;eA==\\x07\\x1B]8;;https://x\\x07l\\x1B]8;;\\x07")
    }

    @Test func workflowCommandsAreNeutralised() {
        #expect(TerminalText.field("::error title=x::pwn") == "\\x3A:error title=x::pwn")
        #expect(TerminalText.field("  \t::warning::x") == "  \t\\x3A:warning::x")
        #expect(TerminalText.field("\u{3000}\u{A0}::x") == "\u{3000}\u{A0}\\x3A:x", "the runner trims Unicode spaces too")
        #expect(TerminalText.field(":") == "\\x3A", "a field that ends on a colon may be followed by another")
        #expect(TerminalText.field("a\n::error::x") == "a\\n::error::x", "one line: the newline is shown, no line starts")
        #expect(TerminalText.field("##[add-mask]secret ###[stop-commands]t") == "##\\x5Badd-mask]secret ###\\x5Bstop-commands]t")
        for plain in ["Odd::error::Ctrl", ": x", "#[x] # [y]", "a:b", "café → ok", ""] {
            #expect(TerminalText.field(plain) == plain)
        }
    }

    /// Several lines: line feeds and vclint's own colors stay; each line is made inert.
    @Test func textKeepsLinesAndColors() {
        let text = "ok\n::error::x\n  ##[add-mask]a\n\u{1B}[1;31mred\u{1B}[0m\n\u{1B}[2J\u{1B}]52;c;x\u{7}\r\n:\n"
        #expect(TerminalText.text(text) == "ok\n\\x3A:error::x\n  ##\\x5Badd-mask]a\n\u{1B}[1;31mred\u{1B}[0m\n\\x1B[2J\\x1B]52;c;x\\x07\\r\n\\x3A\n")
        let plain = "line 1\n  line 2: x\n"
        #expect(TerminalText.text(plain) == plain)
    }

    /// Escaping twice gives what escaping once gives, so a field escaped by a reporter can go
    /// through the line it is printed in again.
    @Test func escapingIsIdempotent() {
        for s in ["::a\n::b\r##[c]\u{1B}[2J\u{9B}\u{202E}", ":", "  ::", "###[[", "x\\x1B"] {
            let once = TerminalText.field(s)
            #expect(TerminalText.field(once) == once)
            #expect(TerminalText.text(once) == once)
            let lines = TerminalText.text(s)
            #expect(TerminalText.text(lines) == lines)
        }
    }

    /// The machine formats escape in their own syntax, which parsers read back unchanged.
    @Test func machineFormatsUseTheirOwnEscapes() throws {
        let s = "a\u{9B}\u{202E}##[x\u{2028}\u{7F}\u{1B}"
        let json = JSONValue.string(s).serialized()
        #expect(json == #""a\u009b\u202e##\u005bx\u2028\u007f\u001b""#)
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String == s)
        #expect(XMLText.text("::x\n  ::y ##[z \u{9B}\u{202E}") == "&#58;:x\n  &#58;:y ##&#91;z &#x9B;&#x202E;")
        #expect(XMLText.attribute("::x\n::y") == "&#58;:x&#10;&#58;:y")
        #expect(HTMLText.escape("::x\n::y ##[z \u{202E}\u{9B}") == "&#58;:x\n&#58;:y ##&#91;z \u{FFFD}\u{FFFD}")
        #expect(MarkdownText.cell("\u{202E}x ##[y") == "\u{FFFD}x ##\\[y")
        #expect(GitHubActionsReporter.data("##[add-mask]x #[y ###[z") == "##%5Badd-mask]x #[y ###%5Bz")
        #expect(GitHubActionsReporter.property("a##[b") == "a##%5Bb")
    }
}

@Suite(.serialized) struct OutputSanitisingTests {
    let cli = CLITests()

    static let log = "Fixtures/hostile/terminal-nslog.log"
    static let ndjson = "Fixtures/hostile/terminal-ndjson.ndjson"
    static let config = "Fixtures/hostile/terminal-dialect.yml"
    /// Both captures, with the dialect that reads the hostile class names.
    static let captures = ["--config", config, log, ndjson]
    /// A path a tampered shard report could hold.
    static let evilPath = "::error title=merge::pwn\n##[add-mask]p\r\u{1B}]52;c;eA==\u{7}\u{9B}\u{202E}.log"

    /// What in `text` a terminal or a GitHub runner would act on, one description each. `colors`:
    /// vclint's own SGR sequences (`ESC[…m`) are allowed; `ownCommands`: lines that are the
    /// github-actions reporter's commands are (their data is that reporter's to escape).
    static func problems(_ text: String, colors: Bool = false, ownCommands: Bool = false) -> [String] {
        var found: [String] = []
        var checked = text
        if colors { checked = checked.replacing(#/\x1B\[[0-9;]*m/#, with: "") }
        for u in checked.unicodeScalars {
            let v = u.value
            if (v < 0x20 && u != "\n" && u != "\t") || (0x7F...0x9F).contains(v) || TerminalText.escaped(u) && u != "\n" {
                found.append("a raw U+\(String(v, radix: 16, uppercase: true))")
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // (The runner reads `##[` anywhere in a line, so the reporter's own commands may not hold one either.)
            if line.contains("##[") { found.append("a legacy workflow command: \(line.debugDescription)") }
            let own = ownCommands && line.wholeMatch(of: #/::(error|warning|notice) [^:]*::.*/#) != nil
            if own { continue }
            if line.drop(while: \.isWhitespace).hasPrefix("::") { found.append("a workflow command: \(line.debugDescription)") }
        }
        return found
    }

    func expectInert(_ r: CLITests.Run, _ what: String, colors: Bool = false, ownCommands: Bool = false,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let out = Self.problems(r.stdout, colors: colors, ownCommands: ownCommands)
        #expect(out.isEmpty, "\(what), stdout: \(out.prefix(5))", sourceLocation: sourceLocation)
        let err = Self.problems(r.stderr, colors: colors)
        #expect(err.isEmpty, "\(what), stderr: \(err.prefix(5))", sourceLocation: sourceLocation)
    }

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-sanitise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The fixture carries what it claims, and vclint reads it into findings, sessions and classes.
    @Test func theFixtureIsHostile() throws {
        let log = try String(contentsOf: packageRoot.appendingPathComponent(Self.log), encoding: .utf8)
        let ndjson = try String(contentsOf: packageRoot.appendingPathComponent(Self.ndjson), encoding: .utf8)
        for s in ["\r::error title=x::pwn", "\u{1B}[2J", "\u{1B}]52;c;", "\u{1B}]8;;", "\u{7}", "##[add-mask]", "##[stop-commands]", "\u{9B}", "\u{202E}"] {
            #expect(log.contains(s), "the NSLog capture lacks \(s.debugDescription)")
        }
        for s in [#"processImagePath": "/private/var/containers/Shop\n::error title=x::pwn\r"#, #"Evil\n::error title=x::pwn\r"#, "##[add-mask]", "\u{9B}", "\u{202E}"] {
            #expect(ndjson.contains(s), "the ndjson capture lacks \(s.debugDescription)")
        }
        let r = try cli.run(["lint", "--reporter", "json"] + Self.captures)
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let classes = (doc["violations"] as? [[String: Any]] ?? []).compactMap { ($0["controller"] as? [String: Any])?["class"] as? String }
        #expect(classes.contains { $0.hasPrefix("Evil\n::error title=x::pwn\r::error") && $0.contains("\u{1B}]52;c;") && $0.contains("\u{9B}") },
                "a finding names the hostile class, read back exactly: \(classes)")
    }

    @Test(arguments: ReporterRegistry.names)
    func everyReporter(name: String) throws {
        let r = try cli.run(["lint", "--reporter", name] + Self.captures)
        #expect(r.status == 1, "\(name): \(r.stderr)")
        expectInert(r, "lint --reporter \(name)", ownCommands: name == GitHubActionsReporter.identifier)
        if name == XcodeReporter.identifier {
            // Shown, not dropped.
            for s in ["Evil\\n::error title=x::pwn\\r::error", "\\x1B[2J", "\\x1B]52;c;", "\\x07", "##\\x5Badd-mask]", "\\x9B31m"] {
                #expect(r.stdout.contains(s), "xcode shows \(s)")
            }
        }
        let colored = try cli.run(["lint", "--reporter", name, "--color", "always"] + Self.captures, env: ["NO_COLOR": nil])
        expectInert(colored, "lint --reporter \(name) --color always", colors: true, ownCommands: name == GitHubActionsReporter.identifier)
    }

    @Test(arguments: ReporterRegistry.streamingNames)
    func followingStdin(name: String) throws {
        let capture = try Data(contentsOf: packageRoot.appendingPathComponent(Self.ndjson))
        let r = try cli.run(["lint", "--follow", "--config", Self.config, "--reporter", name, "-"], stdin: capture)
        #expect(r.status == 1, "\(name): \(r.stderr)")
        expectInert(r, "lint --follow --reporter \(name)", ownCommands: name == GitHubActionsReporter.identifier)
    }

    @Test func inspect() throws {
        for format in ["text", "json"] {
            let r = try cli.run(["inspect", "--format", format] + Self.captures)
            #expect(r.status == 0, "\(format): \(r.stderr)")
            expectInert(r, "inspect --format \(format)")
        }
        // Without the dialect, the unread lines and their suggested dialects are shown too.
        let unread = try cli.run(["inspect", Self.log, Self.ndjson])
        expectInert(unread, "inspect without the dialect")
        let text = try cli.run(["inspect"] + Self.captures).stdout
        for s in ["#1 Shop\\n::error title=x::pwn\\r\\x1B[2J\\x07##\\x5Badd-mask]m\\x9B\\u{202E} (pid 300)", "#1 Shop\\r::error title=x::pwn\\x1B[2J\\x1B]52;c;"] {
            #expect(text.contains(s), "inspect shows the process name \(s)")
        }
    }

    @Test func timeline() throws {
        for format in ["text", "json", "chrome-trace"] {
            let r = try cli.run(["timeline", "--format", format] + Self.captures)
            #expect(r.status == 0, "\(format): \(r.stderr)")
            expectInert(r, "timeline --format \(format)")
        }
        let colored = try cli.run(["timeline", "--color", "always"] + Self.captures, env: ["NO_COLOR": nil])
        #expect(colored.stdout.contains("\u{1B}["), "colors stay")
        expectInert(colored, "timeline --color always", colors: true)
    }

    @Test func leaks() throws {
        for format in ["text", "json", "markdown", "html"] {
            let r = try cli.run(["leaks", "--format", format] + Self.captures)
            #expect(r.status == 0 || r.status == 1, "\(format): \(r.stderr)")
            #expect(r.stdout.contains("Evil"), "\(format) names the leaked class")
            expectInert(r, "leaks --format \(format)")
        }
    }

    @Test func htmlReport() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("report.html")
        let r = try cli.run(["report", "--output", page.path] + Self.captures)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        expectInert(CLITests.Run(status: r.status, stdout: try String(contentsOf: page, encoding: .utf8), stderr: r.stderr), "report")
    }

    /// A shard report whose paths were tampered with: merged into every format, and refused with
    /// one line when its vclint version is a command.
    @Test func mergeOfATamperedShard() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shard = dir.appendingPathComponent("shard.json")
        let lint = try cli.run(["lint", "--reporter", "json:\(shard.path)"] + Self.captures)
        #expect(lint.status == 1, "\(lint.stderr)")
        var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shard)) as? [String: Any])
        func tamper(_ key: String) {
            doc[key] = (doc[key] as? [[String: Any]] ?? []).map { item in
                var item = item
                item["path"] = Self.evilPath + (item["path"] as? String ?? "")
                return item
            }
        }
        tamper("inputs")
        tamper("violations")
        let tampered = dir.appendingPathComponent("tampered.json")
        try JSONSerialization.data(withJSONObject: doc).write(to: tampered)
        for name in ReporterRegistry.names {
            let r = try cli.run(["merge", tampered.path, "--reporter", name])
            #expect(r.status == 1, "\(name): \(r.stderr)")
            #expect(r.stdout.contains("merge"), "\(name) shows the path")
            if name == GitHubActionsReporter.identifier {
                // That reporter escapes its own way (not TerminalText's); bidirectional controls too.
                let bidi = r.stdout.unicodeScalars.filter { TerminalText.escaped($0) && $0 != "\n" }
                #expect(bidi.isEmpty, "github-actions: \(bidi.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
            }
            expectInert(r, "merge --reporter \(name)", ownCommands: name == GitHubActionsReporter.identifier)
        }
        let xcode = try cli.run(["merge", tampered.path])
        #expect(xcode.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("\\x3A:error title=merge::pwn\\n##\\x5Badd-mask]p\\r\\x1B]52;c;eA==\\x07\\x9B\\u{202E}.log") })

        var refused = doc
        var tool = refused["tool"] as? [String: Any] ?? [:]
        tool["version"] = "::error::x\n##[stop-commands]t\u{1B}[2J\u{9B}\u{202E}"
        refused["tool"] = tool
        let other = dir.appendingPathComponent("other.json")
        try JSONSerialization.data(withJSONObject: refused).write(to: other)
        let r = try cli.run(["merge", other.path])
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr.debugDescription)")
        #expect(r.stderr.contains("made by vclint ::error::x\\n##\\x5Bstop-commands]t\\x1B[2J\\x9B\\u{202E}, and this is"), "\(r.stderr)")
        expectInert(r, "merge of a refused report")
    }

    /// `rules` names its configuration file, `explain` an unknown id, and errors their paths and
    /// arguments: every stderr line is one inert line.
    @Test func rulesExplainAndErrors() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("cfg\n::error::x\u{1B}[2J##[add-mask]y\u{9B}\u{202E}.yml")
        try Data("disabled_rules: [memory_warning]\n".utf8).write(to: config)
        for args in [["rules", "--config", config.path], ["rules", "--markdown", "--config", config.path], ["explain", "leaked_controller"]] {
            let r = try cli.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            expectInert(r, args.joined(separator: " "))
        }
        let hostile = "::error::x\n##[add-mask]y\r\u{1B}[2J\u{7}\u{9B}\u{202E}"
        let runs: [[String]] = [
            ["explain", hostile],
            ["lint", dir.appendingPathComponent(hostile + ".log").path],
            ["lint", "--reporter", hostile, Self.log],
            ["lint", "--config", dir.appendingPathComponent(hostile + ".yml").path, Self.log],
            ["inspect", "--format", hostile, Self.log],
            ["timeline", dir.appendingPathComponent(hostile).path],
            ["leaks", dir.appendingPathComponent(hostile + ".json").path],
            ["merge", dir.appendingPathComponent(hostile + ".json").path],
            ["lint", "--\(hostile)"],
        ]
        for args in runs {
            let r = try cli.run(args)
            #expect(r.status == 2, "\(args.map(\.debugDescription))")
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr.debugDescription)")
            expectInert(r, args.first! + " with a hostile argument")
        }
    }
}
