import Foundation

/// Each distinct pattern text of a configuration compiled once while it is read: an anchored
/// pattern aliased a thousand times (in `dialects`, `ignore_classes`, `persistent_classes`) is one
/// PCRE2 compilation, not a thousand. The cache lives as long as the reading of one configuration
/// (`Configuration.parse` binds it for its thread); outside one, a pattern is compiled as asked.
final class PatternCache: @unchecked Sendable {
    @TaskLocal static var current: PatternCache?

    private struct Key: Hashable {
        var source: String
        var matchLimit: UInt32?
        var depthLimit: UInt32?
    }

    private let lock = NSLock()
    private var compiled: [Key: PCRE2Pattern] = [:]
    /// How many patterns were compiled (tests: aliases cost no compilation).
    private(set) var compilations = 0

    /// The pattern compiled under these limits, from the current configuration's cache when the
    /// same text was compiled already.
    static func pattern(_ source: String, matchLimit: UInt32? = nil, depthLimit: UInt32? = nil) throws -> PCRE2Pattern {
        guard let cache = current else { return try PCRE2Pattern(source, matchLimit: matchLimit, depthLimit: depthLimit) }
        let key = Key(source: source, matchLimit: matchLimit, depthLimit: depthLimit)
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let known = cache.compiled[key] { return known }
        let p = try PCRE2Pattern(source, matchLimit: matchLimit, depthLimit: depthLimit)
        cache.compilations += 1
        cache.compiled[key] = p
        return p
    }
}
