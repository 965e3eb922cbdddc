#if canImport(Glibc)
import Glibc
#endif

/// What one pass over a message gives the parser: its shape's key (`ShapeRoutes`), the slot its exact bytes take in a
/// `StatementCache`, and whether it holds a byte ≥ 0x80 (`MessageParser.asciiSpaced`). Read eight bytes at a time, once:
/// the three used to be three passes over the message, the shape's the dearest (two multiplications a word).
struct MessageKeys {
    /// The shape's key (its two lowest bits clear, never 0), or 0 for a message too long to be cached.
    let shape: UInt64
    /// The message's slot in a `StatementCache` (a hash of its exact bytes), or -1 for a message too long to be cached.
    let slot: Int
    /// Whether a byte ≥ 0x80 is in the message.
    let high: Bool

    @inline(__always)
    init(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard n <= 256 else {
            (shape, slot, high) = (0, -1, MessageParser.hasHighBytes(p, n))
            return
        }
        // The folded bytes (a run of digits as one `#`) are gathered eight to a word and mixed one word at a time; a
        // word of the message without a digit (most of them) goes in whole. The exact bytes are mixed word by word too.
        var exact: UInt64 = 0x9E3779B97F4A7C15 ^ UInt64(n)
        var any: UInt64 = 0
        let raw = UnsafeRawPointer(p)
        var i = 0
        // The words before the first one with a digit, while nothing is gathered: each goes into the shape's hash whole
        // (`Folded.word` with nothing gathered), in a loop that keeps only the three hashes (most messages of a capture
        // have no digit in their first words, many none at all).
        var h = Folded.seed
        while i &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if Self.hasDigit(w) { break }
            exact = (exact ^ w) &* 0xFF51AFD7ED558CCD
            any |= w
            h = Folded.mixed(h, w)
            i &+= 8
        }
        var f = Folded(h: h)
        while i &+ 8 <= n {
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            exact = (exact ^ w) &* 0xFF51AFD7ED558CCD
            any |= w
            if !Self.hasDigit(w) {
                f.word(w)
            } else {
                for k in i..<(i &+ 8) { f.byte(p[k]) }
            }
            i &+= 8
        }
        // The last bytes (zeros above them): in one go when they hold no digit (read as the end of the message's last
        // eight bytes, which the folding gathers as it would gather them one by one).
        let left = n &- i
        if left > 0 {
            let w: UInt64
            if n >= 8 {
                w = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) &>> UInt64(8 &* (8 &- left))
            } else {
                var v: UInt64 = 0
                for k in 0..<left { v |= UInt64(p[k]) &<< UInt64(8 &* k) }
                w = v
            }
            exact = (exact ^ w) &* 0xFF51AFD7ED558CCD
            any |= w
            if !Self.hasDigit(w) {
                f.bytes(w, left)
            } else {
                while i < n { f.byte(p[i]); i &+= 1 }
            }
        }
        shape = (f.finish() & ~3) | 1 << 63
        slot = Int(truncatingIfNeeded: (exact ^ exact &>> 29) & UInt64(StatementCache.slotCount - 1))
        high = any & 0x8080_8080_8080_8080 != 0
    }

    /// Whether any byte of `w` is an ASCII digit: a digit's byte xor `0` is below 10, and the classic "has less" bit
    /// trick tells whether any byte is (exactly: a byte's borrow reaches the next only from a byte that is below 10).
    @inline(__always)
    static func hasDigit(_ w: UInt64) -> Bool {
        let x = w ^ 0x3030_3030_3030_3030
        return (x &- 0x0A0A_0A0A_0A0A_0A0A) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// The folded byte stream's hash: bytes gathered little-endian into `acc` (`count` of them). A word costs one
    /// multiplication and a shift, with which of its bytes are folded digit runs (`folds`: a literal `#` is not one);
    /// the end mixes the whole state again (the routes' slot is picked by low bits).
    private struct Folded {
        static var seed: UInt64 { 0xcbf29ce484222325 }
        var h: UInt64 = Folded.seed
        var acc: UInt64 = 0
        var folds: UInt64 = 0
        var count = 0
        var inDigits = false

        init(h: UInt64) { self.h = h }

        /// The hash after a word with no folded byte in it.
        @inline(__always) static func mixed(_ h: UInt64, _ w: UInt64) -> UInt64 {
            let x = (h ^ w) &* 0xFF51AFD7ED558CCD
            return x ^ x &>> 29
        }

        @inline(__always) mutating func mixWord(_ w: UInt64) {
            h = Self.mixed(h, w) ^ folds
            folds = 0
        }

        /// Eight bytes without a digit.
        @inline(__always) mutating func word(_ w: UInt64) {
            inDigits = false
            if count == 0 { mixWord(w); return }
            let shift = UInt64(truncatingIfNeeded: 8 &* count)
            mixWord(acc | w &<< shift)
            acc = w &>> (64 &- shift)
        }

        /// The `k` (1…7) low bytes of `w`, none a digit: what `byte` would make of them one by one.
        @inline(__always) mutating func bytes(_ w: UInt64, _ k: Int) {
            inDigits = false
            let shift = UInt64(truncatingIfNeeded: 8 &* count)
            if count &+ k < 8 {
                acc |= w &<< shift
                count &+= k
                return
            }
            mixWord(acc | w &<< shift)
            // (`count` is at least 1 here, so the shift is below 64.)
            acc = w &>> (64 &- shift)
            count = count &+ k &- 8
        }

        @inline(__always) mutating func byte(_ b: UInt8) {
            var b = b
            if b &- UInt8(ascii: "0") < 10 {
                if inDigits { return }
                inDigits = true
                b = UInt8.hash
                folds |= 1 &<< UInt64(count)
            } else {
                inDigits = false
            }
            acc |= UInt64(b) &<< UInt64(truncatingIfNeeded: 8 &* count)
            count &+= 1
            if count == 8 {
                mixWord(acc)
                acc = 0
                count = 0
            }
        }

        @inline(__always) mutating func finish() -> UInt64 {
            mixWord(acc ^ UInt64(count) &<< 59)
            var x = (h ^ h &>> 33) &* 0xFF51AFD7ED558CCD
            x = (x ^ x &>> 33) &* 0xC4CEB9FE1A85EC53
            return x ^ x &>> 33
        }
    }
}

