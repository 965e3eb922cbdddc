import Foundation
import Testing

/// Real console captures that other people published, with their verdicts, kept beside this
/// checkout in `../shared/captures` (the only thing the suite reads from outside the repository):
/// every spec-scope verdict must hold (`check.py` lints each with the built binary). Without that
/// folder the test is skipped with a note, as a test whose optional tool is missing is.
@Suite struct RealCaptureTests {
    static let script = OptionalTool.sharedCapturesFolder.appendingPathComponent("check.py")

    @Test(.requires(.sharedCaptures, for: "the real-capture verdicts"),
          .requires(.python3, for: "the real-capture verdicts, which check.py scores"))
    func everySpecVerdictHolds() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.script.path, CLITests.binary.path]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(text)")
        #expect(text.contains("captures: "), "\(text)")
    }
}
