/// SwiftUI views (docs/lifecycle.md#swiftui-views): `onAppear`/`onDisappear` statements of a name.
///
/// A view is a value. SwiftUI calls `onAppear` again without `onDisappear` in legal flows, so no
/// appearance rule applies to a view; it has no `dealloc`, so it is never leaked nor deallocated;
/// it never gets a finding of its own. Its instance keeps `appearance` untouched (`.unknown`, or
/// `.disappeared` when the view logged an initializer): a view never counts in `visibleCount`, so
/// controllers' removal inference (a disappearance with nothing of ours left on screen) is the
/// same with or without views in the capture. Lanes show a view's appearances from its events
/// (`TimelineRecorder`).
extension SessionTimeline {
    /// An `onAppear` or `onDisappear` routed to `inst` (`apply`). Deliberately does nothing to the
    /// controllers' state machine; this is where what a view means for the objects it owns belongs.
    func viewAppearance(_ e: Event, _ ref: EventRef, _ inst: Instance) {
    }
}
