/// The values the timeline hands to rules and reports: which line, which controller, in which
/// state, and how it left.

/// A line and its time: what findings point at.
public struct EventRef: Sendable, Equatable {
    public var line: Int
    public var time: LogTime?
    public var kind: EventKind

    init(_ e: Event) {
        line = e.line
        time = e.time
        kind = e.kind
    }
}

/// Where an instance stands between viewWillAppear … viewDidDisappear: docs/lifecycle.md's appearance
/// states, moved by `LifecycleTable`. `unknown` until a callback places it (a log that began mid-flight).
/// The raw values are the words findings have always printed ("it was appeared", `will-in-state:…:disappeared`
/// in a cause): they reach messages and baselines, so they stay as they were.
public enum Appearance: String, Sendable, CaseIterable {
    case unknown
    case hidden = "disappeared"
    case appearing
    case visible = "appeared"
    case disappearing

    /// On screen, or coming on screen.
    @inline(__always) var isVisible: Bool { self == .visible || self == .appearing }
}

/// How a controller left for good (docs/lifecycle.md#removal).
public enum RemovalKind: String, Sendable {
    case dismissed      // a dismiss marker for it
    case removedFromParent = "removed from its parent"  // willMoveToParent(nil) / didMoveToParent(nil)
    case popped         // it disappeared and the controller it covered appeared (pop / dismiss back)
    case poppedWithTop = "removed with the controller above it"  // in the middle of a pop to root
    case closed         // it disappeared and nothing appeared (sheet dismissal, child removal)
    /// An object (docs/lifecycle.md#objects): its owner was deallocated, so it must go too.
    case ownerDeallocated = "owner deallocated"
    /// Android (docs/lifecycle.md#android-evidence): its use ended (`onDestroy`, `onDestroyView`, `onCleared`) and
    /// LeakCanary's heap analysis found it still retained.
    case retainedInHeap = "retained in the heap"

    var verb: String {
        switch self {
        case .dismissed: return "dismissed"
        case .removedFromParent: return "removed from its parent"
        case .popped: return "popped or dismissed"
        case .poppedWithTop: return "removed together with the controller above it"
        case .closed: return "closed (it disappeared and nothing replaced it)"
        case .ownerDeallocated: return "left behind by its owner"
        case .retainedInHeap: return "ended its use and was found in a heap dump"
        }
    }
}

public struct Removal: Sendable {
    public var kind: RemovalKind
    /// The line that proves the removal (marker, move-to-parent, or the disappearance).
    public var evidence: EventRef
    /// For a controller removed without callbacks: the instance whose removal took it along. For an
    /// object whose owner was deallocated: the owner.
    public var takenAlongBy: String?
    public var anchor: EventRef
    /// The kind of the transition that removed it, when a transition did (docs/lifecycle.md#naming-transitions).
    public var transition: TransitionKind? = nil
}

/// How reports name a controller.
public struct ControllerRef: Sendable, Equatable, Hashable {
    public var className: String
    public var address: UInt64?
    public var instance: String

    public init(className: String, address: UInt64?, instance: String) {
        self.className = className
        self.address = address
        self.instance = instance
    }

    public var addressText: String? { address.map { "0x" + String($0, radix: 16) } }

    /// `SecondViewController#2` or `SecondViewController (0x7fb1c8d0a200)`.
    public var display: String {
        if let a = address { return Self.display(className, address: a) }
        return instance
    }

    /// How a controller with an address is shown: `SecondViewController (0x7fb1c8d0a200)`.
    static func display(_ className: String, address a: UInt64) -> String { "\(className) (0x\(String(a, radix: 16)))" }
}
