import Foundation

/// How far a batch run is: input bytes read and files finished, shared by the threads that lint.
public final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = 0
    private var files = 0
    public let totalBytes: Int
    public let totalFiles: Int

    public init(totalBytes: Int, totalFiles: Int) {
        self.totalBytes = totalBytes
        self.totalFiles = totalFiles
    }

    func add(bytes n: Int) {
        lock.lock()
        bytes += n
        lock.unlock()
    }

    func fileDone() {
        lock.lock()
        files += 1
        lock.unlock()
    }

    public var snapshot: (bytes: Int, files: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (bytes, files)
    }

    /// `412 MB of 1.07 GB, 1 of 2 files, 395 MB/s`.
    public func line(elapsed: Double) -> String {
        let (b, f) = snapshot
        var parts = [totalBytes > 0 ? "\(Self.size(b)) of \(Self.size(totalBytes))" : Self.size(b)]
        if totalFiles > 1 { parts.append("\(f) of \(totalFiles) files") }
        if elapsed > 0 { parts.append("\(Self.size(Int(Double(b) / elapsed)))/s") }
        return parts.joined(separator: ", ")
    }

    static func size(_ n: Int) -> String {
        let d = Double(n)
        if d >= 1e9 { return String(format: "%.2f GB", d / 1e9) }
        if d >= 1e6 { return String(format: "%.0f MB", d / 1e6) }
        if d >= 1e3 { return String(format: "%.0f kB", d / 1e3) }
        return "\(n) B"
    }
}
