#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UIKit's own warnings (docs/lifecycle.md#dialects), known by their wording: `Unbalanced calls to begin/end
/// appearance transitions for <X>`, `Attempt to present <X> on <Y> (from <Y>) whose view is not in
/// the window hierarchy`, `… which is already presenting <Z>`, `… while a presentation is in
/// progress`, `Attempt to dismiss from view controller <X> while a presentation or dismiss is in
/// progress`. Whatever stands before the wording must be decoration (a `[Presentation]` tag,
/// `Warning:`, an emoji); a controller may be `<Name>`, `<Module.Name: 0x…>`, generic
/// (`<UIHostingController<ModifiedContent<…>>: 0x…>`), elided (`...`), or without its brackets, as a web
/// page leaves it (`Name: 0x…`, `Name`).
enum UIKitWarningReader {
    /// A controller a warning names; `cls` nil when the console elided it.
    struct Participant {
        var cls: Range<Int>?
        var address: UInt64?
    }

    enum Warning {
        case unbalanced(Participant)
        case present(presented: Participant, presenter: Participant, busyWith: Participant?)
        case dismiss(Participant)
    }

    static func read(_ p: UnsafePointer<UInt8>, _ n: Int) -> Warning? {
        guard let attempt = find("Attempt to ", p, n) else { return unbalanced(p, n) }
        if expect("present ", p, attempt.upperBound, n) {
            let at = attempt.lowerBound..<(attempt.upperBound + 8)
            guard decorationOnly(p, 0..<at.lowerBound) else { return nil }
            var i = at.upperBound
            guard let presented = participant(p, &i, n), expect(" on ", p, &i, n), let presenter = participant(p, &i, n) else { return nil }
            if expect(" (from ", p, &i, n) {
                guard participant(p, &i, n) != nil, expect(")", p, &i, n) else { return nil }
            }
            if expect(" whose view is not in the window hierarchy", p, &i, n)
                || expect(" while a presentation is in progress", p, &i, n)
                || expect(" while a presentation or dismiss is in progress", p, &i, n) {
                return atEnd(p, i, n) ? .present(presented: presented, presenter: presenter, busyWith: nil) : nil
            }
            if expect(" which is already presenting ", p, &i, n) {
                guard let busy = participant(p, &i, n), atEnd(p, i, n) else { return nil }
                return .present(presented: presented, presenter: presenter, busyWith: busy)
            }
            // UIKit's own spelling: "which is waiting for a delayed presention of <Z> to complete".
            if expect(" which is waiting for a delayed presention of ", p, &i, n) || expect(" which is waiting for a delayed presentation of ", p, &i, n) {
                guard let busy = participant(p, &i, n), expect(" to complete", p, &i, n), atEnd(p, i, n) else { return nil }
                return .present(presented: presented, presenter: presenter, busyWith: busy)
            }
            return nil
        }
        if expect("dismiss from view controller ", p, attempt.upperBound, n) {
            guard decorationOnly(p, 0..<attempt.lowerBound) else { return nil }
            var i = attempt.upperBound + 29
            guard let x = participant(p, &i, n), expect(" while a presentation or dismiss is in progress", p, &i, n), atEnd(p, i, n) else { return nil }
            return .dismiss(x)
        }
        return unbalanced(p, n)
    }

    private static func unbalanced(_ p: UnsafePointer<UInt8>, _ n: Int) -> Warning? {
        if let at = find("Unbalanced calls to begin/end appearance transitions for ", p, n) {
            guard decorationOnly(p, 0..<at.lowerBound) else { return nil }
            var i = at.upperBound
            guard let x = participant(p, &i, n), atEnd(p, i, n) else { return nil }
            return .unbalanced(x)
        }
        return nil
    }

