/// SwiftUI views (docs/lifecycle.md#swiftui-views): `onAppear`/`onDisappear` statements of a name.
///
/// A view is a value. SwiftUI calls `onAppear` again without `onDisappear` in legal flows, so no
/// appearance rule applies to a view; it has no `dealloc`, so it is never leaked nor deallocated;
/// it never gets a finding of its own. Its instance keeps `appearance` untouched (`.unknown`, or
/// `.hidden` when the view logged an initializer): a view never counts in `visibleCount`, so
/// controllers' removal inference (a disappearance with nothing of ours left on screen) is the
/// same with or without views in the capture. Lanes show a view's appearances from its events
/// (`TimelineRecorder`).
extension SessionTimeline {
    /// An `onAppear` or `onDisappear` routed to `inst` (`apply`). Deliberately does nothing to the
    /// controllers' state machine. A view may own objects (docs/lifecycle.md#owners): those made in
    /// the burst right before its first appearance (a `@StateObject` is made just before its view
    /// appears), which `trackOwnership` gives it; it keeps no list of them, since it never goes.
    func viewAppearance(_ e: Event, _ ref: EventRef, _ inst: Instance) {
        if !inst.isView { inst.isView = true }
    }
}
