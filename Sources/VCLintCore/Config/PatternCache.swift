import Foundation

/// Each distinct pattern text of a configuration compiled once while it is read: an anchored
/// pattern aliased a thousand times (in `dialects`, `ignore_classes`, `persistent_classes`) is one
/// PCRE2 compilation, not a thousand. The cache lives as long as the reading of one configuration
/// (`Configuration.parse` binds it for its thread); outside one, a pattern is compiled as asked.
///
/// The cache also holds the configuration's compilation budget: what its patterns compile to,
/// PCRE2's code and the JIT's machine code together (`PCRE2Pattern.compiledSize`), counted as each
/// is compiled, at most `budget` bytes. Compiling costs about as much time per byte of output
/// whatever the pattern (a short text such as `(?:ab|cd){3000}` compiles to 51 KB), so the bytes
/// bound the time and memory a configuration may cost, and the run stops as soon as they are spent.
final class PatternCache: @unchecked Sendable {
    @TaskLocal static var current: PatternCache?

    /// 16 MiB: a real configuration's patterns compile to a few KiB (under 2 KiB a pattern, JIT
    /// included), and 16 MiB of them compile in well under 2 s (docs/configuration.md).
    static let defaultBudget = 16 << 20

    /// The budget is spent: no more patterns are compiled.
    struct OverBudget: Error, CustomStringConvertible {
        let budget: Int
        var description: String {
            "the configuration's patterns compile to more than \(budget >> 20) MiB; a configuration's patterns compile to a few KiB, so this file is refused"
        }
    }

    private struct Key: Hashable {
        var source: String
        var matchLimit: UInt32?
        var matchLimitPerByte: UInt32
        var depthLimit: UInt32?
    }

    private let lock = NSLock()
    private var compiled: [Key: PCRE2Pattern] = [:]
    /// How many patterns were compiled (tests: aliases cost no compilation).
    private(set) var compilations = 0
    /// The bytes the compiled patterns hold so far, and the most they may.
    private(set) var spent = 0
    let budget: Int

    init(budget: Int = PatternCache.defaultBudget) { self.budget = budget }

    /// The pattern compiled under these limits, from the current configuration's cache when the
    /// same text was compiled already. Throws `OverBudget` when compiling it would spend more than
    /// the configuration's budget.
    static func pattern(_ source: String, matchLimit: UInt32? = nil, matchLimitPerByte: UInt32 = 0, depthLimit: UInt32? = nil) throws -> PCRE2Pattern {
        guard let cache = current else {
            return try PCRE2Pattern(source, matchLimit: matchLimit, matchLimitPerByte: matchLimitPerByte, depthLimit: depthLimit)
        }
        let key = Key(source: source, matchLimit: matchLimit, matchLimitPerByte: matchLimitPerByte, depthLimit: depthLimit)
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let known = cache.compiled[key] { return known }
        // Charged before the JIT compiles (the costlier half) and again after.
        let p = try PCRE2Pattern(source, matchLimit: matchLimit, matchLimitPerByte: matchLimitPerByte, depthLimit: depthLimit) { bytes in
            cache.spent += bytes
            if cache.spent > cache.budget { throw OverBudget(budget: cache.budget) }
        }
        cache.compilations += 1
        cache.compiled[key] = p
        return p
    }
}
