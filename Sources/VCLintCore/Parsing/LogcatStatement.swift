import Foundation
import CPCRE2

/// The statements of a logcat line's message (docs/lifecycle.md#android-statements): an Activity's or Fragment's
/// callback in the spellings apps print (`onCreate`, `onStart() called`, `onCreate(Bundle) called`,
/// `onCreate: savedInstanceState = null`, `MainActivity ⇀ onStart`, `ON_RESUME`), the event log's
/// `am_on_*_called`/`wm_on_*_called`, FragmentManager's `moveto`/`movefrom` lines and androidx's view-misuse
/// exception. Anything else (stack frames, object descriptions, sentences around a callback name, callbacks
/// this version does not follow) is noise.
enum LogcatStatement {
    /// The callbacks by name.
    static let callbacks: [String: EventKind] = [
        "onCreate": .onCreate, "onRestart": .onRestart, "onStart": .onStart, "onRestoreInstanceState": .onRestoreInstanceState,
        "onPostCreate": .onPostCreate, "onResume": .onResume, "onPostResume": .onPostResume, "onPause": .onPause,
        "onSaveInstanceState": .onSaveInstanceState, "onStop": .onStop, "onDestroy": .onDestroy, "onNewIntent": .onNewIntent,
        "onConfigurationChanged": .onConfigurationChanged, "onAttach": .onAttach, "onCreateView": .onCreateView,
        "onViewCreated": .onViewCreated, "onActivityCreated": .onActivityCreated, "onViewStateRestored": .onViewStateRestored,
        "onDestroyView": .onDestroyView, "onDetach": .onDetach,
        // Jetpack's `Lifecycle.Event` names, as `LifecycleEventObserver`s print them.
        "ON_CREATE": .onCreate, "ON_START": .onStart, "ON_RESUME": .onResume, "ON_PAUSE": .onPause, "ON_STOP": .onStop,
        "ON_DESTROY": .onDestroy,
    ]

    /// The event log's `am_on_X_called`/`wm_on_X_called` by X (`paused`, sic); `top_resumed` and
    /// `activity_result` are noise.
    static let eventLogCallbacks: [String: EventKind] = [
        "create": .onCreate, "start": .onStart, "restart": .onRestart, "resume": .onResume, "paused": .onPause,
        "stop": .onStop, "destroy": .onDestroy,
    ]

    /// FragmentManager's debug lines: `moveto STATE:` and `movefrom STATE:`.
    static let moveTo: [String: EventKind] = [
        "ATTACHED": .onAttach, "CREATED": .onCreate, "CREATE_VIEW": .onCreateView, "RESTORE_VIEW_STATE": .onViewStateRestored,
        "STARTED": .onStart, "RESUMED": .onResume,
    ]
    static let moveFrom: [String: EventKind] = [
        "RESUMED": .onPause, "STARTED": .onStop, "CREATE_VIEW": .onDestroyView, "CREATED": .onDestroy, "ATTACHED": .onDetach,
    ]

    /// Tags of lifecycle loggers and of the tools whose lines vclint reads: never a controller's name.
    static let loggerTags: Set<String> = ["Lifecykle", "LogLifeCycle", "LeakCanary", "StrictMode", "TestRunner", "FragmentManager"]

    /// androidx's `Fragment.getViewLifecycleOwner` exception text.
    static let misuseText: StaticString = "Can't access the Fragment View's LifecycleOwner"

    /// The tables above by bytes: a line's words are looked up without making a `String` of them.
    static let callbackBytes = ByteKeyTable(callbacks)
    static let eventLogBytes = ByteKeyTable(eventLogCallbacks)
    static let moveToBytes = ByteKeyTable(moveTo)
    static let moveFromBytes = ByteKeyTable(moveFrom)
    static let loggerTagBytes = ByteKeyTable(Dictionary(uniqueKeysWithValues: loggerTags.map { ($0, true) }))

