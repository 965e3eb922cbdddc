import CYaml
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Bounds what a configuration file may cost before Yams builds anything from it. Yams expands
/// aliases while it constructs values (and hashes mapping keys, aliases included, while it composes),
/// so nine nested anchors of ten aliases each ("billion laughs") are 10⁹ nodes from 520 bytes, and
/// one 20 KB scalar aliased 16,000 times is 320 MB of text from a 100 KB file. This pass reads
/// libyaml's event stream once, in time and memory linear in the file, and computes what the
/// document would expand to, in nodes and in the bytes of its scalars: an anchor's size is known
/// when its node ends, an alias adds it.
enum YAMLBudget {
    /// A configuration file larger than this is refused unread (a real one is a few KiB).
    static let maxFileBytes = 1 << 20
    /// Nodes (scalars, sequences, mappings) after every alias is expanded.
    static let maxExpandedNodes = 100_000
    /// Bytes of text (every scalar's, keys included) after every alias is expanded: four times what
    /// the file itself may hold, room for anchors shared by a few sections.
    static let maxExpandedBytes = 4 << 20
    /// Nested sequences and mappings (Yams composes recursively).
    static let maxDepth = 64

    /// Why a document is refused, for `PATH: reason`; nil when it is within bounds or is not valid
    /// YAML (Yams then reports the syntax error with its position).
    static func violation(_ yaml: [UInt8]) -> String? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return "the YAML parser could not start" }
        defer { yaml_parser_delete(&parser) }
        return yaml.withUnsafeBufferPointer { buf -> String? in
            yaml_parser_set_input_string(&parser, buf.baseAddress, buf.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var anchors: [String: (nodes: Int, bytes: Int)] = [:]
            var scalarAnchors: Set<String> = []
            var aliases = 0
            // One frame per open collection: its anchor, the nodes in it so far (itself included), and
            // for a mapping how many keys and values it has read (even: the next node is a key).
            var open: [(anchor: String?, size: Int, bytes: Int, mapping: Bool, items: Int)] = []
            var total = 0, totalBytes = 0
            // What the open frames hold, kept as they grow (not summed over them at each event).
            var openSize = 0, openBytes = 0

            func add(_ n: Int, bytes: Int) {
                if open.isEmpty {
                    total += n
                    totalBytes += bytes
                } else {
                    open[open.count - 1].size += n
                    open[open.count - 1].bytes += bytes
                    openSize += n
                    openBytes += bytes
                }
            }
            // Yams builds a mapping's keys as strings (and traps on any other), so a key is a scalar.
            func atKey() -> Bool { open.last.map { $0.mapping && $0.items % 2 == 0 } ?? false }
            func item() { if !open.isEmpty { open[open.count - 1].items += 1 } }
            func cstring(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                p.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            }
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    let length = Int(event.data.scalar.length)
                    add(1, bytes: length)
                    item()
                    if let a = cstring(event.data.scalar.anchor) {
                        anchors[a] = (1, length)
                        scalarAnchors.insert(a)
                    }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    if atKey() { return "a mapping key is a \(event.type == YAML_SEQUENCE_START_EVENT ? "list" : "mapping"), not text (line \(event.start_mark.line + 1))" }
                    let mapping = event.type == YAML_MAPPING_START_EVENT
                    let anchor = mapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                    open.append((cstring(anchor), 1, 0, mapping, 0))
                    openSize += 1
                    if open.count > maxDepth { return "nested more than \(maxDepth) levels deep" }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let frame = open.popLast() else { return nil }
                    openSize -= frame.size
                    openBytes -= frame.bytes
                    if let a = frame.anchor {
                        anchors[a] = (frame.size, frame.bytes)
                        scalarAnchors.remove(a)
                    }
                    add(frame.size, bytes: frame.bytes)
                    item()
                case YAML_ALIAS_EVENT:
                    aliases += 1
                    // An undefined alias is Yams' error to report, with its position.
                    guard let a = cstring(event.data.alias.anchor), let size = anchors[a] else { return nil }
                    if atKey() && !scalarAnchors.contains(a) { return "a mapping key is an alias of a list or mapping, not text (line \(event.start_mark.line + 1))" }
                    add(size.nodes, bytes: size.bytes)
                    item()
                default:
                    break
                }
                // Every open frame's size is part of the total the document expands to.
                if total + openSize > maxExpandedNodes {
                    return "YAML aliases expand to more than \(maxExpandedNodes) nodes (\(aliases) alias\(aliases == 1 ? "" : "es") read so far); a configuration has no need of that many"
                }
                if totalBytes + openBytes > maxExpandedBytes {
                    return "YAML aliases expand to more than \(maxExpandedBytes >> 20) MiB of text (\(aliases) alias\(aliases == 1 ? "" : "es") read so far); a configuration has no need of that much"
                }
            }
        }
    }
}

extension Configuration {
    struct ReadFailure: Error { let reason: String }

    /// The whole file, refused unread past `limit` bytes (a configuration that is /dev/zero, or a
    /// multi-gigabyte file planted in a parent directory, costs one bounded read).
    static func readBounded(path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        let fd = PathName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { throw ReadFailure(reason: String(cString: strerror(errno)).lowercased()) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw ReadFailure(reason: "is a directory") }
            if (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) > limit {
                throw ReadFailure(reason: "the configuration is \(st.st_size) bytes, more than the \(limit >> 20) MiB a configuration may have")
            }
        }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { usleep(10_000); continue }
                throw ReadFailure(reason: String(cString: strerror(errno)).lowercased())
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
            if out.count > limit {
                throw ReadFailure(reason: "the configuration is larger than \(limit >> 20) MiB; a configuration file is a few KiB")
            }
        }
    }
}
