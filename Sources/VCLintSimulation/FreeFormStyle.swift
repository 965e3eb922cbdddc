/// How an app prints its lifecycle in its own words (docs/lifecycle.md#free-form-lifecycle-statements):
/// where the label stands and in which form, the separator, the decoration, the callbacks' spelling and
/// their arguments. The simulator's `free-form` dialect prints every line of a capture in one style, as an
/// app does.
public struct FreeFormStyle: Sendable, Equatable, CustomStringConvertible {
    public enum Label: String, CaseIterable, Sendable {
        /// `HomeViewController`
        case plain
        /// `[HomeViewController]`
        case bracket
        /// `Shop.HomeViewController`
        case module
    }

    public enum Spelling: String, CaseIterable, Sendable {
        /// `viewWillAppear`
        case bare
        /// `viewWillAppear:`
        case objc
        /// `viewWillAppear(_:)`, `viewDidLoad()`
        case swift
        /// `ViewWillAppear`
        case capitalised
        /// `ViewWillAppear`, `Init`, `Deinit` (Swift's names, capitalised)
        case capitalisedSwift = "capitalised-swift"

        /// The spellings `random` draws from (the styles it drew before `capitalisedSwift` existed).
        static let classic: [Spelling] = [.bare, .objc, .swift, .capitalised]
    }

    /// What names the controller (docs/lifecycle.md#labels).
    public enum Naming: String, CaseIterable, Sendable {
        /// Its class (`HomeViewController`), in the form of `label`.
        case className = "class"
        /// One capital letter per class (`A: viewDidLoad()`), `A` and `I` included.
        case letter
        /// A title of two words (`Detail Screen | viewDidLoad`).
        case title
        /// Redacted by the unified log (`<private> viewDidLoad`): no class at all.
        case redacted
    }

    /// The named variants `vclint-loggen --free-form-style` and the accuracy runs apply to a drawn style.
    public enum Variant: String, CaseIterable, Sendable {
        /// The style as drawn.
        case drawn
        /// Callbacks spelled `Init`, `Deinit`, `ViewWillAppear`.
        case capitalisedSwift = "capitalised-swift"
        case letters, titles, redacted
        /// A title after the callback (`viewDidLoad | Detail Screen`).
        case titlesAfter = "titles-after"

        public func apply(to style: FreeFormStyle) -> FreeFormStyle {
            var s = style
            switch self {
            case .drawn: break
            case .capitalisedSwift: s.spelling = .capitalisedSwift
            case .letters: s.naming = .letter; s.label = .plain
            case .titles:
                // A title stands before the callback, and a dot would join its last word to it.
                s.naming = .title; s.label = .plain; s.labelAfter = false
                if s.separator == "." { s.separator = " " }
            case .redacted: s.naming = .redacted; s.label = .plain
            case .titlesAfter:
                s.naming = .title; s.label = .plain; s.labelAfter = true
                if !FreeFormStyle.separatorsAfter.contains(s.separator) { s.separator = " | " }
            }
            return s
        }
    }

    public var label: Label
    /// The label after the callback (`viewDidLoad: HomeViewController`) rather than before it.
    public var labelAfter: Bool
    public var separator: String
    public var decoration: String
    public var spelling: Spelling
    /// Arguments after appearance callbacks (`animated: true`, `YES`).
    public var argument: String
    public var naming: Naming = .className

    public init(label: Label = .plain, labelAfter: Bool = false, separator: String = " ", decoration: String = "",
                spelling: Spelling = .bare, argument: String = "") {
        self.label = label
        self.labelAfter = labelAfter
        self.separator = separator
        self.decoration = decoration
        self.spelling = spelling
        self.argument = argument
    }

