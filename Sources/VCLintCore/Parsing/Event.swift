/// The lifecycle vocabulary: the events of docs/lifecycle.md#the-events.
public enum EventKind: String, Sendable, CaseIterable {
    case initialize = "init"
    case loadView, viewDidLoad
    case viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
    /// iOS 17's callback between viewWillAppear and viewDidAppear (back-deployed to iOS 13).
    case viewIsAppearing
    case viewWillLayoutSubviews, viewDidLayoutSubviews
    case willMoveToParent, didMoveToParent
    case didReceiveMemoryWarning, viewWillUnload, viewDidUnload
    case dealloc
    case presentBegin, presentEnd, dismissBegin, dismissEnd
    case uikitUnbalancedTransition, uikitPresentationConflict
    /// A SwiftUI view's `.onAppear`/`.onDisappear` (docs/lifecycle.md#swiftui-views): a view is a
    /// value, so these only say when it was on screen; no appearance rule applies to them.
    case onAppear, onDisappear
    /// An Android Activity's or Fragment's callbacks (docs/lifecycle.md#android-activities-and-fragments), read from logcat only.
    case onCreate, onRestart, onStart, onRestoreInstanceState, onPostCreate, onResume, onPostResume, onPause
    case onSaveInstanceState, onStop, onDestroy, onNewIntent, onConfigurationChanged
    case onAttach, onCreateView, onViewCreated, onActivityCreated, onViewStateRestored, onDestroyView, onDetach
    /// androidx's `Can't access the Fragment View's LifecycleOwner … after onDestroyView()`: a Fragment's view
    /// used while it has none.
    case fragmentViewMisuse
    /// The system's line that a process died (`ActivityManager: Process … (pid N) has died`, `am_proc_died`, `am_kill`,
    /// `Zygote: Process N exited due to signal`): it ends that pid's session (`address` holds the pid). Not a callback.
    case processDied
    /// A ViewModel's `onCleared` (docs/lifecycle.md#android-objects-and-composables): its end of use, not its release.
    case onCleared
    /// A JVM object's `finalize` (an Activity's, a Fragment's or a ViewModel's): the garbage collector released it.
    case finalize

    /// Callbacks UIKit sends to the controller (markers and warnings are not callbacks).
    public var isCallback: Bool {
        switch self {
        case .presentBegin, .presentEnd, .dismissBegin, .dismissEnd, .uikitUnbalancedTransition, .uikitPresentationConflict, .fragmentViewMisuse, .processDied: return false
        default: return true
        }
    }

    /// The presentation and completion markers the app logs.
    public var isMarker: Bool { self == .presentBegin || self == .presentEnd || self == .dismissBegin || self == .dismissEnd }

    public var isUIKitWarning: Bool { self == .uikitUnbalancedTransition || self == .uikitPresentationConflict }

    /// Whether a custom dialect may map a text to it: not UIKit's warnings, whose text vclint reads itself, nor a
    /// process's death, which carries its pid where an event carries an address.
    var isNameable: Bool { !isUIKitWarning && self != .processDied }

    /// A SwiftUI view's appearance (`onAppear`, `onDisappear`).
    public var isViewAppearance: Bool { self == .onAppear || self == .onDisappear }

    /// An Android Activity's or Fragment's callback, or androidx's view-misuse line (`AndroidTable`).
    @inline(__always) public var isAndroid: Bool { bit >= EventKind.onCreate.bit }

    /// One bit per kind (`Instrumentation.EventKinds`).
    var bit: UInt64 {
        switch self {
        case .initialize: return 1 << 0
        case .loadView: return 1 << 1
        case .viewDidLoad: return 1 << 2
        case .viewWillAppear: return 1 << 3
        case .viewDidAppear: return 1 << 4
        case .viewWillDisappear: return 1 << 5
        case .viewDidDisappear: return 1 << 6
        case .viewWillLayoutSubviews: return 1 << 7
        case .viewDidLayoutSubviews: return 1 << 8
        case .willMoveToParent: return 1 << 9
        case .didMoveToParent: return 1 << 10
        case .didReceiveMemoryWarning: return 1 << 11
        case .viewWillUnload: return 1 << 12
        case .viewDidUnload: return 1 << 13
        case .dealloc: return 1 << 14
        case .presentBegin: return 1 << 15
        case .presentEnd: return 1 << 16
        case .dismissBegin: return 1 << 17
        case .dismissEnd: return 1 << 18
        case .uikitUnbalancedTransition: return 1 << 19
        case .uikitPresentationConflict: return 1 << 20
        case .viewIsAppearing: return 1 << 21
        case .onAppear: return 1 << 22
        case .onDisappear: return 1 << 23
        case .onCreate: return 1 << 24
        case .onRestart: return 1 << 25
        case .onStart: return 1 << 26
        case .onRestoreInstanceState: return 1 << 27
        case .onPostCreate: return 1 << 28
        case .onResume: return 1 << 29
        case .onPostResume: return 1 << 30
        case .onPause: return 1 << 31
        case .onSaveInstanceState: return 1 << 32
        case .onStop: return 1 << 33
        case .onDestroy: return 1 << 34
        case .onNewIntent: return 1 << 35
        case .onConfigurationChanged: return 1 << 36
        case .onAttach: return 1 << 37
        case .onCreateView: return 1 << 38
        case .onViewCreated: return 1 << 39
        case .onActivityCreated: return 1 << 40
        case .onViewStateRestored: return 1 << 41
        case .onDestroyView: return 1 << 42
        case .onDetach: return 1 << 43
        case .fragmentViewMisuse: return 1 << 44
        case .processDied: return 1 << 45
        case .onCleared: return 1 << 46
        case .finalize: return 1 << 47
        }
    }

    /// Events that create an instance or (re)load its view: they may start a new instance.
    var isCreation: Bool { self == .initialize || self == .loadView || self == .viewDidLoad }
}

/// Which message grammar a line used (docs/lifecycle.md#dialects).
public enum Dialect: String, Sendable, CaseIterable {
    case objcFunction = "objc-func"
    case namedInvoke = "named-invoke"
    case methodClass = "method-class"
    case swiftFunction = "swift-function"
    case describedObject = "described-object"
    case uikit
    case custom
    /// A lifecycle statement in the app's own words: one callback name with at most a label, a
    /// separator, decoration and arguments (docs/lifecycle.md#free-form-lifecycle-statements).
    case freeForm = "free-form"
    /// An Android app's lifecycle statement in logcat (docs/lifecycle.md#android-statements).
    case logcat
    /// Android's event log: `am_on_*_called`, `wm_on_*_called`.
    case eventLog = "event-log"

    /// The dialects that are one app's logging format for instrumentation (docs/lifecycle.md#instrumentation: a
    /// class logs what the other classes of its format log). A free-form statement is the Swift
    /// `Class method` grammar with more room around it, so one capture's lines read by either are
    /// one format (`[Lifecycle] Home.viewDidLoad` and `[Lifecycle] Home.viewWillAppear animated: true`);
    /// so is `method: Class`, the same words with a colon, which one logger prints for the callbacks
    /// that take an argument (`viewDidLoad Home`, `viewWillAppear: Home (animated: true)`).
    var family: Dialect {
        switch self {
        case .freeForm, .methodClass: return .swiftFunction
        default: return self
        }
    }

    /// Android's loggers (logcat's statements and the event log).
    var isAndroid: Bool { self == .logcat || self == .eventLog }
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
    /// The thread it was logged on, when its envelope says; 0 when not (docs/lifecycle.md#owners).
    public var thread: UInt64 = 0
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
