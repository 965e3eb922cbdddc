import Foundation
import Testing

/// Real console captures that other people published, with their verdicts (../shared/captures):
/// every spec-scope verdict must hold (`check.py` lints each with the built binary).
@Suite struct RealCaptureTests {
    static let script = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures/check.py")

    @Test func everySpecVerdictHolds() throws {
        guard FileManager.default.fileExists(atPath: Self.script.path) else {
            print("RealCaptureTests: skipped, \(Self.script.path) is not beside this checkout")
            return
        }
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
