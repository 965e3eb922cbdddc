import Foundation

/// The text of chosen lines of a capture, numbered as the scanner numbers them (physical lines, a
/// gzip capture inflated, classic-Mac CRs read as line ends): the HTML report shows the log around
/// each finding. Reading stops after the last wanted line, and only those lines are kept, each cut
/// to `maxLength` characters, so memory follows what is shown, not the file. A capture that cannot
/// be read again (standard input, a file gone since) has no excerpt.
public enum LineExcerpts {
    public static let maxLength = 240
    /// The bytes of a wanted line read to show it: an ndjson record's message may come late in it
    /// (one line is held at a time).
    static let maxRecord = 64 * 1024

    /// A line as a reader wants to see it: an ndjson record (`log stream --style ndjson`) as its
    /// time, process and message (`2024-05-01 12:00:01.000+0000 Shop[100] -[Home viewDidLoad]`), a
    /// `log show --style json` array's `"eventMessage" : "…"` member as its message, any other line
    /// as it is.
    static func display(_ bytes: [UInt8]) -> String {
        var start = 0
        while start < bytes.count, bytes[start] == .space || bytes[start] == .tab { start += 1 }
        guard start < bytes.count else { return String(decoding: bytes, as: UTF8.self) }
        if bytes[start] == .openBrace {
            let record = bytes.withUnsafeBufferPointer { b in NDJSONLine.parse(b.baseAddress! + start, b.count - start) }
            if let record, let message = record.eventMessage {
                var head: [String] = []
                if let t = record.timestamp { head.append(String(decoding: t, as: UTF8.self)) }
                let process = record.process ?? record.processImagePath.map { Array($0.split(separator: .slash).last ?? []) }
                if let process {
                    head.append(String(decoding: process, as: UTF8.self) + (record.processID.map { "[\($0)]" } ?? ""))
                }
                return (head + [String(decoding: message, as: UTF8.self)]).joined(separator: " ")
            }
        } else if bytes[start] == .quote {
            // One member of an object laid out a member a line: read as an object of its own.
            var member = Array(bytes[start...])
            while let last = member.last, last == .space || last == .comma { member.removeLast() }
            let object = [UInt8.openBrace] + member + [UInt8.closeBrace]
            if let message = object.withUnsafeBufferPointer({ NDJSONLine.parse($0.baseAddress!, $0.count) })?.eventMessage {
                return String(decoding: message, as: UTF8.self)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func read(_ source: InputSource, lines wanted: Set<Int>) -> [Int: String] {
        guard case .file(let path) = source, let last = wanted.max() else { return [:] }
        let fd = PathName.withCString(path) { LibC.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return [:] }
        defer { close(fd) }
        var collector = Collector(wanted: wanted, last: last)
        // Up to the size the file has now, as the run read it: a gzip capture that grows ends too.
        var limit = ReadLimit(fd: fd)
        var head = [UInt8](repeating: 0, count: 2)
        var got = 0
        while got < 2 {
            let n = head.withUnsafeMutableBytes { limit.read(fd, $0.baseAddress! + got, 2 - got) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        head.removeLast(2 - got)
        var ends = LineEndTranslator()
        // A JSON array's excerpts are its own lines (the findings' line numbers are the file's).
        ends.readsJSON = false
        if head.withUnsafeBytes({ Inflater.isGzip($0) }) {
            let inflater = Inflater(fd: fd, prefix: head, limit: limit)
            try? inflater.run { chunk in
                if !collector.done { ends.pass(chunk) { collector.take($0) } }
            }
        } else {
            head.withUnsafeBytes { ends.pass($0) { collector.take($0) } }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while !collector.done {
                let n = buffer.withUnsafeMutableBytes { limit.read(fd, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                buffer.withUnsafeBytes { raw in ends.pass(UnsafeRawBufferPointer(rebasing: raw[..<n])) { collector.take($0) } }
            }
        }
        if !collector.done { ends.finish { collector.take($0) } }
        collector.endOfInput()
        return collector.found
    }

    struct Collector {
        let wanted: Set<Int>
        let last: Int
        var line = 1
        var current: [UInt8] = []
        var found: [Int: String] = [:]
        var done = false

        mutating func take(_ bytes: UnsafeRawBufferPointer) {
            for b in bytes {
                if done { return }
                if b == .newline {
                    endLine()
                } else if wanted.contains(line), current.count < LineExcerpts.maxRecord {
                    current.append(b)
                }
            }
        }

        mutating func endLine() {
            if wanted.contains(line) {
                if current.last == .carriageReturn { current.removeLast() }
                var text = LineExcerpts.display(current)
                if text.count > LineExcerpts.maxLength { text = String(text.prefix(LineExcerpts.maxLength)) + "…" }
                found[line] = text
            }
            current.removeAll(keepingCapacity: true)
            line += 1
            if line > last { done = true }
        }

        mutating func endOfInput() {
            if !done, !current.isEmpty { endLine() }
        }
    }
}
