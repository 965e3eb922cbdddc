/// A user's own message grammar (configuration `dialects`): a PCRE2 pattern with named groups
/// `class`, `event` and optionally `address`, and a map from the captured event text to an event
/// kind. Custom dialects extend the built-in ones; they run under PCRE2 match and depth limits.
public struct CustomDialect: Sendable {
    public let pattern: PCRE2Pattern
    public let events: [String: EventKind]
    let classGroup: Int
    let eventGroup: Int
    let addressGroup: Int?

    public static let matchLimit = UserPatternLimits.match
    public static let matchLimitPerByte = UserPatternLimits.matchPerByte
    public static let depthLimit = UserPatternLimits.depth

    public enum DefinitionError: Error, CustomStringConvertible {
        case pattern(String)
        case missingGroup(String)
        case unknownEvent(text: String, kind: String)
        case noEvents
        /// The configuration's patterns compile to more than its budget (`PatternCache`).
        case overBudget(String)

        public var description: String {
            switch self {
            case .pattern(let why): return "invalid pattern: \(why)"
            case .missingGroup(let g): return "the pattern has no named group (?<\(g)>…)"
            case .unknownEvent(let text, let kind):
                return "'\(text)' maps to unknown event '\(kind)' (one of: \(EventKind.allCases.filter(\.isNameable).map(\.rawValue).joined(separator: ", ")))"
            case .noEvents: return "`events` must map captured event texts to event kinds"
            case .overBudget(let why): return why
            }
        }
    }

    public init(pattern source: String, events: [String: String]) throws(DefinitionError) {
        let compiled: PCRE2Pattern
        do {
            // One compilation per distinct text while a configuration is read (`PatternCache`).
            compiled = try PatternCache.pattern(source, matchLimit: Self.matchLimit, matchLimitPerByte: Self.matchLimitPerByte,
                                                depthLimit: Self.depthLimit)
        } catch let spent as PatternCache.OverBudget {
            throw .overBudget(spent.description)
        } catch {
            throw .pattern("\(error)")
        }
        guard let c = compiled.groupNumber("class") else { throw .missingGroup("class") }
        guard let e = compiled.groupNumber("event") else { throw .missingGroup("event") }
        guard !events.isEmpty else { throw .noEvents }
        var map: [String: EventKind] = [:]
        for (text, kind) in events {
            guard let k = EventKind(rawValue: kind), k.isNameable else { throw .unknownEvent(text: text, kind: kind) }
            map[text] = k
        }
        let alternatives = map.keys.sorted().map(Self.escape).joined(separator: "|")
        do {
            candidatePattern = try PatternCache.pattern(alternatives)
        } catch let spent as PatternCache.OverBudget {
            throw .overBudget(spent.description)
        } catch {
            candidatePattern = nil
        }
        pattern = compiled
        self.events = map
        classGroup = c
        eventGroup = e
        addressGroup = compiled.groupNumber("address")
    }

    /// A literal prefilter: a message of this dialect contains one of its event texts. Compiled once
    /// with the dialect, within the configuration's budget (`PatternCache`): every input's scanner
    /// shares it (each compiled it again, twice with the vector path: 14,000 dialects cost 2 s an input).
    let candidatePattern: PCRE2Pattern?

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            if "\\^$.|?*+()[]{}".contains(ch) { out.append("\\") }
            out.append(ch)
        }
        return out
    }
}