    /// The statement of one message (with its line's tag, when the format has one), or nil. Read by bytes: a line
    /// that is noise makes no `String` (only an accepted statement names its class).
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?) -> Event? {
        var names = NameCache()
        return read(m, tag: tag, names: &names)
    }

    /// `read`, the class names made through `names`: a capture names its few classes again and again, and each
    /// `String` made anew cost its decoding, its allocation and, once the next statement replaced it, its free.
    static func read(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?, names: inout NameCache) -> Event? {
        if let tag {
            if isEventLogTag(tag) { return eventLog(tag, m) }
            if let death = processDeath(SystemTag(tag), m) { return death }
        } else if let death = processDeath(.activityManager, m) ?? processDeath(.zygote, m) {
            // A format without tags (`thread`): the system's wordings alone.
            return death
        }
        if contains(m, misuseText) { return misuse(m) }
        if let tag, tag.count == 15, AndroidEvidence.startsWith(tag, "FragmentManager") { return fragmentManager(m) }
        let name = tag.map(simpleName)
        // The objects' and composables' statements, where no Activity or Fragment callback was found.
        return statement(m, tag: name, names: &names) ?? LogcatObjectStatement.read(m, tag: name, names: &names)
    }

    /// A line without an envelope that still says something: androidx's exception in a multi-line crash copy.
    static func continuation(_ line: UnsafeBufferPointer<UInt8>) -> Event? {
        contains(line, misuseText) ? misuse(line) : nil
    }

    /// `am_on_X_called` and `wm_on_X_called`: the event log's callbacks.
    static func isEventLogTag(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        guard tag.count >= 7, tag[1] == UInt8(ascii: "m"), tag[0] == UInt8(ascii: "a") || tag[0] == UInt8(ascii: "w"),
              endsWith(tag, "_called") else { return false }
        return AndroidEvidence.startsWith(UnsafeBufferPointer(rebasing: tag[2...]), "_on_")
    }

    /// `am_on_resume_called: [0,com.example/.MainActivity,RESUME_ACTIVITY]`, `wm_on_create_called:
    /// [164222498,com.example.MainActivity,performCreate]`: the component's simple name; for `wm_`, the
    /// number before the component is the activity record's token.
    static func eventLog(_ tag: UnsafeBufferPointer<UInt8>, _ m: UnsafeBufferPointer<UInt8>) -> Event? {
        guard tag.count > 13, let kind = eventLogBytes.value(UnsafeBufferPointer(rebasing: tag[6..<(tag.count - 7)])) else { return nil }
        let text = trimmed(m, of: " []")
        // The comma-separated fields, each without its spaces; the component is the first with a dot that starts with a letter.
        var start = text.lowerBound, previous: Range<Int>?
        while true {
            var end = start
            while end < text.upperBound, m[end] != .comma { end += 1 }
            let field = trimmed(m, start..<end, of: " ")
            if field.contains(where: { m[$0] == .dot }), startsWithLetter(m, field) {
                var token: UInt64?
                if tag[0] == UInt8(ascii: "w"), let previous { token = unsigned(UnsafeBufferPointer(rebasing: m[previous])) }
                var name: [UInt8] = []
                for k in field where m[k] != .slash { name.append(m[k]) }
                var e = name.withUnsafeBufferPointer { Event(kind: kind, className: string(simpleName($0)), address: token, dialect: .eventLog) }
                e.address = token
                return e
            }
            guard end < text.upperBound else { return nil }
            previous = field
            start = end + 1
        }
    }

    /// The tags of the system's process-death lines.
    enum SystemTag {
        case procDied, activityManager, zygote, other

        init(_ tag: UnsafeBufferPointer<UInt8>) {
            switch tag.count {
            case 7 where AndroidEvidence.startsWith(tag, "am_kill"), 12 where AndroidEvidence.startsWith(tag, "am_proc_died"): self = .procDied
            case 15 where AndroidEvidence.startsWith(tag, "ActivityManager"), 19 where AndroidEvidence.startsWith(tag, "ActivityTaskManager"):
                self = .activityManager
            case 6 where AndroidEvidence.startsWith(tag, "Zygote"): self = .zygote
            default: self = .other
            }
        }
    }

    /// The system's line that a process died: `ActivityManager: Process com.example.app (pid 3975) has died: fg TOP`,
    /// `am_proc_died: [0,3975,com.example.app,…]`, `am_kill: [0,3975,com.example.app,…]`, `Zygote: Process 3975
    /// exited due to signal 9`.
    static func processDeath(_ tag: SystemTag, _ m: UnsafeBufferPointer<UInt8>) -> Event? {
        var pid: Int?, name = ""
        switch tag {
        case .procDied:
            // The non-empty comma-separated fields, each without its white space: the pid second, the process third.
            let text = trimmed(m, of: " []")
            var fields: [Range<Int>] = []
            var start = text.lowerBound
            while start <= text.upperBound, fields.count < 3 {
                var end = start
                while end < text.upperBound, m[end] != .comma { end += 1 }
                if end > start { fields.append(trimmedWhiteSpace(m, start..<end)) }
                start = end + 1
            }
            guard fields.count >= 3 else { return nil }
            pid = integer(UnsafeBufferPointer(rebasing: m[fields[1]]))
            name = string(UnsafeBufferPointer(rebasing: m[fields[2]]))
        case .activityManager:
            guard AndroidEvidence.startsWith(m, "Process "), contains(m, " has died"), let open = find(m, "(pid ") else { return nil }
            pid = leadingNumber(UnsafeBufferPointer(rebasing: m[(open + 5)...]))
            var end = 8
            while end < m.count, m[end] != .space { end += 1 }
            name = string(UnsafeBufferPointer(rebasing: m[8..<end]))
        case .zygote:
            guard AndroidEvidence.startsWith(m, "Process "), contains(m, " exited due to signal") else { return nil }
            pid = leadingNumber(UnsafeBufferPointer(rebasing: m[8...]))
        case .other:
            return nil
        }
        guard let pid, pid > 0 else { return nil }
        return Event(kind: .processDied, className: name, address: UInt64(pid), dialect: .logcat)
    }

    /// `moveto CREATED: MainFragment{a14e02b} (c2d8991a-… id=0x7f0a0224)`.
    static func fragmentManager(_ m: UnsafeBufferPointer<UInt8>) -> Event? {
        // Two words (spaces before them skipped), then the rest after one space.
        var i = 0
        func word() -> Range<Int>? {
            while i < m.count, m[i] == .space { i += 1 }
            let s = i
            while i < m.count, m[i] != .space { i += 1 }
            return i > s ? s..<i : nil
        }
        guard let verb = word(), let state = word(), i + 1 < m.count, m[state.upperBound - 1] == .colon else { return nil }
        let states = UnsafeBufferPointer(rebasing: m[state.lowerBound..<(state.upperBound - 1)])
        let kind: EventKind?
        if verb.count == 6, AndroidEvidence.startsWith(UnsafeBufferPointer(rebasing: m[verb]), "moveto") {
            kind = moveToBytes.value(states)
        } else if verb.count == 8, AndroidEvidence.startsWith(UnsafeBufferPointer(rebasing: m[verb]), "movefrom") {
            kind = moveFromBytes.value(states)
        } else {
            kind = nil
        }
        guard let kind, let (name, address) = described(UnsafeBufferPointer(rebasing: m[(i + 1)...])) else { return nil }
        return Event(kind: kind, className: name, address: address, dialect: .logcat)
    }

    /// `Name{hex…}` at the start of `s`: the class's simple name and the hex.
    static func described(_ s: UnsafeBufferPointer<UInt8>) -> (String, UInt64?)? {
        guard let brace = s.firstIndex(of: .openBrace), brace > 0, !s[..<brace].contains(.space) else { return nil }
        let name = simpleName(UnsafeBufferPointer(rebasing: s[..<brace]))
        var k = brace + 1
        while k < s.count, ByteCursor.isHex(s[k]) { k += 1 }
        let hex: UInt64?
        if k < s.count, !s[k].isASCII {
            // (A fullwidth hex digit continues the run, as `Character.isHexDigit` says, and makes it no number.)
            hex = UInt64(String(decoding: UnsafeBufferPointer(rebasing: s[(brace + 1)...]), as: UTF8.self).prefix { $0.isHexDigit }, radix: 16)
        } else {
            hex = number(UnsafeBufferPointer(rebasing: s[(brace + 1)..<k]), radix: 16)
        }
        return (string(name), hex)
    }

    /// androidx's exception: the fragment `for X{…}` names, else a class the stage takes from the first app frame.
    static func misuse(_ m: UnsafeBufferPointer<UInt8>) -> Event {
        var name = "", address: UInt64?
        if let r = find(m, " for "), let (n, a) = described(UnsafeBufferPointer(rebasing: m[(r + 5)...])) { (name, address) = (n, a) }
        var e = Event(kind: .fragmentViewMisuse, className: name, dialect: .logcat)
        e.address = address
        return e
    }

    /// The packages whose frames are the framework's, not the app's.
    private static let frameworks: [StaticString] = [
        "androidx.", "android.", "java.", "javax.", "kotlin.", "kotlinx.", "dalvik.", "com.android.", "com.google.android.",
    ]

    /// Whether the line is a stack frame's (`at ` after white space), whoever's; `appFrameClass` says whose.
    static func isFrame(_ line: UnsafeBufferPointer<UInt8>) -> Bool { frameStart(line) != nil }

    /// Where a frame's `at ` is (most lines are no frame: by bytes).
    @inline(__always)
    private static func frameStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < line.count, line[i] == .space || line[i] == .tab { i += 1 }
        guard i + 3 < line.count, line[i] == UInt8(ascii: "a"), line[i + 1] == UInt8(ascii: "t"), line[i + 2] == .space else { return nil }
        return i
    }

    /// The class of an app's stack frame (`at com.example.ui.FeedFragment.onCreateDialog(FeedFragment.kt:148)`),
    /// nil for a framework's (`androidx.`, `android.`, `java.`, `kotlin.`, `dalvik.`, `com.android.`).
    static func appFrameClass(_ line: UnsafeBufferPointer<UInt8>) -> String? {
        guard let i = frameStart(line) else { return nil }
        let after = UnsafeBufferPointer(rebasing: line[(i + 3)...])
        guard let paren = after.firstIndex(of: .openParen) else { return nil }
        let qualified = UnsafeBufferPointer(rebasing: after[..<paren])
        for framework in frameworks where AndroidEvidence.startsWith(qualified, framework) { return nil }
        guard let dot = lastIndex(qualified, of: .dot) else { return nil }
        let cls = simpleName(UnsafeBufferPointer(rebasing: qualified[..<dot]))
        // Its first part between `$`s that is not empty.
        var k = 0
        while k < cls.count, cls[k] == .dollar { k += 1 }
        var e = k
        while e < cls.count, cls[e] != .dollar { e += 1 }
        return e > k ? string(UnsafeBufferPointer(rebasing: cls[k..<e])) : nil
    }

    /// Whether a message that is no statement still names a callback as a word (`screen MainActivity lifecycle onCreate
    /// fired`): such a line counts as unread, so that a capture in a shape vclint cannot read never looks clean
    /// (docs/lifecycle.md#mentions-and-unread-lines). A stack frame (`at com.example.MainActivity.onCreate(…)`) is not one.
    static func mentionsCallback(_ m: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < m.count, m[i] == .space || m[i] == .tab { i += 1 }
        if i + 3 <= m.count, m[i] == UInt8(ascii: "a"), m[i + 1] == UInt8(ascii: "t"), m[i + 2] == .space { return false }
        // The words (letters, digits and underscores after a non-word byte), each looked up if it may be a callback.
        var k = i
        while k < m.count {
            while k < m.count, !ByteCursor.isWord(m[k]) { k += 1 }
            let start = k
            while k < m.count, ByteCursor.isWord(m[k]) { k += 1 }
            if k - start >= 6, k - start <= 24, m[start] | UInt8.caseBit == UInt8(ascii: "o"),
               callbackBytes.value(UnsafeBufferPointer(rebasing: m[start..<k])) != nil {
                return true
            }
        }
        return false
    }

    /// `com.example.MainActivity` → `MainActivity`.
    static func simpleName(_ s: String) -> String {
        // By bytes: a `.` is one byte, and its index is a character's (Character-wise search cost a watch's binding a sixth).
        guard let dot = s.utf8.lastIndex(of: .dot) else { return s }
        return String(s[s.utf8.index(after: dot)...])
    }

    /// The same by bytes: the bytes after the last dot.
    static func simpleName(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let dot = lastIndex(b, of: .dot) else { return b }
        return UnsafeBufferPointer(rebasing: b[(dot + 1)...])
    }

    // MARK: - An app's statement

    /// `[decoration] [label [id]] [separator] callback [(…)] [called | : argument]`: the callback whole, at most one
    /// label before it (else the tag names the class), nothing but an argument or decoration after it. The tag is
    /// the line's simple tag (`DetailFragment` of `com.example.ui.DetailFragment`).
    static func statement(_ m: UnsafeBufferPointer<UInt8>, tag: UnsafeBufferPointer<UInt8>?, names: inout NameCache) -> Event? {
        var i = 0
        let n = m.count
        skipDecoration(m, &i)
        guard let first = identifier(m, &i) else { return nil }
        var label: Range<Int>?
        var kind: EventKind?
        var address: UInt64?
        if let k = callbackBytes.value(UnsafeBufferPointer(rebasing: m[first])) {
            kind = k
        } else if let dot = lastIndex(UnsafeBufferPointer(rebasing: m[first]), of: .dot).map({ first.lowerBound + $0 }),
                  let k = callbackBytes.value(UnsafeBufferPointer(rebasing: m[(dot + 1)..<first.upperBound])) {
            kind = k
            label = simpleName(first.lowerBound..<dot, in: m)
        } else {
            // Cheap first: a callback word must follow, and every callback begins with `o` or `O`.
            label = simpleName(first, in: m)
            address = instanceID(m, &i)
            let before = i
            skipSeparator(m, &i)
            guard i > before || address != nil, i < n, m[i] | UInt8.caseBit == UInt8(ascii: "o"), let second = identifier(m, &i),
                  let k = callbackBytes.value(UnsafeBufferPointer(rebasing: m[second])) else { return nil }
            kind = k
        }
        guard let kind, rest(m, i, n) else { return nil }
        let name: String
        if let label, !label.isEmpty, !loggerTagBytes.contains(UnsafeBufferPointer(rebasing: m[label])) {
            name = names.string(UnsafeBufferPointer(rebasing: m[label]))
        } else {
            guard let tag, let f = tag.first, !loggerTagBytes.contains(tag) else { return nil }
            if f.isASCII {
                guard f.isASCIILetter else { return nil }
                name = names.string(tag)
            } else {
                // A tag in another script: its first character a letter, as Unicode says.
                name = string(tag)
                guard name.first?.isLetter == true else { return nil }
            }
        }
        var e = Event(kind: kind, className: name, dialect: .logcat)
        e.address = address
        // `onDestroy isFinishing=true`: the instance ends for good, and its ViewModel does not move to a next instance.
        if kind == .onDestroy, i < n, contains(UnsafeBufferPointer(rebasing: m[i...]), "isFinishing=true") { e.text = finishing }
        return e
    }

    /// The text of an `onDestroy` whose arguments say `isFinishing=true` (`Event.text`).
    static let finishing = "isFinishing=true"

    /// Arrows, emoji and punctuation before a statement (`⟳ `, `--> `, `[`).
    private static func skipDecoration(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < m.count, !(isIdentifierStart(m[i])) { i += 1 }
    }

    private static func skipSeparator(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < m.count, m[i] == .space || m[i] == .colon || m[i] == .hyphen || m[i] == .greater || m[i] == .hash
            || m[i] == .pipe || m[i] == .dot || m[i] >= 0x80 { i += 1 }
    }

    @inline(__always) static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b | UInt8.caseBit) &- UInt8(ascii: "a") < 26 || b == .underscore
    }

    /// A Java name, dotted or not (`MainActivity`, `com.example.MainActivity`, `Outer$Inner`): where it is.
    static func identifier(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Range<Int>? {
        guard i < m.count, isIdentifierStart(m[i]) else { return nil }
        let s = i
        while i < m.count {
            let b = m[i]
            guard ByteCursor.isJavaNameByte(b) || (b == .dot && i + 1 < m.count && isIdentifierStart(m[i + 1])) else { break }
            i += 1
        }
        return s..<i
    }

    /// An instance id right after a label: `@b8fe3a6`, `{a14e02b}`, ` [1384162984]`.
    static func instanceID(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt64? {
        var k = i
        if k < m.count, m[k] == UInt8(ascii: "@") {
            k += 1
            let s = k
            while k < m.count, ByteCursor.isHex(m[k]) { k += 1 }
            // An id ends where the word does: `@b8feonResume` is one word (the candidate search sees no
            // callback in it), not `b8fe` then `onResume`.
            guard k > s, k == m.count || !isIdentifierStart(m[k]),
                  let v = number(UnsafeBufferPointer(rebasing: m[s..<k]), radix: 16) else { return nil }
            i = k
            return v
        }
        while k < m.count, m[k] == .space { k += 1 }
        guard k < m.count, m[k] == .openBrace || m[k] == .openBracket else { return nil }
        let close: UInt8 = m[k] == .openBrace ? .closeBrace : .closeBracket
        let hex = m[k] == .openBrace
        k += 1
        let s = k
        while k < m.count, hex ? ByteCursor.isHex(m[k]) : ByteCursor.isDigit(m[k]) { k += 1 }
        guard k > s, k - s <= 16 else { return nil }
        let v = number(UnsafeBufferPointer(rebasing: m[s..<k]), radix: hex ? 16 : 10)
        while k < m.count, m[k] != close, k - s < 200 { k += 1 }
        guard k < m.count else { return nil }
        i = k + 1
        return v
    }

    /// A signature or argument in parentheses at `i` (`(Bundle)`, `((x))`), nested ones included; to the end when unclosed.
    static func skipParenthesised(_ m: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        guard i < m.count, m[i] == .openParen else { return }
        var depth = 0
        while i < m.count {
            if m[i] == .openParen { depth += 1 } else if m[i] == .closeParen { depth -= 1; if depth == 0 { i += 1; break } }
            i += 1
        }
    }

    /// Whether what follows a statement's word from `i` on is what may follow a callback (`rest`).
    static func isStatementEnd(_ m: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool { rest(m, i, m.count) }

    /// What may follow the callback: nothing, a signature, `called`, `: argument` (`onDestroy:1`), decoration.
    private static func rest(_ m: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Bool {
        var i = start
        skipParenthesised(m, &i)
        while i < n, m[i] == .space { i += 1 }
        if i == n { return true }
        if m[i] == .colon || m[i] == .equals { return true }
        let t = trimmed(m, i..<n, of: " .!")
        let tail = UnsafeBufferPointer(rebasing: m[t])
        if (tail.count == 6 && AndroidEvidence.startsWith(tail, "called"))
            || (tail.count == 9 && (AndroidEvidence.startsWith(tail, "() called") || AndroidEvidence.startsWith(tail, "is called")))
            || (tail.count == 10 && AndroidEvidence.startsWith(tail, "was called")) {
            return true
        }
        // The app's arguments as `name=value` pairs (`onDestroy isFinishing=false`).
        if isArgumentList(tail) { return true }
        // Decoration only: no letter or digit left.
        return !tail.contains { ByteCursor.isWord($0) }
    }

    /// `name=value` pairs separated by spaces, each name beginning with a letter (`isFinishing=false
    /// isChangingConfigurations=true`).
    private static func isArgumentList(_ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < tail.count {
            var end = start
            while end < tail.count, tail[end] != .space { end += 1 }
            guard (tail[start] | UInt8.caseBit) &- UInt8(ascii: "a") < 26,
                  UnsafeBufferPointer(rebasing: tail[start..<end]).contains(.equals) else { return false }
            start = end
            while start < tail.count, tail[start] == .space { start += 1 }
        }
        return true
    }

    // MARK: - Bytes

    /// The bytes as text (what an accepted statement keeps).
    @inline(__always) static func string(_ b: UnsafeBufferPointer<UInt8>) -> String { String(decoding: b, as: UTF8.self) }

    private static func simpleName(_ r: Range<Int>, in m: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        guard let dot = lastIndex(UnsafeBufferPointer(rebasing: m[r]), of: .dot) else { return r }
        return (r.lowerBound + dot + 1)..<r.upperBound
    }

    static func lastIndex(_ b: UnsafeBufferPointer<UInt8>, of byte: UInt8) -> Int? {
        guard let base = b.baseAddress, let at = vclint_memrchr(base, Int32(byte), b.count) else { return nil }
        return UnsafeRawPointer(at) - UnsafeRawPointer(base)
    }

    static func endsWith(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString) -> Bool {
        let k = s.utf8CodeUnitCount
        return b.count >= k && AndroidEvidence.startsWith(UnsafeBufferPointer(rebasing: b[(b.count - k)...]), s)
    }

    /// Where the text first occurs in the bytes.
    static func find(_ hay: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Int? {
        let k = needle.utf8CodeUnitCount
        guard k > 0, let h = hay.baseAddress, hay.count >= k else { return nil }
        // The needle's first and last bytes first: a space or a letter that begins it is common, both together are not.
        let n = needle.utf8Start, first = n[0], last = n[k - 1]
        var i = 0
        let end = hay.count - k
        // Each place of the first byte by memchr: every logcat message is searched for the misuse exception's wording,
        // and a loop a byte at a time walked the whole message for it.
        while i <= end {
            guard let at = memchr(h + i, Int32(first), end - i + 1) else { return nil }
            i = UnsafeRawPointer(at) - UnsafeRawPointer(h)
            if h[i + k - 1] == last, k <= 2 || memcmp(h + i + 1, n + 1, k - 2) == 0 { return i }
            i += 1
        }
        return nil
    }

    /// The bytes without the given ASCII bytes at either end.
    static func trimmed(_ m: UnsafeBufferPointer<UInt8>, _ r: Range<Int>? = nil, of set: StaticString) -> Range<Int> {
        var s = r?.lowerBound ?? 0, e = r?.upperBound ?? m.count
        func inSet(_ b: UInt8) -> Bool { set.withUTF8Buffer { $0.contains(b) } }
        while s < e, inSet(m[s]) { s += 1 }
        while e > s, inSet(m[e - 1]) { e -= 1 }
        return s..<e
    }

    /// Without the white space at either end, as `CharacterSet.whitespaces` says (tab and Unicode's space separators).
    private static func trimmedWhiteSpace(_ m: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        var s = r.lowerBound, e = r.upperBound
        while s < e, let k = spaceLength(m, at: s, before: e) { s += k }
        while e > s {
            if m[e - 1] == .space || m[e - 1] == .tab { e -= 1; continue }
            // A separator of two or three bytes ending here.
            if e - 2 >= s, spaceLength(m, at: e - 2, before: e) == 2 { e -= 2; continue }
            if e - 3 >= s, spaceLength(m, at: e - 3, before: e) == 3 { e -= 3; continue }
            break
        }
        return s..<e
    }

    /// The length of the space separator (Unicode's Zs) or tab at `i`, or nil.
    private static func spaceLength(_ m: UnsafeBufferPointer<UInt8>, at i: Int, before end: Int) -> Int? {
        let b = m[i]
        if b == .space || b == .tab { return 1 }
        if b == 0xC2, i + 1 < end, m[i + 1] == 0xA0 { return 2 }  // U+00A0
        guard b == 0xE1 || b == 0xE2 || b == 0xE3, i + 2 < end else { return nil }
        let (b1, b2) = (m[i + 1], m[i + 2])
        switch b {
        case 0xE1: return b1 == 0x9A && b2 == 0x80 ? 3 : nil  // U+1680
        case 0xE2:
            // U+2000–U+200A, U+202F, U+205F.
            return (b1 == 0x80 && (b2 <= 0x8A && b2 >= 0x80 || b2 == 0xAF)) || (b1 == 0x81 && b2 == 0x9F) ? 3 : nil
        default: return b1 == 0x80 && b2 == 0x80 ? 3 : nil  // U+3000
        }
    }

    private static func startsWithLetter(_ m: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard let f = r.first.map({ m[$0] }) else { return false }
        if f.isASCII { return f.isASCIILetter }
        return string(UnsafeBufferPointer(rebasing: m[r])).first?.isLetter == true
    }

    /// An unsigned number of at most 64 bits in the radix; nil when it is empty or larger.
    static func number(_ b: UnsafeBufferPointer<UInt8>, radix: UInt64) -> UInt64? {
        guard !b.isEmpty else { return nil }
        var v: UInt64 = 0
        for c in b {
            let d: UInt64
            if ByteCursor.isDigit(c) { d = UInt64(c - UInt8(ascii: "0")) } else if ByteCursor.isHex(c) { d = UInt64((c | UInt8.caseBit) - UInt8(ascii: "a") + 10) } else { return nil }
            guard d < radix else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: radix)
            let (a, o2) = m.addingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            v = a
        }
        return v
    }

    /// `Int(text)`: an optional sign and decimal digits, nothing else.
    static func integer(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let f = b.first else { return nil }
        let negative = f == .hyphen
        let digits = f == .hyphen || f == .plus ? UnsafeBufferPointer(rebasing: b[1...]) : b
        guard let v = number(digits, radix: 10) else { return nil }
        if negative { return v <= UInt64(Int.max) + 1 ? (v == UInt64(Int.max) + 1 ? Int.min : -Int(v)) : nil }
        return v <= UInt64(Int.max) ? Int(v) : nil
    }

    /// `UInt64(text)`: an optional sign (`-` only before zero) and decimal digits, nothing else.
    static func unsigned(_ b: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let f = b.first else { return nil }
        guard f == .hyphen || f == .plus else { return number(b, radix: 10) }
        let v = number(UnsafeBufferPointer(rebasing: b[1...]), radix: 10)
        return f == .hyphen && v != 0 ? nil : v
    }

    /// `Int(text.prefix { $0.isNumber })`: the number the text starts with.
    private static func leadingNumber(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var k = 0
        while k < b.count, ByteCursor.isDigit(b[k]) { k += 1 }
        if k < b.count, !b[k].isASCII {
            // A digit of another script (or a mark on the last digit) continues the run and makes it no `Int`.
            return Int(String(decoding: b, as: UTF8.self).prefix { $0.isNumber })
        }
        return integer(UnsafeBufferPointer(rebasing: b[..<k]))
    }

    /// Whether the bytes hold the text (the evidence readers' too: `AndroidEvidence`, `LeakCanaryReader.mayRead`).
    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool { find(hay, needle) != nil }
}
