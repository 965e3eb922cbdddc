// The `args` fuzz target (see FuzzMain.swift): the command line of the built `vclint` binary
// (VCLINT_FUZZ_BINARY), argv made of the input's NUL-separated pieces, run in a scratch directory.
// A run ends with exit 0, 1 or 2, never a signal; exit 2 says why on stderr, in `vclint: error:` lines
// and never with ArgumentParser's usage block.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

private let scratch = FileManager.default.currentDirectoryPath + "/.build-fuzz/args-work"
private let fixture = FileManager.default.currentDirectoryPath + "/Fixtures/seeds/navtest-missing-dealloc.log"

func fuzzArgs(_ input: [UInt8]) -> Int32 {
    guard let binary = ProcessInfo.processInfo.environment["VCLINT_FUZZ_BINARY"] else { fuzzFail("VCLINT_FUZZ_BINARY is not set") }
    // A fresh directory each time: `init` or a report must not change the next run.
    try? FileManager.default.removeItem(atPath: scratch)
    try? FileManager.default.createDirectory(atPath: scratch + "/logs", withIntermediateDirectories: true)
    try? FileManager.default.copyItem(atPath: fixture, toPath: scratch + "/a.log")
    try? FileManager.default.copyItem(atPath: fixture, toPath: scratch + "/logs/b.log")
    try? "disabled_rules: [memory_warning]\n".write(toFile: scratch + "/c.yml", atomically: false, encoding: .utf8)
    // Arguments stay inside the scratch directory: none may hold a slash (no absolute path, no "../x").
    var args = input.split(separator: 0, omittingEmptySubsequences: false).prefix(400).map { piece -> String in
        let s = String(decoding: piece, as: UTF8.self)
        return s.contains("/") ? "a.log" : s
    }
    if args.count == 1 && args[0].isEmpty { args = [] }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = args
    p.currentDirectoryURL = URL(fileURLWithPath: scratch)
    p.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": scratch]
    p.standardInput = FileHandle.nullDevice
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    do { try p.run() } catch { fuzzFail("cannot start \(binary): \(error)") }
    // `--follow FILE` follows until interrupted: Ctrl-C after a while, which it must take calmly.
    let watchdog = DispatchWorkItem { if p.isRunning { kill(p.processIdentifier, SIGINT) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 1.5, execute: watchdog)
    let stdout = readAll(out.fileHandleForReading)
    let stderr = String(decoding: readAll(err.fileHandleForReading), as: UTF8.self)
    p.waitUntilExit()
    watchdog.cancel()
    _ = stdout
    if p.terminationReason != .exit { fuzzFail("\(args) died of signal \(p.terminationStatus): \(stderr)") }
    let status = p.terminationStatus
    if ![0, 1, 2].contains(status) { fuzzFail("\(args) exited \(status)") }
    if stderr.contains("Usage:") || stderr.contains("USAGE:") { fuzzFail("\(args) printed a usage block on stderr") }
    if stderr.contains("Fatal error") { fuzzFail("\(args) trapped: \(stderr)") }
    if status == 2 && !stderr.split(separator: "\n").contains(where: { $0.hasPrefix("vclint: error: ") }) {
        fuzzFail("\(args) exited 2 without a `vclint: error:` line: \(stderr.debugDescription)")
    }
    return 0
}

/// A pipe's bytes to its end, read(2) by read(2): `readDataToEndOfFile` traps on any error, and an
/// interrupted read (EINTR, while libFuzzer's leak check reruns an input) is not one.
private func readAll(_ handle: FileHandle) -> [UInt8] {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let fd = handle.fileDescriptor
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            data += buffer[0..<n]
        } else if n < 0 && errno == EINTR {
            continue
        } else {
            return data
        }
    }
}