/// What the shapes of recent messages turned out to be: noise (and whether it mentioned a
/// callback), or a statement that only the free-form reader reads. A direct-mapped table keyed by
/// a hash of the message with its runs of digits as one `#` (`MessageKeys.shape`: a count, a timing, an id or a page
/// number does not change what a message is). Messages of up to 256 bytes only: no grammar limit
/// (a tag of 60 bytes, a bracket searched over 300) can then depend on how many digits a run has.
/// Not used with the user's dialects, whose patterns may tell digits apart.
struct ShapeRoutes {
    enum Route: UInt64 { case noise = 1, mention = 2, freeForm = 3 }

    /// Per slot: the shape's key, its two lowest bits the route.
    private var slots = [UInt64](repeating: 0, count: 4096)

    /// The shape's key (its two lowest bits clear, never 0), or 0 for a message too long to be cached.
    static func key(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 { MessageKeys(p, n).shape }

    @inline(__always)
    func lookup(_ key: UInt64) -> Route? {
        let v = slots[Int(truncatingIfNeeded: key >> 2) & 4095]
        guard v & ~3 == key else { return nil }
        return Route(rawValue: v & 3)
    }

    mutating func insert(_ key: UInt64, _ route: Route) {
        slots[Int(truncatingIfNeeded: key >> 2) & 4095] = key | route.rawValue
    }
}

/// Recent free-form statements by their exact bytes: an app repeats each of its statements
/// (one per controller and callback) all through a capture. Direct-mapped, by the slot `MessageKeys` gives; a hit is
/// verified byte for byte, so it gives exactly what reading the message again would.
///
/// 4,096 slots: a dialect's working set is a few hundred statements (every class's callbacks, its objects' inits and
/// deinits), which 512 slots held with one in four colliding. The slots hold 16-bit numbers of entries, not the entries:
/// a table of references is destroyed one element at a time when its parser goes (about 0.3 M instructions for every
/// input at 4,096 slots), numbers are not, and the entries are only those a capture made.
struct StatementCache {
    static let slotCount = 4096
    /// (A class: a hit reads the fields it needs through one reference, where a struct was copied out whole, its
    /// bytes and strings retained and released.)
    /// (Rewritten in place when its slot takes another message: a capture whose statements carry addresses, each
    /// seen about once, replaces entries all through it, and a new entry and byte array for each cost an allocation,
    /// a copy and the old one's release.)
    private final class Entry {
        @exclusivity(unchecked) var bytes: [UInt8]
        @exclusivity(unchecked) var event: Event
        @exclusivity(unchecked) var phase: FreeFormStatement.Phase
        @exclusivity(unchecked) var value: String?
        @exclusivity(unchecked) var shape: UInt64
        @exclusivity(unchecked) var template: String?
        @exclusivity(unchecked) var title: UInt64
        @exclusivity(unchecked) var redacted: Bool

