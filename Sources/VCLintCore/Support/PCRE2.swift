import CPCRE2

/// A compiled PCRE2 pattern over raw bytes (no UTF mode: logs may hold invalid UTF-8).
/// Immutable after init, so it can be shared; each thread makes its own `PCRE2Matcher`.
public final class PCRE2Pattern: @unchecked Sendable {
    public struct CompileError: Error, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { "\(message) at offset \(offset)" }
    }

    let code: OpaquePointer
    public let source: String
    public let isJIT: Bool
    /// Match and depth limits (nil = PCRE2's defaults); used for user-supplied patterns. A search's
    /// match limit is `matchLimit` plus `matchLimitPerByte` for each byte it searches: a sane
    /// pattern's work grows with the line, a backtracking one's explodes, so the limit follows the
    /// line and the work on a hostile line stays linear in its length.
    let matchLimit: UInt32?
    let matchLimitPerByte: UInt32
    let depthLimit: UInt32?

    /// `charge`, when given, is told the size of the compiled code (`PCRE2_INFO_SIZE`) before the
    /// pattern is JIT-compiled, and the size of the machine code (`PCRE2_INFO_JITSIZE`) after; an
    /// error it throws ends the compilation (a configuration's budget, `PatternCache`).
    public init(_ pattern: String, caseless: Bool = false, matchLimit: UInt32? = nil, matchLimitPerByte: UInt32 = 0,
                depthLimit: UInt32? = nil, charge: ((Int) throws -> Void)? = nil) throws {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        var options: UInt32 = UInt32(PCRE2_DOTALL)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        let bytes = Array(pattern.utf8)
        let compiled = bytes.withUnsafeBufferPointer { buf in
            pcre2_compile_8(buf.baseAddress, buf.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else {
            var message = [UInt8](repeating: 0, count: 256)
            let n = message.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(errorCode, $0.baseAddress, 256) }
            let text = n > 0 ? String(decoding: message[0..<Int(n)], as: UTF8.self) : "error \(errorCode)"
            throw CompileError(message: text, offset: errorOffset)
        }
        if let charge {
            do { try charge(Self.info(compiled, PCRE2_INFO_SIZE)) } catch { pcre2_code_free_8(compiled); throw error }
        }
        let jit = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE)) == 0
        if let charge, jit {
            do { try charge(Self.info(compiled, PCRE2_INFO_JITSIZE)) } catch { pcre2_code_free_8(compiled); throw error }
        }
        self.code = compiled
        self.source = pattern
        self.matchLimit = matchLimit
        self.matchLimitPerByte = matchLimit == nil ? 0 : matchLimitPerByte
        self.depthLimit = depthLimit
        self.isJIT = jit
    }

    /// A size the pattern reports about itself (`PCRE2_INFO_SIZE`, `PCRE2_INFO_JITSIZE`), in bytes.
    private static func info(_ code: OpaquePointer, _ what: Int32) -> Int {
        var size = 0
        return pcre2_pattern_info_8(code, UInt32(what), &size) == 0 ? size : 0
    }

    /// The bytes the compiled pattern holds: its code, and its machine code when it was JIT-compiled.
    public var compiledSize: Int {
        Self.info(code, PCRE2_INFO_SIZE) + (isJIT ? Self.info(code, PCRE2_INFO_JITSIZE) : 0)
    }

    deinit { pcre2_code_free_8(code) }

    /// The number of a named group, or nil when the pattern has no such group.
    public func groupNumber(_ name: String) -> Int? {
        let n = name.withCString { ptr in
            ptr.withMemoryRebound(to: UInt8.self, capacity: name.utf8.count + 1) {
                pcre2_substring_number_from_name_8(code, $0)
            }
        }
        return n > 0 ? Int(n) : nil
    }

    public func makeMatcher() -> PCRE2Matcher { PCRE2Matcher(pattern: self) }
}

/// The limits a user's pattern (a custom dialect's, `ignore_classes`, `persistent_classes`) runs
/// under: a search may take 1,000 steps of PCRE2's match limit plus 8 a byte of the text searched,
/// and recurse 1,000 deep (the interpreter's depth; the JIT has its stack). A sane pattern needs a
/// few steps, or about 2 a byte when it scans the line lazily (`^.*?(?<class>\w+) shown$`: 1.9 a
/// byte with the JIT, 3.7 without), so it matches a line of any length; one that backtracks
/// exponentially (`^(a|aa)+$`) gives up after about 1,400 steps on a 50-byte line, some 50 µs,
/// instead of the 1–2.5 ms that 100,000–200,000 steps cost. Hits are counted and reported.
public enum UserPatternLimits {
    public static let match: UInt32 = 1_000
    public static let matchPerByte: UInt32 = 8
    public static let depth: UInt32 = 1_000
}

/// Matching state for one thread: owns the match data (ovector).
public final class PCRE2Matcher {
    public enum Outcome { case match, noMatch, limitExceeded }

    public let pattern: PCRE2Pattern
    private let matchData: OpaquePointer
    private let context: OpaquePointer?
    @exclusivity(unchecked) private var ovector: UnsafeMutablePointer<Int>

    init(pattern: PCRE2Pattern) {
        self.pattern = pattern
        self.matchData = pcre2_match_data_create_from_pattern_8(pattern.code, nil)
        self.ovector = pcre2_get_ovector_pointer_8(matchData)
        if pattern.matchLimit != nil || pattern.depthLimit != nil, let ctx = pcre2_match_context_create_8(nil) {
            if let m = pattern.matchLimit { pcre2_set_match_limit_8(ctx, m) }
            if let d = pattern.depthLimit { pcre2_set_depth_limit_8(ctx, d) }
            self.context = ctx
        } else {
            self.context = nil
        }
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        if let context { pcre2_match_context_free_8(context) }
    }

    /// Searches `base[start..<length]`. On `.match`, `range(_:)` gives the groups.
    @inline(__always)
    public func search(_ base: UnsafePointer<UInt8>, length: Int, from start: Int = 0) -> Outcome {
        if pattern.matchLimitPerByte > 0, let context, let m = pattern.matchLimit {
            let perByte = UInt64(pattern.matchLimitPerByte) * UInt64(max(length - start, 0))
            pcre2_set_match_limit_8(context, UInt32(min(UInt64(m) + perByte, UInt64(UInt32.max))))
        }
        let rc: Int32
        if pattern.isJIT {
            rc = pcre2_jit_match_8(pattern.code, base, length, start, 0, matchData, context)
        } else {
            rc = pcre2_match_8(pattern.code, base, length, start, 0, matchData, context)
        }
        if rc >= 0 { return .match }
        if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT {
            return .limitExceeded
        }
        return .noMatch
    }

    /// Convenience: does the pattern match anywhere in `bytes`?
    public func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else {
            var empty: UInt8 = 0
            return search(&empty, length: 0) == .match
        }
        return search(base, length: bytes.count) == .match
    }

    /// The byte range of group `n` in the last match, nil if the group did not participate.
    @inline(__always)
    public func range(_ n: Int) -> Range<Int>? {
        let lo = ovector[2 * n], hi = ovector[2 * n + 1]
        if lo < 0 || hi < lo { return nil }  // PCRE2_UNSET reads as -1
        return lo..<hi
    }
}
