import Foundation
import Testing
@testable import VCLintCore

/// File names that are bytes (not UTF-8, with a newline), classic Mac line ends, bytes after a
/// gzip member, long path lists.
@Suite(.serialized) struct NamesAndLineEndsTests {
    static let leak = "Fixtures/seeds/navtest-missing-dealloc.log"
    let cli = CLITests()

    func tempDir() throws -> URL {
        let url = scratchRoot.appendingPathComponent("vclint-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Creates a file whose name is raw bytes (Foundation's String paths cannot name `caf\xE9.log`).
    func create(_ name: [UInt8], in dir: URL, contents: [UInt8]) {
        let path = Array(dir.path.utf8) + [0x2F] + name
        var c = path.map { CChar(bitPattern: $0) }
        c.append(0)
        let fd = c.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        precondition(fd >= 0)
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    func removeTree(_ dir: URL) { _ = try? cli.run(["--version"]); try? FileManager.default.removeItem(at: dir) }

    var leakBytes: [UInt8] { get throws { [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(Self.leak))) } }

    @Test func displayTextOfNames() {
        #expect(PathName.display(Array("plain/name.log".utf8)) == "plain/name.log")
        #expect(PathName.display(Array("back\\slash.log".utf8)) == "back\\slash.log", "a clean name is its own text")
        #expect(PathName.display([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6C, 0x6F, 0x67]) == "caf\\xE9.log")
        #expect(PathName.display(Array("two\nlines\t\\.log".utf8)) == "two\\nlines\\t\\\\.log")
        #expect(PathName.display(Array("café\r.log".utf8)) == "café\\r.log", "valid UTF-8 is kept")
        #expect(PathName.display([0x1B, 0x5B, 0x33, 0x31, 0x6D]) == "\\x1B[31m", "no terminal escapes")
        let raw: [UInt8] = [0x61, 0xFF, 0x0A]
        let text = PathName.register(raw)
        #expect(PathName.bytes(of: text) == raw)
    }

    /// A directory with a Latin-1 name and a name with a newline: both are linted, and every
    /// reporter shows them escaped, on one line.
    @Test func oddNamesInADirectoryAreLintedAndEscapedInEveryReporter() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try leakBytes
        create(Array("caf".utf8) + [0xE9] + Array(".log".utf8), in: dir, contents: log)
        create(Array("two\nlines.log".utf8), in: dir, contents: log)
        let xcode = try cli.run(["lint", dir.path])
        #expect(xcode.status == 1)
        #expect(xcode.stdout == """
        \(dir.path)/caf\\xE9.log:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated (the session went on 31.9 s, grace 3.0 s); expected dealloc after its removal (leaked_controller)
        \(dir.path)/two\\nlines.log:15: error: Child1ViewController#1 was dismissed at line 11 but never deallocated (the session went on 31.9 s, grace 3.0 s); expected dealloc after its removal (leaked_controller)

        """)
        #expect(xcode.stderr.hasPrefix("2 errors, 0 warnings in 2 files (56 lines"))
        for reporter in ReporterRegistry.names {
            let r = try cli.run(["lint", dir.path, "--reporter", reporter])
            #expect(r.status == 1, "\(reporter)")
            #expect(!r.stdout.contains("two\nlines"), "\(reporter): a raw newline in a path")
            #expect(r.stdout.contains("xE9.log") && r.stdout.contains("nlines.log"), "\(reporter) names both files")
        }
    }

    /// The same names given on the command line (raw argv bytes, through the shell) and in a list.
    @Test func oddNamesOnTheCommandLineAndInLists() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        create(Array("caf".utf8) + [0xE9] + Array(".log".utf8), in: dir, contents: try leakBytes)
        create(Array("two\nlines.log".utf8), in: dir, contents: try leakBytes)
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "cd \"$1\" && \"$2\" lint \"$(printf 'caf\\351.log')\" \"$(printf 'two\\nlines.log')\"", "sh", dir.path, CLITests.binary.path]
        let out = Pipe()
        sh.standardOutput = out
        sh.standardError = Pipe()
        try sh.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sh.waitUntilExit()
        #expect(sh.terminationStatus == 1)
        #expect(stdout.hasPrefix("caf\\xE9.log:15: error:"))
        #expect(stdout.contains("\ntwo\\nlines.log:15: error:"))
        // --files-from with NUL separators (find -print0), from standard input.
        let nul = Array(dir.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".log".utf8) + [0] + Array("\(dir.path)/two\nlines.log".utf8) + [0]
        let listed = try cli.run(["lint", "--files-from", "-", "--null"], stdin: Data(nul))
        #expect(listed.status == 1)
        #expect(listed.stdout.components(separatedBy: ":15: error:").count == 3)
    }

    /// Every file the command line names is created, read and stat'ed by its raw bytes, not by the
    /// escaped text it is shown by: a report named `r<ESC>.json` is `r<ESC>.json` (it was a file
    /// literally named `r\x1B.json`), and a source root `src<ESC>` is that folder.
    @Test func controlCharactersInReportAndSourceRootNames() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let esc = "\u{1B}"
        let capture = packageRoot.appendingPathComponent("Fixtures/flows/leak-pop.log").path
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }
        let report = dir.path + "/r\(esc).json"
        let lint = try cli.run(["lint", capture, "--reporter=json:\(report)"])
        #expect(lint.status == 1, "\(lint.stderr)")
        #expect(try names() == ["r\(esc).json"])
        // Written again: the old one is backed up and replaced by its raw name, nothing else is left.
        #expect(try cli.run(["lint", capture, "--reporter", "json:\(report)"]).status == 1)
        #expect(try names() == ["r\(esc).json"])
        let merged = try cli.run(["merge", report])
        #expect(merged.status == 1, "\(merged.stderr)")
        let baseline = dir.path + "/b\(esc).json"
        #expect(try cli.run(["baseline", "create", capture, "--output", baseline]).status == 0)
        #expect(try cli.run(["lint", "--quiet", "--baseline", baseline, capture]).status == 0)
        #expect(try cli.run(["timeline", capture, "--output=" + dir.path + "/t\(esc).txt"]).status == 0)
        #expect(try cli.run(["report", capture, "--output", dir.path + "/h\(esc).html"]).status == 1, "findings")
        #expect(try names() == ["b\(esc).json", "h\(esc).html", "r\(esc).json", "t\(esc).txt"])
        // A message shows the escaped text.
        let missing = try cli.run(["lint", capture, "--reporter", "json:\(dir.path)/no\(esc)/r.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "vclint: error: \(dir.path)/no\\x1B/r.json: no such file or directory\n")

        // The source root, and a decoy named by the escaped text, which must not be read.
        for (folder, file) in [("src\(esc)", "V\(esc).swift"), ("src\\x1B", "Decoy.swift")] {
            let src = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
            try Data("final class ProductDetailViewController: UIViewController {}\n".utf8).write(to: src.appendingPathComponent(file))
        }
        let json = try cli.run(["lint", "--quiet", "--reporter", "json", "--source-root=" + dir.path + "/src\(esc)", capture])
        #expect(json.status == 1, "\(json.stderr)")
        #expect(json.stdout.contains("\(dir.path)/src\\\\x1B/V\\\\x1B.swift"), "\(json.stdout)")
        #expect(!json.stdout.contains("Decoy"))
    }

    @Test func filesFromAndAtFile() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        try "\(Self.leak)\r\nFixtures/seeds/navtest-seed000.log\n\n".write(to: list, atomically: true, encoding: .utf8)
        for args in [["lint", "--files-from", list.path], ["lint", "@\(list.path)"], ["lint", "Fixtures/flows/late-dealloc.log", "@\(list.path)"]] {
            let r = try cli.run(args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.contains("\(Self.leak):15: error:"), "\(args)")
        }
        let three = try cli.run(["lint", "Fixtures/flows/late-dealloc.log", "@\(list.path)"])
        #expect(three.stderr.contains("in 3 files"))
        let missing = try cli.run(["lint", "--files-from", dir.appendingPathComponent("nope").path])
        #expect(missing.status == 2)
        #expect(missing.stderr == "vclint: error: \(dir.path)/nope: no such file or directory\n")
        let empty = dir.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        let none = try cli.run(["lint", "@\(empty.path)"])
        #expect(none.status == 2)
        #expect(none.stderr == "vclint: error: \(empty.path): lists no path\n")
    }

    /// 10,000 paths on the command line are parsed in well under a second (ArgumentParser alone was
    /// quadratic: seconds), and options among and after many paths still apply.
    @Test func tenThousandPathsParseQuickly() throws {
        let paths = (0..<10_000).map { "missing-\($0).log" }
        let start = Date()
        let r = try cli.run(["lint", "--max-warnings=-1"] + paths)  // fails in validation, after parsing
        let seconds = Date().timeIntervalSince(start)
        if seconds >= 1.5 {
            // A slow machine (a sanitizer build, a busy CI runner): linear means ten times the
            // paths take about ten times as long, where quadratic parsing took a hundred.
            let small = Date()
            _ = try cli.run(["lint", "--max-warnings=-1"] + paths.prefix(1_000))
            let base = max(Date().timeIntervalSince(small), 0.05)
            #expect(seconds < 25 * base, "10,000 paths took \(seconds) s, 1,000 took \(base) s")
        }
        #expect(r.status == 2)
        #expect(r.stderr == "vclint: error: --max-warnings must be a whole number 0 or more, not '-1' (see `vclint help`)\n")
        let many = Array(repeating: Self.leak, count: 300)
        let mixed = try cli.run(["lint"] + many[..<100] + ["-j", "1", "--reporter", "json"] + many[100...] + ["--strict", "--", "-"], stdin: Data())
        #expect(mixed.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(mixed.stdout.utf8)) as? [String: Any])
        #expect((doc["inputs"] as? [Any])?.count == 301)
        let follow = try cli.run(["lint", "--follow"] + many)
        #expect(follow.status == 2 && follow.stderr.contains("--follow reads one input"))
    }

    /// CR-only line ends: the findings and line numbers of the LF form, for any split of the input,
    /// from bytes, from a file and from a pipe; CRLF stays as it was.
    @Test func classicMacLineEnds() throws {
        let plain = try leakBytes
        let mac = plain.map { $0 == 0x0A ? 0x0D : $0 }
        let crlf = plain.flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }
        let expected = Linter().lint(bytes: plain, path: "x").summary
        #expect(expected == ["leaked_controller@15"])
        for feed in [1, 2, 3, 7, 64, 4096] {
            #expect(Linter().lint(bytes: mac, path: "x", feedSize: feed).summary == expected, "classic, feed \(feed)")
            #expect(Linter().lint(bytes: crlf, path: "x", feedSize: feed).summary == expected, "CRLF, feed \(feed)")
            #expect(Linter().lint(bytes: mac, path: "x", feedSize: feed).stats.lines == 28)
        }
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("mac.log")
        try Data(mac).write(to: file)
        #expect(try Linter().lint([.file(file.path)]).files[0].summary == expected)
        let piped = try cli.run(["lint", "-"], stdin: Data(mac))
        #expect(piped.stdout.hasPrefix("<stdin>:15: error:"))
        #expect(piped.stderr.contains("(28 lines"))
        let gz = dir.appendingPathComponent("mac.log.gz")
        try Data(try gzip(mac)).write(to: gz)
        #expect(try Linter().lint([.file(gz.path)]).files[0].summary == expected)
    }

    /// A lone CR inside a line of a CRLF or LF capture is not a line end.
    @Test func aStrayCRInAnLFCaptureStaysInItsLine() {
        var t = LineEndTranslator()
        var out: [UInt8] = []
        for chunk in ["ab\rc\n", "d\r\n"] { Array(chunk.utf8).withUnsafeBytes { t.pass($0) { out += $0 } } }
        t.finish { out += $0 }
        #expect(out == Array("ab\rc\nd\r\n".utf8))
        var m = LineEndTranslator()
        var mo: [UInt8] = []
        let classic = Array("ab\r\rc\r".utf8) + Array(repeating: 0x78, count: LineEndTranslator.decisionWindow) + Array("\r\nd".utf8)
        for chunk in classic.chunked(into: 1000) { chunk.withUnsafeBytes { m.pass($0) { mo += $0 } } }
        m.finish { mo += $0 }
        #expect(mo == Array("ab\n\nc\n".utf8) + Array(repeating: 0x78, count: LineEndTranslator.decisionWindow) + Array("\r\nd".utf8),
                "classic: each CR a line end, a later CRLF one line end")
    }

    /// Concatenated members are all inflated (as gzip -d does); bytes after the last one are
    /// reported on stderr with their count, and the findings are those of the plain capture.
    @Test func gzipMembersAndTrailingBytes() throws {
        let plain = try leakBytes
        let cut = plain.count / 2
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let two = try gzip(Array(plain[..<cut])) + (try gzip(Array(plain[cut...])))
        for (name, bytes, warning) in [
            ("two.log.gz", two, nil),
            ("junk.log.gz", two + Array("trailing junk".utf8), "13 bytes"),
            ("magic.log.gz", two + [0x1F], "1 byte"),
            ("big.log.gz", two + [UInt8](repeating: 0x41, count: 700_000), "700000 bytes"),
        ] as [(String, [UInt8], String?)] {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            let file = try Linter().lint([.file(url.path)]).files[0]
            #expect(file.summary == ["leaked_controller@15"], "\(name)")
            #expect(file.stats.lines == 28, "\(name)")
            let r = try cli.run(["lint", url.path])
            #expect(r.status == 1)
            if let warning {
                #expect(r.stderr.hasPrefix("vclint: warning: \(url.path): \(warning) after the last gzip member ignored\n"), "\(name): \(r.stderr)")
            } else {
                #expect(!r.stderr.contains("vclint: warning"), "\(name)")
            }
        }
    }
}