        init(_ p: UnsafePointer<UInt8>, _ n: Int, _ event: Event, _ note: MessageParser.Note) {
            bytes = Array(UnsafeBufferPointer(start: p, count: n))
            self.event = event
            (phase, value, shape, template, title, redacted) = (note.phase, note.value, note.shape, note.template, note.title, note.redacted)
        }

        func rewrite(_ p: UnsafePointer<UInt8>, _ n: Int, _ event: Event, _ note: MessageParser.Note) {
            bytes.replaceSubrange(bytes.indices, with: UnsafeBufferPointer(start: p, count: n))
            self.event = event
            phase = note.phase
            if value != nil || note.value != nil { value = note.value }
            shape = note.shape
            if template != nil || note.template != nil { template = note.template }
            title = note.title
            redacted = note.redacted
        }
    }
    /// The slot of a message not read through `MessageKeys` (the described statements' bytes without their address:
    /// `MessageParser.withoutAddress`): its bytes mixed a word at a time.
    static func slot(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var h: UInt64 = 0x9E3779B97F4A7C15 ^ UInt64(n)
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i &+ 8 <= n {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51AFD7ED558CCD
            i &+= 8
        }
        var w: UInt64 = 0
        var k: UInt64 = 0
        while i < n { w |= UInt64(p[i]) &<< k; k &+= 8; i &+= 1 }
        h = (h ^ w) &* 0xFF51AFD7ED558CCD
        return Int(truncatingIfNeeded: (h ^ h &>> 29) & UInt64(slotCount - 1))
    }

    /// Per slot, its entry's index in `entries` plus one (0: empty).
    private var slots = [UInt16](repeating: 0, count: StatementCache.slotCount)
    private var entries: [Entry] = []

    /// The entry of `slot` (the message's `MessageKeys.slot`) when it holds exactly these bytes: a number `read` takes.
    func lookup(_ slot: Int, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        guard slot >= 0 else { return nil }
        let k = Int(slots[slot])
        guard k != 0 else { return nil }
        let e = entries[k &- 1]
        guard e.bytes.count == n, e.bytes.withUnsafeBufferPointer({ bytesEqual($0.baseAddress!, p, n) }) else { return nil }
        return k &- 1
    }

    /// The entry's event (`lookup`'s number), and what the parser noted with it.
    @inline(__always)
    func read(_ k: Int, into note: inout MessageParser.Note) -> Event {
        let e = entries[k]
        // (Most entries have no value and no template, and the note has none either: nothing to retain or release.)
        note.phase = e.phase
        if e.value != nil || note.value != nil { note.value = e.value }
        note.shape = e.shape
        if e.template != nil || note.template != nil { note.template = e.template }
        note.title = e.title
        note.redacted = e.redacted
        return e.event
    }

