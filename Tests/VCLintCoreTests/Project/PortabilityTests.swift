import Foundation
import Testing
@testable import VCLintCore

/// macOS is not built here, so what would break its build is looked for in the sources: the C
/// library is reached through `Support/Platform.swift` (re-exported for every file), never through
/// the `Glibc` module by name, and glibc's private struct fields stay behind its accessors.
@Suite struct PortabilityTests {
    static func sources() throws -> [(path: String, text: String)] {
        var out: [(String, String)] = []
        for dir in ["Sources", "Tests/VCLintCoreTests", "Tests/Fuzz"] {
            let root = packageRoot.appendingPathComponent(dir)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let rel = walker.nextObject() as? String {
                guard rel.hasSuffix(".swift") || rel.hasSuffix(".h") else { continue }
                out.append(("\(dir)/\(rel)", try String(contentsOf: root.appendingPathComponent(rel), encoding: .utf8)))
            }
        }
        return out
    }

    @Test func noCallNamesTheGlibcModuleOutsidePlatform() throws {
        let files = try Self.sources()
        #expect(files.count > 50)
        for (path, text) in files where !path.hasSuffix("Support/Platform.swift") && !path.hasSuffix("PortabilityTests.swift") {
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                #expect(!code.contains("Glibc."), "\(path):\(n + 1) calls through the Glibc module, which macOS lacks: use LibC")
                #expect(!code.contains("__sigaction_handler"), "\(path):\(n + 1) uses glibc's sigaction union: use plainHandler")
                #expect(!code.replacingOccurrences(of: "vclint_memrchr(", with: "").contains("memrchr(") || path.hasSuffix("shim.h"), "\(path):\(n + 1) calls memrchr, which Darwin lacks: use vclint_memrchr")
            }
        }
    }

    /// The wrappers reach the real system calls.
    @Test func libcWrappersWork() throws {
        let path = scratchRoot.appendingPathComponent("vclint-libc-\(getpid())").path
        defer { unlink(path); unlink(path + ".moved") }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("abc".utf8)))
        #expect(LibC.rename(path, path + ".moved") == 0)
        let fd = LibC.open(path + ".moved", O_RDONLY)
        #expect(fd >= 0)
        var buffer = [UInt8](repeating: 0, count: 8)
        let n = buffer.withUnsafeMutableBytes { LibC.read(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(Array(buffer.prefix(max(0, n))) == Array("abc".utf8))
        var action = sigaction()
        #expect(sigaction(SIGUSR2, nil, &action) == 0)
        #expect(action.plainHandler == nil)  // SIG_DFL
    }
}
