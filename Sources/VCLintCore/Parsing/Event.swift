/// The lifecycle vocabulary of lifecycle.md §2.
public enum EventKind: String, Sendable, CaseIterable {
    case initialize = "init"
    case loadView, viewDidLoad
    case viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
    case viewWillLayoutSubviews, viewDidLayoutSubviews
    case willMoveToParent, didMoveToParent
    case didReceiveMemoryWarning, viewWillUnload, viewDidUnload
    case dealloc
    case presentBegin, presentEnd, dismissBegin, dismissEnd
    case uikitUnbalancedTransition, uikitPresentationConflict

    /// Callbacks UIKit sends to the controller (markers and warnings are not callbacks).
    public var isCallback: Bool {
        switch self {
        case .presentBegin, .presentEnd, .dismissBegin, .dismissEnd, .uikitUnbalancedTransition, .uikitPresentationConflict: return false
        default: return true
        }
    }

    public var isUIKitWarning: Bool { self == .uikitUnbalancedTransition || self == .uikitPresentationConflict }

    /// Events that create an instance or (re)load its view: they may start a new instance.
    var isCreation: Bool { self == .initialize || self == .loadView || self == .viewDidLoad }
}

/// Which message grammar a line used (lifecycle.md §1, "dialects").
public enum Dialect: String, Sendable {
    case objcFunction = "objc-func"
    case namedInvoke = "named-invoke"
    case methodClass = "method-class"
    case swiftFunction = "swift-function"
    case describedObject = "described-object"
    case uikit
    case custom
}

/// What a move-to-parent line says about its argument.
public enum ParentArgument: Sendable, Equatable {
    case unknown
    case none          // nil / (null): leaving the parent
    case parent(String?)
}

/// One lifecycle statement from one line.
public struct Event: Sendable {
    public var kind: EventKind
    /// The class (or the app's own label, as in seed 000's `mainViewCtrl`).
    public var className: String
    public var address: UInt64?
    public var parent: ParentArgument = .unknown
    public var dialect: Dialect
    /// 1-based physical line in its input.
    public var line: Int
    public var time: LogTime?
    /// For UIKit warnings: the message text, and the other controllers it names.
    public var text: String?
    public var others: [(className: String, address: UInt64?)] = []

    public init(kind: EventKind, className: String, address: UInt64? = nil, dialect: Dialect, line: Int = 0, time: LogTime? = nil) {
        self.kind = kind
        self.className = className
        self.address = address
        self.dialect = dialect
        self.line = line
        self.time = time
    }
}
