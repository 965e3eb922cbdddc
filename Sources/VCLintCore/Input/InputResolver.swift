import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thing to read: a file or standard input.
public enum InputSource: Sendable, Equatable {
    case file(String)
    case standardInput

    public var displayPath: String {
        switch self {
        case .file(let p): return p
        case .standardInput: return "<stdin>"
        }
    }
}

/// A run that cannot go on: exit code 2 with one line naming the file and the reason.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

public enum InputResolver {
    public static let logExtensions: Set<String> = ["log", "txt", "ndjson", "jsonl"]

    /// Paths as given on the command line → inputs. Directories are searched (sorted, so the
    /// report order is deterministic) for the log extensions; no path or `-` means stdin.
    public static func resolve(_ paths: [String], admit: (String) -> Bool = { _ in true }) throws -> [InputSource] {
        if paths.isEmpty { return [.standardInput] }
        var out: [InputSource] = []
        let fm = FileManager.default
        for path in paths {
            if path == "-" { out.append(.standardInput); continue }
            var isDir: ObjCBool = false
            // A missing path stays an input: `open` reports it, and the other inputs are still linted.
            if fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
                guard let walker = fm.enumerator(atPath: path) else {
                    throw InputError(path: path, reason: "cannot read directory")
                }
                var found: [String] = []
                while let rel = walker.nextObject() as? String {
                    let ext = (rel as NSString).pathExtension.lowercased()
                    guard logExtensions.contains(ext) else { continue }
                    let full = path.hasSuffix("/") ? path + rel : path + "/" + rel
                    var sub: ObjCBool = false
                    if fm.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue, admit(full) { found.append(full) }
                }
                out.append(contentsOf: found.sorted().map { .file($0) })
            } else {
                out.append(.file(path))
            }
        }
        return out
    }

    /// Opens an input for reading; the error names the file and the reason.
    public static func open(_ source: InputSource) throws -> Int32 {
        switch source {
        case .standardInput: return 0
        case .file(let path):
            let fd = Glibc.open(path, O_RDONLY)
            if fd < 0 {
                throw InputError(path: path, reason: String(cString: strerror(errno)).lowercased())
            }
            return fd
        }
    }
}

extension Linter {
    /// Lints every input in order. An input that cannot be opened or read is recorded in
    /// `failures` (the run failed) and the others are still linted.
    public func lint(_ sources: [InputSource]) -> LintResult {
        let start = Date()
        var files: [FileResult] = []
        var failures: [InputError] = []
        for source in sources {
            do {
                let fd = try InputResolver.open(source)
                defer { if fd != 0 { close(fd) } }
                files.append(try lint(fd: fd, path: source.displayPath))
            } catch let error as InputError {
                failures.append(error)
            } catch LogScanner.ReadError.io(let code) {
                failures.append(InputError(path: source.displayPath, reason: String(cString: strerror(code)).lowercased()))
            } catch {
                failures.append(InputError(path: source.displayPath, reason: "\(error)"))
            }
        }
        var result = LintResult(files: files, seconds: Date().timeIntervalSince(start))
        result.failures = failures
        return result
    }
}