    /// `<…>` (brackets nested), an ellipsis, or a name without brackets.
    private static func participant(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Participant? {
        guard i < n else { return nil }
        if p[i] == .less {
            guard let close = FreeFormReader.closing(p, i, n, open: UInt8.less, close: UInt8.greater),
                  let (cls, addr) = FreeFormReader.describedObject(p, i..<(close + 1)) else { return nil }
            i = close + 1
            return Participant(cls: cls, address: addr)
        }
        if expect("...", p, &i, n) || expect("\u{2026}", p, &i, n) {
            while i < n, p[i] == .dot { i += 1 }
            return Participant(cls: nil, address: nil)
        }
        return bareParticipant(p, &i, n)
    }

    /// A name whose angle brackets a web page or a chat dropped: `NavViewController: 0x12d50b240`,
    /// `Shop.TabsViewController` (a sentence's dot after it is not part of it), `Host<Content>`.
    private static func bareParticipant(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Participant? {
        let s = i
        guard FreeFormReader.isIdentStart(p[s]) || p[s] >= 0x80 else { return nil }
        var e = s
        while e < n, FreeFormReader.isIdentByte(p[e]) || p[e] == .dot || p[e] >= 0x80 { e += 1 }
        while e > s, p[e - 1] == .dot { e -= 1 }
        var k = e
        if k < n, p[k] == .less, let c = FreeFormReader.closing(p, k, n, open: UInt8.less, close: UInt8.greater) { k = c + 1 }
        var address: UInt64? = nil
        if k < n, p[k] == .colon {
            var a = k + 1
            while a < n, p[a] == .space { a += 1 }
            var ae = a
            while ae < n, FreeFormReader.isIdentByte(p[ae]) { ae += 1 }
            if FreeFormReader.isHexNumber(p, a..<ae) {
                address = MessageParser.hexValue(UnsafeBufferPointer(start: p + a, count: ae - a))
                k = ae
            }
        }
        i = k
        return Participant(cls: s..<e, address: address)
    }

    /// Only trailing punctuation (`.`, `!`) and white space are left.
    private static func atEnd(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        var k = i
        while k < n {
            if p[k] == .dot || p[k] == .bang { k += 1; continue }
            let s = TextScalars.spaceLength(p, k, n)
            if s == 0 { return false }
            k += s
        }
        return true
    }

    /// What may stand before the wording: spaces, symbols, punctuation, bracketed tags, `Warning:`
    /// and log levels.
    private static func decorationOnly(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound {
            let b = p[i]
            if b >= 0x80 {
                let (v, k) = TextScalars.decode(p, i, r.upperBound)
                if TextScalars.classify(v) == .letter { return false }
                i += k
                continue
            }
            if b == .openBracket, let close = FreeFormReader.closing(p, i, r.upperBound, open: UInt8.openBracket, close: UInt8.closeBracket) {
                i = close + 1
                continue
            }
            if FreeFormReader.isIdentStart(b) {
                var e = i
                while e < r.upperBound, FreeFormReader.isIdentByte(p[e]) { e += 1 }
                guard Words.isLevel(p, i..<e) || Words.equalsFolded(p + i, e - i, "uikit") else { return false }
                i = e
                continue
            }
            if ByteCursor.isDigit(b) { return false }
            i += 1
        }
        return true
    }

    private static func find(_ s: StaticString, _ p: UnsafePointer<UInt8>, _ n: Int) -> Range<Int>? {
        let k = s.utf8CodeUnitCount
        guard k <= n else { return nil }
        let q = s.utf8Start
        var i = 0
        while i <= n - k {
            guard let hit = memchr(p + i, Int32(q[0]), n - k - i + 1) else { return nil }
            let j = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - p
            if memcmp(p + j, q, k) == 0 { return j..<(j + k) }
            i = j + 1
        }
        return nil
    }

    private static func expect(_ s: StaticString, _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        var k = i
        return expect(s, p, &k, n)
    }

    private static func expect(_ s: StaticString, _ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int) -> Bool {
        let k = s.utf8CodeUnitCount
        guard i + k <= n, memcmp(p + i, s.utf8Start, k) == 0 else { return false }
        i += k
        return true
    }
}