    /// Keeps the message (`slot`: its `MessageKeys.slot`) and what it was read as, in place of what the slot held.
    mutating func insert(_ slot: Int, _ p: UnsafePointer<UInt8>, _ n: Int, _ event: Event, _ note: MessageParser.Note) {
        guard slot >= 0 else { return }
        let k = Int(slots[slot])
        if k != 0 {
            entries[k &- 1].rewrite(p, n, event, note)
        } else {
            entries.append(Entry(p, n, event, note))
            slots[slot] = UInt16(truncatingIfNeeded: entries.count)
        }
    }
}

/// The logcat messages that recently said nothing (noise, a sentence that mentions a callback, a stack frame), by
/// their exact bytes and their tag's: a busy app's log repeats its own lines (`screen_view sent for DetailActivity
/// after onResume`) and the system's (`START u0 {cmp=…}`) all through a capture, and each one let through by the
/// candidate search cost a logcat statement's, an object statement's, the evidence readers' and the mention
/// search's work again. What a message says depends only on its bytes and its tag's (the readers are functions of
/// them), so a hit answers as reading it again would. Direct-mapped, keyed by a 64-bit hash of both: a slot answers
/// only the key it holds. Not used with the user's dialects, whose patterns count the lines they give up on.
struct LogcatNoise {
    enum Outcome: UInt64 { case noise = 1, mention = 2, frame = 3 }

    /// Per slot: the key, its two lowest bits the outcome.
    private var slots = [UInt64](repeating: 0, count: 8192)

    /// The key of a message and its tag (its two lowest bits clear, never 0); 0 for a message too long to keep.
    @inline(__always)
    static func key(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        guard let p = m.baseAddress, m.count <= 1024 else { return 0 }
        var h = mix(0x9E3779B97F4A7C15, UInt64(m.count) | UInt64(tag?.count ?? 0xFFFF) << 32)
        if let tag, let t = tag.baseAddress { h = words(t, tag.count, h) }
        h = words(p, m.count, h)
        return (h & ~3) | 1 << 63
    }

    @inline(__always)
    private static func mix(_ h: UInt64, _ w: UInt64) -> UInt64 {
        let x = (h ^ w) &* 0xFF51AFD7ED558CCD
        return (x ^ x &>> 31) &* 0xC4CEB9FE1A85EC53
    }

    /// The bytes mixed into `h` eight at a time (the last word padded with zeros; the lengths are in the key).
    @inline(__always)
    private static func words(_ p: UnsafePointer<UInt8>, _ n: Int, _ start: UInt64) -> UInt64 {
        var h = start
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i &+ 8 <= n {
            h = mix(h, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i &+= 8
        }
        if i < n {
            var w: UInt64 = 0
            var k = 0
            while i < n { w |= UInt64(p[i]) &<< UInt64(8 &* k); i &+= 1; k &+= 1 }
            h = mix(h, w)
        }
        return h
    }

    @inline(__always)
    func lookup(_ key: UInt64) -> Outcome? {
        guard key != 0 else { return nil }
        let v = slots[Int(truncatingIfNeeded: key >> 2) & 8191]
        guard v & ~3 == key else { return nil }
        return Outcome(rawValue: v & 3)
    }

    mutating func insert(_ key: UInt64, _ outcome: Outcome) {
        guard key != 0 else { return }
        slots[Int(truncatingIfNeeded: key >> 2) & 8191] = key | outcome.rawValue
    }
}

/// Strings for byte sequences that recur (class names): a small direct-mapped cache keyed by a cheap
/// hash of the bytes, so a recurring name costs a hash and a compare instead of a new String.
struct NameCache {
    private var keys = [[UInt8]](repeating: [], count: 256)
    private var values = [String](repeating: "", count: 256)

    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, bytes.count <= 64 else { return String(decoding: bytes, as: UTF8.self) }
        var h: UInt32 = 2166136261
        for b in bytes { h = (h ^ UInt32(b)) &* 16777619 }
        let slot = Int((h ^ h >> 8 ^ h >> 16) & 0xFF)
        let hit = keys[slot].count == bytes.count && keys[slot].withUnsafeBufferPointer { bytesEqual($0.baseAddress!, base, bytes.count) }
        if hit { return values[slot] }
        let s = String(decoding: bytes, as: UTF8.self)
        keys[slot] = Array(bytes)
        values[slot] = s
        return s
    }
}
