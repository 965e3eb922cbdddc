import Foundation
import Testing
@testable import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

/// The command line within bounds: every number an option takes has a range that its message
/// names; what used to block (a FIFO or a device among captures or as a report) or grow without end
/// (`--files-from /dev/zero`) ends at once with one line; a report never lands on one of the run's
/// inputs; and what a folder walk leaves out is said.
@Suite(.serialized) struct BoundsCLITests {
    let cli = CLITests()
    static let clean = "Fixtures/seeds/navtest-seed000.log"
    static let leak = "Fixtures/seeds/navtest-missing-dealloc.log"
    /// What used to block is killed after this long; it must end well before.
    /// A run still going after this long blocked (a hang); how fast the refusals are is measured
    /// by hand (docs/output.md#limits), not here: a sanitizer build on a busy machine is slow.
    static let deadline = 60.0

    func tempDir() throws -> URL {
        // Resolved: /tmp may be a link, and notes name the paths as the walk saw them.
        let url = URL(fileURLWithPath: scratchRoot.resolvingSymlinksInPath().path)
            .appendingPathComponent("vclint-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func fifo(_ url: URL) throws {
        try #require(mkfifo(url.path, 0o600) == 0, "mkfifo \(url.path)")
    }

    /// A run that must fail at once: exit 2, one stderr line, well before the deadline.
    func failsAtOnce(_ args: [String], cwd: URL = packageRoot, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let r = try cli.run(args, cwd: cwd, timeout: Self.deadline)
        #expect(!r.timedOut, "\(args) blocked", sourceLocation: sourceLocation)
        #expect(r.status == 2, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr == "vclint: error: \(line)\n", sourceLocation: sourceLocation)
    }

    // MARK: - Numbers

    /// Each numeric option, given a value out of its range in both spellings (`--x -1`, which
    /// ArgumentParser read as a missing value, and `--x=-1`), says what it allows.
    @Test func everyNumericOptionNamesItsRange() throws {
        let cases: [([String], String)] = [
            (["timeline", Self.clean, "--width"], "--width must be a whole number from 40 to 1000, not '%'"),
            (["lint", Self.clean, "--jobs"], "--jobs must be a whole number from 1 to 1024, not '%'"),
            (["lint", Self.clean, "--max-warnings"], "--max-warnings must be a whole number 0 or more, not '%'"),
            (["lint", Self.clean, "--markdown-rows"], "--markdown-rows must be a whole number 1 or more, not '%'"),
            (["lint", Self.clean, "--leak-grace-seconds"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '%'"),
            (["leaks", Self.clean, "--leak-grace-seconds"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '%'"),
            (["timeline", Self.clean, "--from"], "--from must be a line number, 1 or more, or a time of day (HH:MM:SS.fff), not '%'"),
            (["timeline", Self.clean, "--to"], "--to must be a line number, 1 or more, or a time of day (HH:MM:SS.fff), not '%'"),
        ]
        for (args, message) in cases {
            let option = args.last!
            for value in ["-1"] {
                try failsAtOnce(args + [value], message.replacingOccurrences(of: "%", with: value) + " (see `vclint help`)")
                try failsAtOnce(Array(args.dropLast()) + ["\(option)=\(value)"], message.replacingOccurrences(of: "%", with: value) + " (see `vclint help`)")
            }
        }
        let huge: [([String], String)] = [
            (["timeline", Self.clean, "--width", "2147483647"], "--width must be a whole number from 40 to 1000, not '2147483647'"),
            (["timeline", Self.clean, "--width", "100000000"], "--width must be a whole number from 40 to 1000, not '100000000'"),
            (["timeline", Self.clean, "--width", "39"], "--width must be a whole number from 40 to 1000, not '39'"),
            (["lint", Self.clean, "-j", "0"], "--jobs must be a whole number from 1 to 1024, not '0'"),
            (["lint", Self.clean, "-j0"], "--jobs must be a whole number from 1 to 1024, not '0'"),
            (["lint", Self.clean, "-j", "99999999999999999999"], "--jobs must be a whole number from 1 to 1024, not '99999999999999999999'"),
            (["lint", Self.clean, "--max-warnings", "99999999999999999999"], "--max-warnings must be a whole number 0 or more, not '99999999999999999999'"),
            (["lint", Self.clean, "--leak-grace-seconds", "86401"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '86401'"),
            (["lint", Self.clean, "--leak-grace-seconds", "1e400"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '1e400'"),
            (["lint", Self.clean, "--leak-grace-seconds", "nan"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not 'nan'"),
            // Only plain decimals, as the docs say: Double's parser took hexadecimal and exponents.
            (["lint", Self.clean, "--leak-grace-seconds", "0x10"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '0x10'"),
            (["lint", Self.clean, "--leak-grace-seconds", "0x1p16"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '0x1p16'"),
            (["lint", Self.clean, "--leak-grace-seconds", "1e3"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '1e3'"),
            (["lint", Self.clean, "--leak-grace-seconds", "1.2.3"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '1.2.3'"),
            // A negative zero is refused, as .vclint.yml refuses it (it printed "grace -0.0 s").
            (["lint", Self.clean, "--leak-grace-seconds", "-0"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '-0'"),
            (["lint", Self.clean, "--leak-grace-seconds=-0.0"], "--leak-grace-seconds must be a number of seconds from 0 to 86400, not '-0.0'"),
            // A day that is not in the calendar.
            (["timeline", Self.clean, "--from", "2017-13-45T17:30:30"], "--from '2017-13-45T17:30:30' is not a day of the calendar: there is no month 13"),
            (["timeline", Self.clean, "--to", "2017-02-29"], "--to '2017-02-29' is not a day of the calendar: 2017-02 has no day 29"),
            (["timeline", Self.clean, "--from", "2017-04-31 10:00"], "--from '2017-04-31 10:00' is not a day of the calendar: 2017-04 has no day 31"),
        ]
        for (args, message) in huge { try failsAtOnce(args, message + " (see `vclint help`)") }
    }

    /// The bounds themselves are allowed.
    @Test func theBoundsThemselvesAreAllowed() throws {
        let wide = try cli.run(["timeline", Self.clean, "--width", "1000"], timeout: Self.deadline)
        #expect(wide.status == 0)
        #expect(wide.stdout.split(separator: "\n").allSatisfy { $0.count <= 1000 })
        #expect(try cli.run(["lint", Self.leak, "--leak-grace-seconds", "86400", "-j", "1024", "--max-warnings", "0"]).status == 1)
        #expect(try cli.run(["lint", Self.clean, "--leak-grace-seconds=0.5", "--jobs=1"]).status == 0)
        // `-j1` as ripgrep and make take it (it read `-j` and then the next argument as its value).
        #expect(try cli.run(["lint", "-j1", "--quiet", Self.clean]).status == 0)
        #expect(try cli.run(["lint", Self.leak, "-j2", "--quiet"]).status == 1)
        for grace in ["0", "+5", " 50", ".5", "5.", "0.0"] {
            #expect(try cli.run(["lint", Self.clean, "--leak-grace-seconds", grace]).status == 0, "'\(grace)'")
        }
        // Days that exist, a leap day among them.
        #expect(try cli.run(["timeline", Self.clean, "--from", "2016-02-29T17:30:30", "--to", "2017-12-31"]).status == 0)
    }

    /// An absurd COLUMNS (it aborted the timeline) is clamped without a word; one that is not a
    /// width (not a number, 0 as a terminal without a size says, a negative one) is ignored: 100.
    @Test func anAbsurdColumnsIsClamped() throws {
        let widths = ["2147483647": 1000, "99999999999999999999": 1000, "100000000": 1000, "10": 40, "120": 120,
                      "-5": 100, "-1": 100, "0": 100, "wide": 100]
        for (columns, width) in widths {
            let r = try cli.run(["timeline", Self.leak, "--color", "never"], env: ["COLUMNS": columns], timeout: Self.deadline)
            #expect(!r.timedOut)
            #expect(r.status == 0, "COLUMNS=\(columns): \(r.stderr)")
            #expect(r.stderr.isEmpty, "COLUMNS=\(columns): \(r.stderr)")
            let asked = try cli.run(["timeline", Self.leak, "--color", "never", "--width", "\(width)"], timeout: Self.deadline)
            #expect(r.stdout == asked.stdout, "COLUMNS=\(columns) is --width \(width)")
        }
    }

    /// The configuration's numbers have ranges too: beyond them a value only risks arithmetic no capture reaches.
    @Test func configurationNumbersHaveRanges() {
        func error(_ yaml: String) -> String? {
            do { _ = try Configuration.parse(yaml, path: ".vclint.yml"); return nil } catch { return error.description }
        }
        #expect(error("leak_grace_seconds: 86401") == ".vclint.yml:1:1: leak_grace_seconds: expected a number from 0 to 86400")
        #expect(error("slow_transition_ms: 1e300") == ".vclint.yml:1:1: slow_transition_ms: expected a number from 0 to 3600000")
        #expect(error("slow_transition: {slow_transition_ms: -1}") != nil)
        #expect(error("leak_grace_seconds: 86400\nslow_transition_ms: 3600000") == nil)
    }

    // MARK: - Lists of paths

    /// `--files-from /dev/zero` and `@/dev/zero` grew without end; now they fail at once.
    @Test func anEndlessListFailsAtOnce() throws {
        let long = "/dev/zero: line 1 is longer than 4096 bytes, which no path is (--files-from and @FILE take paths, one per line)"
        try failsAtOnce(["lint", "--files-from", "/dev/zero"], long)
        try failsAtOnce(["lint", "@/dev/zero"], long)
        try failsAtOnce(["baseline", "create", "--output", "-", "@/dev/zero"], long)
        try failsAtOnce(["lint", "--null", "--files-from", "/dev/zero"],
                        "/dev/zero: a list of paths has at most 1048576 NUL-separated entries, and this one has more (--files-from and @FILE take paths, NUL-separated)")
    }

    /// The caps, exactly: a path of 4096 bytes is read, one of 4097 is not; a list of more than
    /// 16 MiB is refused however it is split.
    @Test func listCapsAreExact() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("list.txt")
        let longest = "/" + String(repeating: "a", count: 4095)
        try Data((longest + "\r\nb.log\n\n").utf8).write(to: list)
        #expect(try PathList.read(list.path) == [longest, "b.log"])
        try Data((longest + "a\n").utf8).write(to: list)
        #expect(throws: InputError.self) { try PathList.read(list.path) }
        try Data(repeating: 0x41, count: 5000).write(to: list)  // one line, no newline at all
        let e = #expect(throws: InputError.self) { try PathList.read(list.path) }
        #expect(e?.description.hasPrefix("\(list.path): line 1 is longer than 4096 bytes") == true)
        var block = Data(repeating: 0x61, count: 1 << 20)  // 1 MiB of 1024-byte lines
        for i in stride(from: 1023, to: block.count, by: 1024) { block[i] = 0x0A }
        #expect(FileManager.default.createFile(atPath: list.path, contents: nil))
        let handle = try FileHandle(forWritingTo: list)
        for _ in 0..<17 { try handle.write(contentsOf: block) }
        try handle.close()
        let tooBig = #expect(throws: InputError.self) { try PathList.read(list.path) }
        #expect(tooBig?.description == "\(list.path): a list of paths is at most 16 MiB, and this one is longer (--files-from and @FILE take paths, one per line)")
        // Split across reads: a path that straddles two 64 KiB chunks is one path.
        let paths = (0..<200).map { "dir/capture-\($0)-" + String(repeating: "x", count: 500) + ".log" }
        try Data((paths.joined(separator: "\n") + "\n").utf8).write(to: list)
        #expect(try PathList.read(list.path) == paths)
        try Data(paths.joined(separator: "\0").utf8).write(to: list)
        #expect(try PathList.read(list.path, separator: 0) == paths)
    }

    /// A NUL byte inside a line of a list: the system reads a path up to its NUL, so `.\0x` walked
    /// `.` and then every `.\0x/NAME` as `.` again, without end (a stack overflow after gigabytes),
    /// and `cap.log\0zzz` read cap.log under another name. No path holds a NUL: the list is refused
    /// at once, naming its line, as a list or as `@FILE`.
    @Test func aListLineWithANULByteIsRefused() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.leak), to: dir.appendingPathComponent("cap.log"))
        let why = "holds a NUL byte, which no path can (--files-from and @FILE take paths, one per line; --null reads NUL-separated ones)"
        for (list, line) in [(".\0x\n", 1), ("/\0x\n", 1), ("cap.log\r\n\ncap.log\0zzz\n", 3), ("cap.log\n\0", 2)] {
            try Data(list.utf8).write(to: dir.appendingPathComponent("list.txt"))
            try failsAtOnce(["lint", "--files-from", "list.txt"], cwd: dir, "list.txt: line \(line) \(why)")
            try failsAtOnce(["lint", "@list.txt"], cwd: dir, "list.txt: line \(line) \(why)")
        }
        // NUL-separated, the NUL ends the path: the same bytes name `.` and `x`.
        try Data(".\0cap.log\0".utf8).write(to: dir.appendingPathComponent("list.txt"))
        let r = try cli.run(["lint", "--null", "--files-from", "list.txt"], cwd: dir, timeout: Self.deadline)
        #expect(!r.timedOut && r.status == 1, "\(r.stderr)")
    }

    /// `--baseline /dev/zero` filled memory; a baseline is at most 64 MiB.
    @Test func anEndlessBaselineFailsAtOnce() throws {
        let r = try cli.run(["lint", "--baseline", "/dev/zero", Self.clean], timeout: Self.deadline)
        #expect(!r.timedOut && r.status == 2)
        #expect(r.stderr == "vclint: error: /dev/zero: more than 64 MiB, which no baseline is (`vclint baseline create` writes one)\n")
    }

    // MARK: - Folder walks

    /// A FIFO, a link to /dev/zero and a link to /dev/null named like captures blocked the walk's
    /// reader forever (or read without end): each is skipped with a note, and the rest is linted.
    @Test func aFolderWalkSkipsWhatIsNotARegularFile() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let caps = dir.appendingPathComponent("caps")
        try FileManager.default.createDirectory(at: caps.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.clean), to: caps.appendingPathComponent("a.log"))
        try fifo(caps.appendingPathComponent("sub/pipe.log"))
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("zero.log").path, withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("null.txt.gz").path, withDestinationPath: "/dev/null")
        let r = try cli.run(["lint", caps.path], timeout: Self.deadline)
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)")
        let why = "not a regular file (a folder walk reads regular files only; name it on the command line to read it)"
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == [
            "vclint: note: skipped \(caps.path)/null.txt.gz: a symbolic link to a character device, \(why)",
            "vclint: note: skipped \(caps.path)/sub/pipe.log: a FIFO, \(why)",
            "vclint: note: skipped \(caps.path)/zero.log: a symbolic link to a character device, \(why)",
        ])
        #expect(lines.last?.hasPrefix("0 errors, 0 warnings in 1 file") == true)

        // Nothing readable left: the run fails as for an empty folder, and says why.
        try FileManager.default.removeItem(at: caps.appendingPathComponent("a.log"))
        let none = try cli.run(["lint", caps.path], timeout: Self.deadline)
        #expect(!none.timedOut && none.status == 2)
        #expect(none.stderr.hasSuffix("vclint: error: no capture files found under \(caps.path) (looked for *.log, *.txt, *.ndjson, *.jsonl, logs in *.json and their .gz forms; 3 were not regular files (FIFOs, sockets, devices), which a folder walk does not read)\n"))
    }

    /// A capture name that is a symbolic link leading nowhere (its target gone, or a loop of links)
    /// may hide the capture the user meant to lint: it is named in a note, not left out silently.
    @Test func aFolderWalkNamesLinksThatLeadNowhere() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let caps = dir.appendingPathComponent("caps")
        try FileManager.default.createDirectory(at: caps, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.clean), to: caps.appendingPathComponent("a.log"))
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("gone.log").path, withDestinationPath: dir.appendingPathComponent("run-42.log").path)
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("x.log").path, withDestinationPath: "y.log")
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("y.log").path, withDestinationPath: "x.log")
        // Not a capture's name: not a capture the walk looked for, so no note.
        try FileManager.default.createSymbolicLink(atPath: caps.appendingPathComponent("notes.md").path, withDestinationPath: "nowhere.md")
        let r = try cli.run(["lint", caps.path], timeout: Self.deadline)
        #expect(!r.timedOut)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.dropLast()) == [
            "vclint: note: skipped \(caps.path)/gone.log: a symbolic link to a missing file, which leads to no capture",
            "vclint: note: skipped \(caps.path)/x.log: a loop of symbolic links, which leads to no capture",
            "vclint: note: skipped \(caps.path)/y.log: a loop of symbolic links, which leads to no capture",
        ])
        #expect(lines.last?.hasPrefix("0 errors, 0 warnings in 1 file") == true)
    }

    /// A folder walk goes 256 levels down, not further (each level holds a directory stream open
    /// and a stack frame): a deeper folder is named in a note, and what is above it is linted.
    @Test func aFolderWalkStopsAtItsDepthLimit() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("deep")
        let level256 = (0..<256).reduce(root) { url, _ in url.appendingPathComponent("d") }
        try FileManager.default.createDirectory(at: level256.appendingPathComponent("d"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.clean), to: root.appendingPathComponent("a.log"))
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.leak), to: level256.appendingPathComponent("b.log"))
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.leak), to: level256.appendingPathComponent("d/c.log"))
        let r = try cli.run(["lint", root.path], timeout: Self.deadline)
        #expect(!r.timedOut && r.status == 1, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").map { $0.prefix(while: { $0 != ":" }) } == [Substring(level256.appendingPathComponent("b.log").path)])
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "vclint: note: skipped \(level256.path)/d/: more than 256 folders deep (a folder walk goes 256 levels down; name the folder to walk it)")
        #expect(lines.last?.hasPrefix("1 error, 0 warnings in 2 files") == true, "\(r.stderr)")
    }

    /// A folder that is one of its own ancestors is walked once. Here the path `DIR\0x`, which the
    /// system reads as DIR, so that every entry `DIR\0x/NAME` is DIR again (a bind mount of a parent
    /// folder inside it loops the same way): each is named, none is walked, and the walk ends.
    @Test func aFolderThatIsItsOwnAncestorIsNotWalkedAgain() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent(Self.leak), to: dir.appendingPathComponent("a.log"))
        let found = try #require(try DirectoryWalker.walk(dir.path + "\0x", admit: { _ in true }, ignoring: false))
        #expect(found.files.isEmpty)
        #expect(found.notWalked.map(\.path).sorted() == ["a.log", "sub"].map { PathName.display(Array("\(dir.path)\0x/\($0)".utf8)) + "/" })
        #expect(found.notWalked.allSatisfy { $0.why.hasPrefix("the same folder as one that holds it") })
    }

    /// A FIFO named on the command line is the user's choice, as standard input is: it is read.
    @Test func aFIFONamedOnTheCommandLineIsRead() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipe = dir.appendingPathComponent("live.log")
        try fifo(pipe)
        let log = try Data(contentsOf: packageRoot.appendingPathComponent(Self.leak))
        let path = pipe.path
        let writer = Thread {
            let fd = open(path, O_WRONLY)  // waits for vclint to open it for reading
            guard fd >= 0 else { return }
            _ = log.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let r = try cli.run(["lint", pipe.path], timeout: Self.deadline)
        if r.timedOut { let fd = open(path, O_RDONLY | O_NONBLOCK); if fd >= 0 { close(fd) } }  // frees the writer
        #expect(!r.timedOut)
        #expect(r.status == 1, "the leak in the capture written to the FIFO: \(r.stderr)")
        #expect(r.stdout.contains("never deallocated"))
    }

    /// A capture that a .gitignore inside the linted folder ignores is named in a note (the user may
    /// not know of that file); what the repository's .gitignore above it ignores is not.
    @Test func capturesAnIgnoreFileInsideTheFolderIgnoresAreNamed() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let caps = dir.appendingPathComponent("caps")
        try fm.createDirectory(at: caps.appendingPathComponent("archive"), withIntermediateDirectories: true)
        try Data("above.log\n".utf8).write(to: dir.appendingPathComponent(".gitignore"))
        try Data("old-*.log\narchive/\n".utf8).write(to: caps.appendingPathComponent(".gitignore"))
        let clean = packageRoot.appendingPathComponent(Self.clean)
        for name in ["a.log", "above.log", "old-1.log", "old-2.log", "archive/x.log"] {
            try fm.copyItem(at: clean, to: caps.appendingPathComponent(name))
        }
        let r = try cli.run(["lint", caps.path], timeout: Self.deadline)
        #expect(r.status == 0)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "vclint: note: skipped 3 entries under \(caps.path) that an ignore file inside it (.gitignore) ignores: \(caps.path)/archive/, \(caps.path)/old-1.log, \(caps.path)/old-2.log (--no-ignore reads them)")
        #expect(lines.count == 2, "no note for above.log, which the repository's .gitignore ignores: \(r.stderr)")

        // Many: the first five, then how many more.
        try fm.removeItem(at: caps.appendingPathComponent("archive"))
        for i in 3...8 { try fm.copyItem(at: clean, to: caps.appendingPathComponent("old-\(i).log")) }
        let many = try cli.run(["lint", caps.path], timeout: Self.deadline)
        let first = (1...5).map { "\(caps.path)/old-\($0).log" }.joined(separator: ", ")
        #expect(many.stderr.hasPrefix("vclint: note: skipped 8 captures under \(caps.path) that an ignore file inside it (.gitignore) ignores: \(first) and 3 more (--no-ignore reads them)\n"))
        let all = try cli.run(["lint", "--no-ignore", caps.path], timeout: Self.deadline)
        #expect(!all.stderr.contains("note:"))
    }

    // MARK: - Report targets

    /// A FIFO as a report target blocked (opening it for writing waits for a reader): refused, as is
    /// any target that exists and is not a regular file, but /dev/null, /dev/stdout and /dev/stderr.
    @Test func aReportTargetThatIsNotARegularFileIsRefused() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("report.fifo")
        try fifo(target)
        let refused = "\(target.path): is a FIFO, not a regular file; a report is written to a regular file, or to - (standard output), /dev/stdout, /dev/stderr or /dev/null"
        try failsAtOnce(["lint", Self.clean, "--reporter", "json:\(target.path)"], refused)
        let shard = dir.appendingPathComponent("shard.json").path
        #expect(try cli.run(["lint", Self.clean, "--reporter", "json:\(shard)"]).status == 0)
        try failsAtOnce(["merge", shard, "--reporter", "json:\(target.path)"], refused)
        try failsAtOnce(["timeline", Self.clean, "--output", target.path], refused)
        try failsAtOnce(["leaks", Self.clean, "--output", target.path], refused)
        try failsAtOnce(["inspect", Self.clean, "--output", target.path], refused)
        try failsAtOnce(["report", Self.clean, "--output", target.path], refused)
        try failsAtOnce(["baseline", "create", Self.clean, "--output", target.path], refused)
        // A link to it is the same target.
        let link = dir.appendingPathComponent("report.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        try failsAtOnce(["lint", Self.clean, "--reporter", "sarif:\(link.path)"],
                        "\(link.path): is a FIFO, not a regular file; a report is written to a regular file, or to - (standard output), /dev/stdout, /dev/stderr or /dev/null")
        try failsAtOnce(["lint", Self.clean, "--reporter", "json:/dev/zero"],
                        "/dev/zero: is a character device, not a regular file; a report is written to a regular file, or to - (standard output), /dev/stdout, /dev/stderr or /dev/null")

        let null = try cli.run(["lint", Self.leak, "--quiet", "--reporter", "json:/dev/null"], timeout: Self.deadline)
        #expect(null.status == 1 && null.stdout.isEmpty && null.stderr.isEmpty)
        let stdout = try cli.run(["lint", Self.leak, "--quiet", "--reporter", "json:/dev/stdout"], timeout: Self.deadline)
        #expect(stdout.status == 1 && stdout.stdout.hasPrefix("{") && stdout.stderr.isEmpty)
        let timeline = try cli.run(["timeline", Self.clean, "--output", "/dev/stdout"], timeout: Self.deadline)
        #expect(timeline.status == 0 && !timeline.stdout.isEmpty)
    }

    /// No report may overwrite an input of its run: not a capture (as before), and not the baseline,
    /// the configuration file, a --files-from list or @FILE, nor a source file under --source-root.
    @Test func aReportTargetThatIsAnotherInputIsRefused() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = packageRoot.appendingPathComponent(Self.leak).path
        let baseline = dir.appendingPathComponent("baseline.json")
        #expect(try cli.run(["baseline", "create", capture, "--output", baseline.path]).status == 0)
        let config = dir.appendingPathComponent("vclint.yml")
        try Data("leak_grace_seconds: 3\n".utf8).write(to: config)
        let list = dir.appendingPathComponent("list.txt")
        try Data((capture + "\n").utf8).write(to: list)
        let sources = dir.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let swift = sources.appendingPathComponent("Child1ViewController.swift")
        try Data("final class Child1ViewController: UIViewController {}\n".utf8).write(to: swift)
        let before = try Data(contentsOf: baseline)

        func also(_ path: String, _ role: String) -> String { "\(path): is also an input of this run (\(role)); a report would overwrite it" }
        try failsAtOnce(["lint", capture, "--baseline", baseline.path, "--reporter", "json:\(baseline.path)"], also(baseline.path, "the --baseline file"))
        let shard = dir.appendingPathComponent("shard.json").path
        #expect(try cli.run(["lint", capture, "--reporter", "json:\(shard)"]).status == 1)
        try failsAtOnce(["merge", "--baseline", baseline.path, shard, "--reporter", "json:\(baseline.path)"], also(baseline.path, "the --baseline file"))
        try failsAtOnce(["lint", capture, "--config", config.path, "--reporter", "sarif:\(config.path)"], also(config.path, "the --config file"))
        try failsAtOnce(["timeline", capture, "--config", config.path, "--output", config.path], also(config.path, "the --config file"))
        try failsAtOnce(["lint", "--files-from", list.path, "--reporter", "json:\(list.path)"], also(list.path, "a --files-from or @FILE list"))
        try failsAtOnce(["leaks", "@\(list.path)", "--output", list.path], also(list.path, "a --files-from or @FILE list"))
        try failsAtOnce(["baseline", "create", "@\(list.path)", "--output", list.path], also(list.path, "a --files-from or @FILE list"))
        try failsAtOnce(["lint", capture, "--source-root", sources.path, "--reporter", "json:\(swift.path)"],
                        "\(swift.path): is also an input of this run (a source file under --source-root); a report would overwrite it")
        // Another name for the same file is the same file.
        let link = dir.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: baseline.path)
        try failsAtOnce(["lint", capture, "--baseline", baseline.path, "--reporter", "json:\(link.path)"], also(link.path, "the --baseline file \(baseline.path)"))
        // The configuration found (not given) counts too.
        try Data("leak_grace_seconds: 3\n".utf8).write(to: dir.appendingPathComponent(".vclint.yml"))
        try failsAtOnce(["timeline", capture, "--output", ".vclint.yml"], cwd: dir, also(".vclint.yml", "the configuration file \(dir.path)/.vclint.yml"))
        #expect(try Data(contentsOf: baseline) == before, "nothing was written")
        #expect(try String(contentsOf: config, encoding: .utf8) == "leak_grace_seconds: 3\n")

        // A report beside the sources that is not a source file is fine.
        let report = sources.appendingPathComponent("vclint.json")
        let ok = try cli.run(["lint", capture, "--source-root", sources.path, "--reporter", "json:\(report.path)"], timeout: Self.deadline)
        #expect(ok.status == 1 && FileManager.default.fileExists(atPath: report.path))
    }

    /// `-` is standard output wherever a file is named for output: `baseline create --output -` wrote a file named `-`.
    @Test func dashIsStandardOutputForEveryOutputFile() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = packageRoot.appendingPathComponent(Self.leak).path
        let baseline = try cli.run(["baseline", "create", capture, "--output", "-"], cwd: dir, timeout: Self.deadline)
        #expect(baseline.status == 0)
        #expect(baseline.stdout.hasPrefix("{") && baseline.stdout.contains("\"fingerprint\""))
        #expect(baseline.stderr == "vclint: recorded 1 finding (1 fingerprint) on standard output\n")
        #expect(try Baseline.parse(Data(baseline.stdout.utf8), path: "-").entries.count == 1)
        for args in [["lint", capture, "--reporter", "json:-"], ["timeline", capture, "--output", "-"], ["leaks", capture, "--output=-"],
                     ["inspect", capture, "--output", "-"], ["report", capture, "--output", "-"]] {
            let r = try cli.run(args, cwd: dir, timeout: Self.deadline)
            #expect(!r.stdout.isEmpty, "\(args)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no file named -")
    }

    // MARK: - Rollback

    /// A rollback that fails itself leaves a mixed set: the one line says which reports are new and which as before.
    @Test func aFailedRollbackSaysWhichReportsAreNewAndWhichOld() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.sarif"), c = dir.appendingPathComponent("c.xml")
        try Data("old a".utf8).write(to: a)
        try Data("old b".utf8).write(to: b)
        try Data("old c".utf8).write(to: c)
        let tx = ReportTransaction([try PendingReportFile(path: a.path), try PendingReportFile(path: b.path), try PendingReportFile(path: c.path)])
        var calls = 0
        tx.rename = { from, to in
            calls += 1
            if calls == 3 { errno = EIO; return -1 }
            return rename(from, to)
        }
        // a's old report cannot be put back; b's can.
        tx.restore = { from, to in
            if to == a.path { errno = EACCES; return -1 }
            return rename(from, to)
        }
        let e = #expect(throws: ReportFileError.self) { try tx.commit(["new a", "new b", "new c"]) }
        // a's backup is the only copy of its old report left: kept, and named.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let backup = try #require(left.first { $0.hasPrefix(".a.json.vclint-old-") }, "\(left)")
        #expect(left == [backup, "a.json", "b.sarif", "c.xml"])
        #expect(try String(contentsOf: dir.appendingPathComponent(backup), encoding: .utf8) == "old a")
        #expect(e?.description == "\(c.path): input/output error; putting the old reports back failed too, so the set is mixed: new \(a.path); as before \(b.path), \(c.path); the old \(a.path) is kept as \(dir.path)/\(backup)")
        #expect(try String(contentsOf: a, encoding: .utf8) == "new a")
        #expect(try String(contentsOf: b, encoding: .utf8) == "old b")
        #expect(try String(contentsOf: c, encoding: .utf8) == "old c")
    }

    /// A relative report path: the kept backup is named beside it as it was given.
    @Test func aKeptBackupIsNamedAsTheReportIs() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The temporary folder as the working directory reaches it (tests share the working directory).
        let up = FileManager.default.currentDirectoryPath.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        let rel = up + dir.path
        try Data("old a".utf8).write(to: dir.appendingPathComponent("a.json"))
        try Data("old b".utf8).write(to: dir.appendingPathComponent("b.sarif"))
        let tx = ReportTransaction([try PendingReportFile(path: rel + "/a.json"), try PendingReportFile(path: rel + "/b.sarif")])
        var calls = 0
        tx.rename = { from, to in
            calls += 1
            if calls == 2 { errno = EIO; return -1 }
            return rename(from, to)
        }
        tx.restore = { _, _ in errno = EACCES; return -1 }
        let e = #expect(throws: ReportFileError.self) { try tx.commit(["new a", "new b"]) }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let backup = try #require(left.first { $0.hasPrefix(".a.json.vclint-old-") }, "\(left)")
        #expect(left == [backup, "a.json", "b.sarif"], "b's backup, put back by nothing, is not needed: b was never replaced")
        #expect(e?.description == "\(rel)/b.sarif: input/output error; putting the old reports back failed too, so the set is mixed: new \(rel)/a.json; as before \(rel)/b.sarif; the old \(rel)/a.json is kept as \(rel)/\(backup)")
        #expect(try String(contentsOf: dir.appendingPathComponent(backup), encoding: .utf8) == "old a")
    }

    /// A report a shard forged with a count near Int.max would overflow the merged sum: refused.
    @Test func aMergedReportsCountsAreBounded() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = dir.appendingPathComponent("shard.json")
        #expect(try cli.run(["lint", Self.clean, "--reporter", "json:\(report.path)"]).status == 0)
        var text = try String(contentsOf: report, encoding: .utf8)
        let range = try #require(text.range(of: #""lines": *[0-9]+"#, options: .regularExpression))
        text.replaceSubrange(range, with: "\"lines\": 9223372036854775807")
        try Data(text.utf8).write(to: report)
        let e = #expect(throws: ReportReadError.self) { try LoadedReport.read(path: report.path) }
        #expect(e?.description.contains("\"lines\" count out of range") == true)
    }
}
