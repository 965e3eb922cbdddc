/// Whether a printed value after the callback names the controller (docs/lifecycle.md#labels):
/// `viewWillAppear: 2 UIDeviceRGBColorSpace 1 0.5 0 1` prints page 2's number and colour with every
/// callback of page 2. A value that stays the same across several callbacks while other values appear is a
/// label; one that changes with every line (a frame, a count) is an argument, and the lines are
/// `(unnamed)`'s. The capture decides, shape by shape; until it has, the lines after the first such one
/// wait (at most `limit` of them), so that the timeline still sees every event in order.
///
/// A title of several words (`Home Screen | viewDidLoad`) is learnt the same way: it is a label once
/// the capture shows it, in the same shape, with two different callbacks; until then its lines wait,
/// and the lines that still wait when the capture ends (or when `limit` lines wait) were sentences:
/// they go on as unread mentions. What is kept per title is one word of callbacks, for at most
/// `titleLimit` titles (past that, a new title is a sentence).
final class LabelLearner {
    enum Held {
        case line(ParsedLine)
        case sample(String, Int?, LogTime?)
    }

    private struct Shape {
        /// The callbacks seen with each value (at most `valueLimit` values are followed).
        var values: [String: UInt64] = [:]
        var lines = 0
        var decision: Bool?  // true: the value is a label
    }

    static let limit = 4096
    private static let valueLimit = 256
    /// Shapes followed at most: a capture has a few; past this, a new shape's values are arguments.
    private static let shapeLimit = 1024
    @exclusivity(unchecked) private var shapes: [UInt64: Shape] = [:]
    @exclusivity(unchecked) private var held: [Held] = []
    @exclusivity(unchecked) private var next = 0
    /// The callbacks seen with each title (by `ParsedLine.title`), and with each title's name in any
    /// frame (by `titleName`), which a completion marker named by the title waits for.
    @exclusivity(unchecked) private var titles: [UInt64: UInt64] = [:]
    @exclusivity(unchecked) private var titleNames: [UInt64: UInt64] = [:]
    static let titleLimit = 4096
    /// Held lines before this index whose title is still unconfirmed are sentences (`decideAll`).
    @exclusivity(unchecked) private var flushed = 0

    /// Whether lines are being held back.
    var waiting: Bool { next < held.count }

    func hold(_ h: Held) {
        if case .line(let parsed) = h {
            if parsed.value != nil { learn(parsed) }
            if parsed.title != 0 { learnTitle(parsed) }
        }
        held.append(h)
        if held.count - next >= Self.limit { decideAll() }
    }

    /// The next line that may go on, with its label settled.
    func release() -> Held? {
        guard next < held.count else {
            held.removeAll(keepingCapacity: true)
            next = 0
            flushed = 0
            return nil
        }
        guard case .line(var parsed) = held[next] else {
            next += 1
            return held[next - 1]
        }
        if parsed.title != 0 {
            if !isLabel(title: parsed.title) {
                guard next < flushed else { return nil }
                parsed.kind = .unread
            }
            parsed.title = 0
        }
        if let v = parsed.value {
            guard let decision = shapes[parsed.shape]?.decision else { return nil }
            if decision { parsed.event.className = v }
            parsed.value = nil
        }
        next += 1
        return .line(parsed)
    }

    /// Whether the capture showed the title with two different callbacks (a marker's title: in any frame).
    func isLabel(title: UInt64) -> Bool {
        ((Self.isMarker(title) ? titleNames[title] : titles[title]) ?? 0).nonzeroBitCount >= 2
    }

    /// A completion marker's title (`Home Screen dismiss end`, `MessageParser.Note.title`): it waits for
    /// the capture's callbacks to confirm the title, and confirms nothing itself.
    @inline(__always) private static func isMarker(_ title: UInt64) -> Bool { title & 2 != 0 }

    /// The key of a title's name alone, as a marker's (`MessageParser.Note.title`).
    static func titleName(_ name: String) -> UInt64 { Words.key(name) | 3 }

    private func learnTitle(_ parsed: ParsedLine) {
        guard !Self.isMarker(parsed.title) else { return }
        Self.add(parsed.event.kind.bit, parsed.title, to: &titles)
        Self.add(parsed.event.kind.bit, Self.titleName(parsed.event.className), to: &titleNames)
    }

    /// The callback's bit to a title's, while at most `titleLimit` titles are followed.
    private static func add(_ bit: UInt64, _ key: UInt64, to map: inout [UInt64: UInt64]) {
        if let seen = map[key] {
            map[key] = seen | bit
        } else if map.count < titleLimit {
            map[key] = bit
        }
    }

    private func learn(_ parsed: ParsedLine) {
        guard let v = parsed.value else { return }
        if shapes[parsed.shape] == nil, shapes.count >= Self.shapeLimit {
            var decided = Shape()
            decided.decision = false
            shapes[parsed.shape] = decided
            return
        }
        var shape = shapes[parsed.shape] ?? Shape()
        shape.lines += 1
        if shape.decision == nil {
            if shape.values[v] != nil || shape.values.count < Self.valueLimit { shape.values[v, default: 0] |= parsed.event.kind.bit }
            let repeated = shape.values.values.contains { $0.nonzeroBitCount >= 2 }
            if repeated, shape.values.count >= 2 {
                shape.decision = true
            } else if !repeated, shape.lines >= 8 {
                shape.decision = false
            }
            if shape.decision != nil { shape.values = [:] }
        }
        shapes[parsed.shape] = shape
    }

    /// Decides every open shape on what the capture has shown so far.
    func decideAll() {
        flushed = held.count
        for (key, var shape) in shapes where shape.decision == nil {
            shape.decision = shape.values.values.contains { $0.nonzeroBitCount >= 2 }
            shape.values = [:]
            shapes[key] = shape
        }
    }
}
