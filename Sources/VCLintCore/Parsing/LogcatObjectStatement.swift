/// The statements of an Android app's objects and composables (docs/lifecycle.md#android-objects-and-composables),
/// read after `LogcatStatement.statement` found no Activity or Fragment callback in a message:
///
/// - a constructor (`MainViewModel init`, `INIT`, `<init>`, `onCreated()`, `MainActivity()`): an object's `init` (a
///   ViewModel's), or the first line of an Activity or Fragment instance. Not `created`, a word too common to look
///   for, nor `MainFragment()`, whose literal costs the candidate search too much (a Fragment's `init` is read);
/// - `onCleared` (a ViewModel's end of use) and `finalize` (the garbage collector released the object);
/// - a named Compose effect: `HomeScreen DisposableEffect` or `LaunchedEffect` (started) is the composable's
///   `onAppear`, `HomeScreen onDispose` its `onDisappear`.
///
/// The shape is the callback statement's: `[decoration] [label [id]] [separator] word [(…)] [called | : argument]`,
/// or `Label.word()`; without a label the tag names the class. Read from bytes: a message that is none of these
/// costs no allocation.
enum LogcatObjectStatement {
    /// A statement's word: its event, and whether it is a Compose effect's.
    struct Word: Sendable {
        var kind: EventKind
        var effect = false
    }

    /// The words, looked up by bytes. An effect may be followed by `start`, `started`, `launched` or `entered`.
    static let words = ByteKeyTable([
        "init": Word(kind: .initialize), "INIT": Word(kind: .initialize), "onCreated": Word(kind: .initialize),
        "onCleared": Word(kind: .onCleared), "finalize": Word(kind: .finalize),
        "DisposableEffect": Word(kind: .onAppear, effect: true), "LaunchedEffect": Word(kind: .onAppear, effect: true),
        "onDispose": Word(kind: .onDisappear, effect: true),
    ])

    /// What may follow an effect's name.
    static let effectTails = ByteKeyTable(["start": true, "started": true, "launched": true, "entered": true, "enter": true])

    /// The statement of one message (`tag`: the line's tag by its simple name, when the format has one), or nil.
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?) -> Event? {
        var names = NameCache()
        return read(m, tag: tag, names: &names)
    }

    /// `read`, the class name made through `names` (`LogcatStatement.read(_:tag:names:)`).
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?, names: inout NameCache) -> Event? {
        let n = m.count
        var i = 0
        while i < n, !LogcatStatement.isIdentifierStart(m[i]) { i += 1 }
        guard let first = LogcatStatement.identifier(m, &i) else { return nil }
        var labelRange: Range<Int>?
        var word: Word?
        var address: UInt64?
        if i + 1 < n, m[i] == .openParen, m[i + 1] == .closeParen, isConstructor(UnsafeBufferPointer(rebasing: m[first])) {
            // `MainActivity()`, `com.example.MainViewModel()`: a constructor printed as its call.
            i += 2
            word = Word(kind: .initialize)
            labelRange = first
        } else if let w = Self.word(m, first) {
            word = w
        } else if let dot = LogcatStatement.lastIndex(UnsafeBufferPointer(rebasing: m[first]), of: .dot).map({ first.lowerBound + $0 }),
                  let w = Self.word(m, dot + 1..<first.upperBound) {
            // `MainViewModel.onCleared()`, `com.example.MainViewModel.init`.
            word = w
            labelRange = first.lowerBound..<dot
        } else {
            labelRange = first
            address = LogcatStatement.instanceID(m, &i)
            let before = i
            while i < n, m[i] == .space || m[i] == .colon || m[i] == .hyphen || m[i] == .greater || m[i] == .hash || m[i] == .pipe
                || m[i] == .dot || m[i] == UInt8(ascii: "<") || m[i] >= 0x80 { i += 1 }
            guard i > before || address != nil, let second = LogcatStatement.identifier(m, &i), let w = Self.word(m, second) else { return nil }
            word = w
        }
        guard let word else { return nil }
        if word.effect { skipEffectTail(m, &i) }
        guard LogcatStatement.isStatementEnd(m, i) else { return nil }
        let nameBytes: UnsafeBufferPointer<UInt8>
        if let r = labelRange {
            nameBytes = LogcatStatement.simpleName(UnsafeBufferPointer(rebasing: m[r]))
        } else {
            // The tag names the class when it is a name (not a logger's own tag).
            guard let tag, let first = tag.first, (first | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || first >= 0x80 else { return nil }
            nameBytes = tag
        }
        // A composable is named in PascalCase: `onDispose` after a lowercase word is a sentence.
        if word.effect, nameBytes.first.map({ $0 &- UInt8(ascii: "A") >= 26 }) ?? true { return nil }
        guard !nameBytes.isEmpty, LogcatStatement.loggerTagBytes.value(nameBytes) == nil else { return nil }
        let name = names.string(nameBytes)
        // A tag in another script names a class only if it begins with a letter, as `Character.isLetter` says.
        if labelRange == nil, nameBytes[0] >= 0x80, name.first?.isLetter != true { return nil }
        var e = Event(kind: word.kind, className: name, dialect: .logcat)
        e.address = address
        return e
    }

    // MARK: - Bytes

    /// An Activity's or ViewModel's name (the candidate search finds `Activity()` and `ViewModel()`, not `Fragment()`).
    private static func isConstructor(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        (name.count > 8 && LogcatStatement.endsWith(name, "Activity")) || (name.count > 9 && LogcatStatement.endsWith(name, "ViewModel"))
    }

    @inline(__always) private static func word(_ m: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Word? {
        words.value(UnsafeBufferPointer(rebasing: m[r]))
    }

    /// ` start`, `: started`, `(Unit) launched`: the effect's own words after its name (the key in parentheses first).
    private static func skipEffectTail(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        var k = i
        LogcatStatement.skipParenthesised(m, &k)
        while k < m.count, m[k] == .space || m[k] == .colon || m[k] == .hyphen { k += 1 }
        guard let r = LogcatStatement.identifier(m, &k), effectTails.contains(UnsafeBufferPointer(rebasing: m[r])) else { return }
        i = k
    }
}
