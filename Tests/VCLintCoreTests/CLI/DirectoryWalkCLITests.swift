import Foundation
import Testing
@testable import VCLintCore

/// Which files a folder walk reads: hidden and git-ignored entries, and the configuration's globs.
@Suite(.serialized) struct DirectoryWalkCLITests {
    /// A scratch folder with captures in places a walk should and should not read.
    func tree(git: Bool) throws -> URL {
        let root = scratchRoot.appendingPathComponent("vclint-walk-\(UUID().uuidString)")
        let leak = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-missing-dealloc.log"))
        let clean = try Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/seeds/navtest-seed000.log"))
        for (path, data) in [("logs/a.log", clean), ("logs/old/b.log", leak), ("logs/.hidden/c.log", leak), (".build/d.log", leak),
                             ("logs/ignored/e.log", leak), ("logs/f.tmp.log", leak), ("logs/keep.tmp.log", clean), ("logs/sub/g.log", clean)] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try "ignored/\n*.tmp.log\n!keep.tmp.log\n".write(to: root.appendingPathComponent("logs/.gitignore"), atomically: true, encoding: .utf8)
        if git { try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true) }
        return root
    }

    func linted(_ r: CLITests.Run) -> [String] {
        r.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix("{") ? nil : String(line)
        }
    }

    func inputs(_ args: [String], cwd: URL) throws -> [String] {
        let r = try run(args + ["--reporter", "json"], cwd: cwd)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (doc?["inputs"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    /// Hidden folders and what .gitignore ignores are skipped in a git repository, unless --no-ignore.
    @Test func walksSkipHiddenAndIgnoredFiles() throws {
        let root = try tree(git: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try inputs(["lint", "."], cwd: root) == ["./logs/a.log", "./logs/keep.tmp.log", "./logs/old/b.log", "./logs/sub/g.log"])
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/keep.tmp.log", "logs/old/b.log", "logs/sub/g.log"])
        #expect(try inputs(["lint", ".", "--no-ignore"], cwd: root) == ["./.build/d.log", "./logs/.hidden/c.log", "./logs/a.log", "./logs/f.tmp.log",
                                                                       "./logs/ignored/e.log", "./logs/keep.tmp.log", "./logs/old/b.log", "./logs/sub/g.log"])
        // A file named on the command line is read, ignored or not; so is a hidden folder named.
        #expect(try inputs(["lint", "logs/f.tmp.log", ".build"], cwd: root) == ["logs/f.tmp.log", ".build/d.log"])
        // Nothing left: the message says why, and how to read them.
        let none = try run(["lint", "logs/ignored"], cwd: root)
        #expect(none.status == 0 || none.status == 1)  // named folder: its own contents are not ignored by its own name
        try "*.log\n".write(to: root.appendingPathComponent("logs/sub/.gitignore"), atomically: true, encoding: .utf8)
        let empty = try run(["lint", "logs/sub"], cwd: root)
        #expect(empty.status == 2)
        // The .gitignore is inside the folder linted, so the capture it left out is named first.
        #expect(empty.stderr == "vclint: note: skipped 1 capture under logs/sub that an ignore file inside it (.gitignore) ignores: logs/sub/g.log (--no-ignore reads them)\n"
                + "vclint: error: no capture files found under logs/sub (looked for *.log, *.txt, *.ndjson, *.jsonl, logs in *.json and their .gz forms; 1 hidden or git-ignored entry was skipped, which --no-ignore reads)\n")
    }

    /// Outside a git repository, .gitignore files are not read (as by git and ripgrep); hidden
    /// folders are still skipped.
    @Test func gitignoreNeedsARepository() throws {
        let root = try tree(git: false)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/f.tmp.log", "logs/ignored/e.log", "logs/keep.tmp.log", "logs/old/b.log", "logs/sub/g.log"])
    }

    /// `excluded`/`included` are relative to the configuration file's folder: the same files are
    /// linted whether the folder is named relatively, with ./ or absolutely, from any directory.
    @Test func configurationGlobsAreRelativeToItsFolder() throws {
        let root = try tree(git: false)
        defer { try? FileManager.default.removeItem(at: root) }
        try "excluded: ['logs/old', '**/*.tmp.log', 'logs/ignored/**']\n".write(to: root.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        let want = ["a.log", "g.log"]
        for (args, cwd) in [(["lint", "logs"], root), (["lint", "./logs"], root), (["lint", root.appendingPathComponent("logs").path], root),
                            (["lint", "."], root.appendingPathComponent("logs")),
                            (["lint", "logs", "--config", root.appendingPathComponent(".vclint.yml").path], root)] {
            let got = try inputs(args, cwd: cwd).map { ($0 as NSString).lastPathComponent }
            #expect(got == want, "\(args) in \(cwd.lastPathComponent)")
        }
        // * does not cross a folder: `logs/*.log` includes logs/a.log only.
        try "included: ['logs/*.log']\n".write(to: root.appendingPathComponent(".vclint.yml"), atomically: true, encoding: .utf8)
        #expect(try inputs(["lint", "logs"], cwd: root) == ["logs/a.log", "logs/f.tmp.log", "logs/keep.tmp.log"])
    }

    func run(_ args: [String], cwd: URL) throws -> CLITests.Run { try runVCLint(args, cwd: cwd) }
}