    static let separatorsBefore = [" ", " - ", " \u{2013} ", " \u{2014} ", ": ", " :", " | ", " -> ", " => ", ".", ", ", " :: ", " > "]
    static let separatorsAfter = [" ", ": ", " - ", " -> ", " | ", " => ", " \u{2013} "]
    static let decorations = ["", "\u{1F535} ", "\u{2022} ", "---- ", "*** ", "DEBUG ", "[INFO] ", "[Lifecycle] ", "\u{27A1}\u{FE0F} ", "== "]
    static let arguments = ["", " animated: true", " YES", " (animated: true)", " called"]

    /// A style drawn from `rng`.
    public static func random<G: RandomNumberGenerator>(_ rng: inout G) -> FreeFormStyle {
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        let after = rng.next() % 3 == 0
        var label = pick(Label.allCases)
        let separator = after ? pick(separatorsAfter) : pick(separatorsBefore)
        // `[Home].viewDidLoad` is no one's spelling: a dot joins a class and its method.
        if separator == ".", label == .bracket { label = .plain }
        return FreeFormStyle(label: label, labelAfter: after, separator: separator, decoration: pick(decorations),
                             spelling: pick(Spelling.classic), argument: pick(arguments))
    }

    /// The simulator's classes, one letter each (an app that names its screens so has few of them).
    static let letters: [String: String] = {
        let names = ["RootViewController", "DetailViewController", "ListViewController", "ItemViewController", "SearchViewController",
                     "ProfileViewController", "SettingsViewController", "CartViewController", "OrderViewController",
                     "ReviewViewController", "GalleryViewController", "MapViewController", "ChatViewController",
                     "InboxViewController", "HelpViewController", "AboutViewController", "FilterViewController",
                     "ModalViewController", "ComposeViewController", "SheetViewController", "ChildViewController",
                     "ArticleViewController", "Tab0RootViewController", "Tab1RootViewController", "Tab2RootViewController",
                     "Tab3RootViewController"]
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
        return Dictionary(uniqueKeysWithValues: zip(names, letters))
    }()

    /// The name a completion marker (`X dismiss begin`) gives the controller: its one letter when the
    /// app names controllers so (a marker's name is one word: titles and redacted labels keep the class).
    func markerName(_ className: String, _ freeForm: Bool) -> String {
        freeForm && naming == .letter ? Self.letters[className] ?? className : className
    }

    /// `DetailViewController` → `Detail Screen`.
    static func title(_ className: String) -> String {
        var base = className
        if base.hasSuffix("ViewController") { base.removeLast("ViewController".count) }
        return base + " Screen"
    }

    public var description: String {
        (naming == .className ? "" : "naming \(naming.rawValue) ") + "label \(label.rawValue)\(labelAfter ? " after" : "") separator \"\(separator)\" decoration \"\(decoration)\" spelling \(spelling.rawValue) argument \"\(argument)\""
    }

    /// A callback's name in this style (`name`: the bare Swift/ObjC name, `selector`: the ObjC
    /// selector, `swift`: the Swift signature).
    public func callback(_ name: String, selector: String, swift: String) -> String {
        switch spelling {
        case .bare: return name
        case .objc: return selector
        case .swift: return swift
        case .capitalised: return name.prefix(1).uppercased() + name.dropFirst()
        case .capitalisedSwift:
            let swiftName = name == "dealloc" ? "deinit" : name
            return swiftName.prefix(1).uppercased() + swiftName.dropFirst()
        }
    }

    /// One statement: `className`'s `callback`, with `argument` (and a move's parent, which always
    /// follows the callback, so the label then stands before it).
    public func statement(_ className: String, callback: String, argument: String, parent: String?) -> String {
        let name: String
        switch naming {
        case .className: name = className
        case .letter: name = Self.letters[className] ?? className
        case .title: name = Self.title(className)
        case .redacted: name = "<private>"
        }
        let label: String
        switch self.label {
        case .plain: label = name
        case .bracket: label = "[" + name + "]"
        case .module: label = "Shop." + name
        }
        if let parent {
            return decoration + label + (separator == "." ? " " : separator) + callback + " " + parent
        }
        if labelAfter { return decoration + callback + separator + label + argument }
        return decoration + label + separator + callback + argument
    }
}
