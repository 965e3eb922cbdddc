#if canImport(Glibc)
import Glibc
#endif

/// Method and selector names → event kinds, compared as bytes (no String for noise lines).
enum MethodTable {
    /// The names, one per (length, first byte, last byte): that triple finds the one name a word can
    /// be (the free-form reader asks for every word of the lines that mention a callback).
    private static let names: [(name: StaticString, kind: EventKind?)] = [
        ("init", .initialize), ("awakeFromNib", .initialize), ("loadView", .loadView), ("viewDidLoad", .viewDidLoad),
        ("viewWillAppear", .viewWillAppear), ("viewIsAppearing", .viewIsAppearing), ("viewDidAppear", .viewDidAppear),
        ("viewWillDisappear", .viewWillDisappear), ("viewDidDisappear", .viewDidDisappear),
        ("viewWillLayoutSubviews", .viewWillLayoutSubviews), ("viewDidLayoutSubviews", .viewDidLayoutSubviews),
        ("willMoveToParentViewController", .willMoveToParent), ("willMoveToParent", .willMoveToParent),
        ("didMoveToParentViewController", .didMoveToParent), ("didMoveToParent", .didMoveToParent),
        ("willMove", nil), ("didMove", nil),
        ("didReceiveMemoryWarning", .didReceiveMemoryWarning), ("viewWillUnload", .viewWillUnload),
        ("viewDidUnload", .viewDidUnload), ("dealloc", .dealloc), ("deinit", .dealloc),
        // Past participles apps print (`CartVC deallocated`, the Swift book's `… is being
        // deinitialized`, `HomeViewModel initialized`): docs/lifecycle.md#callback-spellings.
        ("deallocated", .dealloc), ("deinitialized", .dealloc), ("initialized", .initialize),
        // SwiftUI's view modifiers (`HomeView onAppear`, `[HomeView] onDisappear()`): docs/lifecycle.md#swiftui-views.
        ("onAppear", .onAppear), ("onDisappear", .onDisappear),
    ]
    private static let slots = 256
    /// Entry index + 1 per slot of `slot(n, first, last)`; 0: no name.
    nonisolated(unsafe) private static let index: UnsafeMutablePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: slots)
        t.initialize(repeating: 0, count: slots)
        for (i, e) in names.enumerated() {
            let p = e.name.utf8Start, n = e.name.utf8CodeUnitCount
            let k = slot(n, p[0], p[n - 1])
            precondition(t[k] == 0, "MethodTable: two names share a slot")
            t[k] = UInt8(i + 1)
        }
        return t
    }()

    @inline(__always) private static func slot(_ n: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (n &* 7 &+ Int(first) &* 3 &+ Int(last)) & (slots - 1)
    }

    /// `foldCase`: a capitalised name (`ViewWillAppear`, as Xamarin apps print it) counts too.
    static func kind(_ name: UnsafeBufferPointer<UInt8>, signature: UnsafeBufferPointer<UInt8>, foldCase: Bool = false) -> EventKind? {
        let n = name.count
        guard n >= 4, let base = name.baseAddress else { return nil }
        var first = base[0]
        if foldCase, first &- UInt8(ascii: "A") < 26 { first |= UInt8.space }
        guard first == UInt8(ascii: "i") || first == UInt8(ascii: "a") || first == UInt8(ascii: "l") || first == UInt8(ascii: "v") || first == UInt8(ascii: "w") || first == UInt8(ascii: "d") || first == UInt8(ascii: "o") else { return nil }
        if n <= 30, case let i = Int(index[slot(n, first, base[n - 1])]), i > 0 {
            let e = names[i - 1]
            let q = e.name.utf8Start
            if e.name.utf8CodeUnitCount == n, q[0] == first, memcmp(q + 1, base + 1, n - 1) == 0 {
                if let k = e.kind { return k }
                // Swift's willMove(toParent:) / didMove(toParent:), or the name alone (`WillMove:` as a
                // statement's separator); other willMove(…) (`toWindow:`, `toSuperview:`) are not ours.
                if signature.count == 0 || contains(signature, "Parent") || (signature.count == 1 && signature[0] == .colon) {
                    return first == UInt8(ascii: "w") ? .willMoveToParent : .didMoveToParent
                }
                return nil
            }
        }
        // `deInit` (shares `deinit`'s slot).
        if n == 6, first == UInt8(ascii: "d"), memcmp(base + 1, "eInit", 5) == 0 { return .dealloc }
        // initWithNibName:bundle:, initWithCoder:, …
        if n > 8, first == UInt8(ascii: "i"), memcmp(base + 1, "nitWith", 7) == 0 { return .initialize }
        return nil
    }

    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let k = needle.utf8CodeUnitCount
        guard let h = hay.baseAddress, hay.count >= k else { return false }
        for i in 0...(hay.count - k) where memcmp(h + i, needle.utf8Start, k) == 0 { return true }
        return false
    }
}
