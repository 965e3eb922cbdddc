// The `gzip`, `live` and `config` fuzz targets (see FuzzMain.swift).
import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A cheap hash of the input, for choices that must not depend on where libFuzzer mutates.
private func choice(_ bytes: [UInt8], _ salt: UInt64) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ salt
    for b in bytes.prefix(128) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
}

/// A file descriptor holding `bytes` (a temporary file, unlinked at once).
private func descriptor(_ bytes: [UInt8]) -> Int32 {
    var template = Array(".build-fuzz/input-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    if fd < 0 { fuzzFail("mkstemp: \(errno)") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    var off = 0
    while off < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, bytes.count - off) }
        if n <= 0 { fuzzFail("write to the input file: \(errno)") }
        off += n
    }
    lseek(fd, 0, SEEK_SET)
    return fd
}

/// gzip(1)'s format, one member, from zlib.
func gzipMember(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    var stream = z_stream()
    guard deflateInit2_(&stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        fuzzFail("deflateInit2")
    }
    defer { deflateEnd(&stream) }
    var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
    var input = bytes
    let produced: Int = input.withUnsafeMutableBufferPointer { i in
        out.withUnsafeMutableBufferPointer { o in
            stream.next_in = i.baseAddress
            stream.avail_in = UInt32(i.count)
            stream.next_out = o.baseAddress
            stream.avail_out = UInt32(o.count)
            guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { fuzzFail("deflate did not finish") }
            return o.count - Int(stream.avail_out)
        }
    }
    return Array(out[..<produced])
}

private func report(_ f: FileResult) -> String {
    var plain = f
    plain.warnings = []
    return JSONReporter().report(LintResult(files: [plain], seconds: 0))
}

/// The file-descriptor path (`Linter.lint(fd:)`: sniffing, the Inflater thread, members, trailing
/// bytes, line-end translation), not `lint(bytes:)`.
func fuzzGzip(_ input: [UInt8]) -> Int32 {
    guard let mode = input.first else { return 0 }
    let body = Array(input.dropFirst())
    let linter = Linter()
    switch mode % 3 {
    case 0:
        // The bytes as they are (libFuzzer mutates gzip headers, members and trailers from the seeds):
        // a result or a read error, never a crash or a hang.
        let fd = descriptor(body)
        defer { close(fd) }
        if let r = try? linter.lint(fd: fd, path: "fuzz.log.gz"), r.stats.lines < 0 { fuzzFail("negative lines") }
    case 1:
        // The body compressed as one to three members, then trailing bytes: the same report as the plain
        // body, and a warning that counts the trailing bytes exactly.
        let h = choice(input, 1)
        let cuts = [0, Int(h % UInt64(body.count + 1)), Int((h >> 20) % UInt64(body.count + 1))].sorted() + [body.count]
        var gz: [UInt8] = []
        for k in 0..<3 where cuts[k] < cuts[k + 1] || k == 0 {
            gz += gzipMember(Array(body[cuts[k]..<cuts[k + 1]]), level: Int32(h >> 40 & 7) + 1)
        }
        var trailing = Array(body.prefix(Int(h >> 44 & 15)))
        if trailing.first == 0x1F { trailing[0] = 0x20 }  // not the start of another member
        let fd = descriptor(gz + trailing)
        defer { close(fd) }
        guard let r = try? linter.lint(fd: fd, path: "fuzz.log") else { fuzzFail("valid gzip members were refused") }
        let plain = linter.lint(bytes: body, path: "fuzz.log")
        if report(r) != report(plain) { fuzzFail("gzip members and the plain bytes give different reports") }
        let expected = trailing.isEmpty ? [] : [Inflater.trailingWarning(trailing.count, path: "fuzz.log")]
        if r.warnings != expected { fuzzFail("trailing bytes: \(r.warnings) != \(expected)") }
    default:
        // A member cut short: an error that says so, not a partial report passed off as whole.
        let gz = gzipMember(body)
        let cut = Int(choice(input, 2) % UInt64(gz.count))
        let fd = descriptor(Array(gz[..<cut]))
        defer { close(fd) }
        if cut >= 2, (try? linter.lint(fd: fd, path: "fuzz.log.gz")) != nil { fuzzFail("a gzip member cut at \(cut) of \(gz.count) was accepted") }
    }
    return 0
}

