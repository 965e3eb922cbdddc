#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a type's name says (docs/lifecycle.md#class-names): whether it is a controller's, and
/// which part of a dotted name is the app's module (not part of identity) and which a nested type
/// (a class of its own: `MainView.ViewModel` and `FourthView.ViewModel` are two classes).
enum TypeNames {
    /// `HomeViewController`, `CartVC`: a controller's name (ends in `Controller` or `VC`).
    static func isController(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        endsWith(p, r, "Controller") || endsWith(p, r, "VC")
    }

    static func isController(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in b.baseAddress.map { isController($0, 0..<b.count) } ?? false }
    }

    /// The part of a dotted class name that names the class: `MyApp.HomeViewController` →
    /// `HomeViewController`, `MyApp.DetailViewModel` → `DetailViewModel`, `MyApp.MainView.ViewModel`
    /// and `MainView.ViewModel` → `MainView.ViewModel`.
    ///
    /// A controller keeps only its last part, as it always did. Any other name loses its first part
    /// when that is a module: always with three parts or more (`String(reflecting:)` prints the
    /// module first), and with two unless the first part names a type (ends in `View`, `Screen`,
    /// `Controller`, `ViewModel`, `Coordinator`, … ) or the second part is such a suffix alone
    /// (`MapRepresentable.Coordinator`). The process's own name is a module whatever it looks like
    /// (`withoutProcessModule`).
    static func withoutModule(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Range<Int> {
        guard let firstDot = memchr(p + r.lowerBound, Int32(UInt8.dot), r.count).map({ UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - p }) else { return r }
        var lastDot = r.upperBound - 1
        while lastDot > r.lowerBound, p[lastDot] != .dot { lastDot -= 1 }
        let first = r.lowerBound..<firstDot, last = (lastDot + 1)..<r.upperBound
        // (`.Home`, `Home.`: nothing to cut.)
        guard !first.isEmpty, !last.isEmpty else { return r }
        if isController(p, last) { return last }
        if firstDot != lastDot { return (firstDot + 1)..<r.upperBound }
        if namesType(p, first) || isSuffixAlone(p, last) { return r }
        return last
    }

    /// `withoutModule` of a name held as a String.
    static func withoutModule(_ s: String) -> String {
        var s = s
        return s.withUTF8 { b -> String? in
            guard let base = b.baseAddress else { return nil }
            let r = withoutModule(base, 0..<b.count)
            return r.count == b.count ? nil : String(decoding: UnsafeBufferPointer(start: base + r.lowerBound, count: r.count), as: UTF8.self)
        } ?? s
    }

    /// `MyApp.ViewModel` in a capture of the process `MyApp` → `ViewModel`: the app's module is the
    /// process's name (spaces and dashes made underscores, as Xcode makes a product's module name).
    /// Nil when the name does not start with it.
    static func withoutProcessModule(_ className: String, process: String) -> String? {
        let cut = className.utf8.withContiguousStorageIfAvailable { name -> String? in
            let found = process.utf8.withContiguousStorageIfAvailable { module -> String? in
                let k = module.count
                guard k > 0, name.count > k + 1, name[k] == .dot else { return nil }
                for i in 0..<k {
                    let c = name[i], b = module[i]
                    guard c == b || (c == .underscore && (b == .space || b == .hyphen)) else { return nil }
                }
                return String(decoding: UnsafeBufferPointer(rebasing: name[(k + 1)...]), as: UTF8.self)
            }
            return found ?? nil
        }
        return cut ?? nil
    }

    /// The suffixes of the types that make a screen (docs/lifecycle.md#objects): a first part that
    /// ends in one names the enclosing type, not a module.
    private static let typeSuffixes: [StaticString] = [
        "View", "Screen", "Scene", "Page", "Controller", "VC", "ViewModel", "VM", "Model", "Coordinator", "Presenter",
        "Interactor", "Router", "Store", "Feature", "Representable", "Cell", "Flow",
    ]

    /// Second parts that name a nested type by its role alone (`MainView.ViewModel`).
    private static let roles: [StaticString] = [
        "ViewModel", "VM", "Model", "Coordinator", "Presenter", "Interactor", "Router", "Store", "Feature", "View",
        "Screen", "State", "Delegate", "Configurator", "Builder", "Reducer",
    ]

    private static func namesType(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        typeSuffixes.contains { endsWith(p, r, $0) }
    }

    private static func isSuffixAlone(_ p: UnsafePointer<UInt8>, _ r: Range<Int>) -> Bool {
        roles.contains { $0.utf8CodeUnitCount == r.count && memcmp(p + r.lowerBound, $0.utf8Start, r.count) == 0 }
    }

    @inline(__always)
    private static func endsWith(_ p: UnsafePointer<UInt8>, _ r: Range<Int>, _ suffix: StaticString) -> Bool {
        let k = suffix.utf8CodeUnitCount
        return r.count >= k && memcmp(p + r.upperBound - k, suffix.utf8Start, k) == 0
    }
}