/// `LiveFollower` over a real file that the input grows, truncates, rewrites and rotates between
/// polls. Each op: one byte (kind), one byte (length), then that many bytes of data.
func fuzzLive(_ input: [UInt8]) -> Int32 {
    let dir = ".build-fuzz/live-work"
    mkdir(dir, 0o755)
    let path = dir + "/follow.log"
    unlink(path)
    unlink(path + ".1")
    var ops: [(kind: UInt8, data: [UInt8])] = []
    var i = 0
    while i + 1 < input.count {
        let n = min(Int(input[i + 1]), input.count - i - 2)
        ops.append((input[i] % 6, Array(input[(i + 2)..<(i + 2 + n)])))
        i += 2 + n
    }
    func write(_ data: [UInt8], flags: Int32) {
        let fd = open(path, O_WRONLY | O_CREAT | flags, 0o644)
        if fd < 0 { fuzzFail("open \(path): \(errno)") }
        _ = data.withUnsafeBytes { LibC.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
    write(ops.first?.data ?? [], flags: O_TRUNC)
    var appended = ops.first?.data ?? []
    var onlyAppends = true
    var step = 1
    var printed: [Finding] = []
    var resolutions: [Resolution] = []
    let follower = LiveFollower(
        source: .file(path),
        poll: {
            guard step < ops.count else { return false }
            let op = ops[step]
            step += 1
            switch op.kind {
            case 0, 1:
                write(op.data, flags: O_APPEND)
                appended += op.data
            case 2:  // copytruncate: emptied and rewritten in place
                write(op.data, flags: O_TRUNC)
                onlyAppends = false
            case 3:  // rotated by rename, a new file in its place
                rename(path, path + ".1")
                write(op.data, flags: O_TRUNC)
                onlyAppends = false
            case 4:  // truncated to part of itself
                truncate(path, off_t(op.data.first ?? 0))
                onlyAppends = false
            default:
                break
            }
            return true
        },
        output: { printed += $0.findings; resolutions += $0.resolutions },
        notice: { _ in })
    let results: [FileResult]
    do { results = try follower.run() } catch { fuzzFail("following a regular file failed: \(error)") }
    for r in results {
        for f in r.findings where f.line < 1 || f.line > max(r.stats.lines, 1) {  // line 1 of an empty one: the whole input
            fuzzFail("\(f.rule) at line \(f.line) of a generation of \(r.stats.lines) lines")
        }
    }
    if onlyAppends {
        // Appends only: one generation, ending as a batch run over the whole capture does
        // (docs/lifecycle.md#live-mode); what was printed, less what was resolved, is its findings.
        if results.count != 1 { fuzzFail("appends were taken for a rotation or truncation (\(results.count) generations)") }
        let expected = Linter().lint(bytes: appended, path: path)
        func verdict(_ f: Finding) -> String { "\(f.rule)@\(f.line) \(f.severity) \(f.fingerprint) \(f.message)" }
        if results[0].findings.map(verdict) != expected.findings.map(verdict) {
            fuzzFail("the growing file and a batch run over the whole capture give different findings")
        }
        if results[0].stats.lines != expected.stats.lines { fuzzFail("lines \(results[0].stats.lines) != \(expected.stats.lines)") }
        func key(_ f: Finding) -> String { "\(f.rule)@\(f.line) \(f.fingerprint)" }
        var standing: [String: Int] = [:]
        for f in printed { standing[key(f), default: 0] += 1 }
        for r in resolutions {
            guard let n = standing[key(r.finding)], n > 0 else { fuzzFail("a resolution of \(key(r.finding)), which was not printed") }
            standing[key(r.finding)] = n - 1
        }
        var batch: [String: Int] = [:]
        for f in expected.findings { batch[key(f), default: 0] += 1 }
        if standing.filter({ $0.value > 0 }) != batch { fuzzFail("printed less resolved is not the batch run's findings: \(standing) != \(batch)") }
    }
    return 0
}

/// The YAML configuration loader: any bytes end in a configuration or a one-line error, in bounded
/// time and memory (libFuzzer's -timeout and -rss_limit_mb catch the rest).
func fuzzConfig(_ input: [UInt8]) -> Int32 {
    let text = String(decoding: input, as: UTF8.self)
    do {
        let c = try Configuration.parse(text, path: ".vclint.yml")
        var options = LintOptions()
        c.apply(to: &options)
        _ = c.admits("logs/capture.log")
    } catch {
        let message = error.description
        if message.isEmpty || message.contains("\n") { fuzzFail("a configuration error is not one line: \(message.debugDescription)") }
    }
    return 0
}
