import Testing
@testable import VCLintCore

@Suite struct DialectTests {
    let parser = MessageParser()

    struct Case: Sendable, CustomTestStringConvertible {
        let message: String
        let kind: EventKind
        let className: String
        var address: UInt64? = nil
        var testDescription: String { message }
    }

    static let recognised: [Case] = [
        // ObjC __func__
        Case(message: "-[SecondViewController viewWillAppear:]", kind: .viewWillAppear, className: "SecondViewController"),
        Case(message: "-[LifeCycleViewController dealloc]", kind: .dealloc, className: "LifeCycleViewController"),
        Case(message: "-[VC initWithNibName:bundle:]", kind: .initialize, className: "VC"),
        Case(message: "-[VC(Logging) viewDidLoad]", kind: .viewDidLoad, className: "VC"),
        Case(message: "-[MyApp.HomeViewController viewDidDisappear:] <MyApp.HomeViewController: 0x7fa1c8d0a200>", kind: .viewDidDisappear, className: "HomeViewController", address: 0x7fa1c8d0a200),
        // named "invoke" (seed 000)
        Case(message: "mainViewCtrl invoke viewDidLoad", kind: .viewDidLoad, className: "mainViewCtrl"),
        Case(message: "Child1ViewController .......dealloc.......", kind: .dealloc, className: "Child1ViewController"),
        Case(message: "Child1ViewController …….dealloc…….", kind: .dealloc, className: "Child1ViewController"),
        Case(message: "X present end", kind: .presentEnd, className: "X"),
        Case(message: "X dismiss begin", kind: .dismissBegin, className: "X"),
        Case(message: "X dismiss end", kind: .dismissEnd, className: "X"),
        // "method:Class" (seed 001)
        Case(message: "viewDidLoad:ViewController2", kind: .viewDidLoad, className: "ViewController2"),
        Case(message: "init:ViewController2", kind: .initialize, className: "ViewController2"),
        Case(message: "viewWillLayoutSubviews ViewController2", kind: .viewWillLayoutSubviews, className: "ViewController2"),
        // Swift #function
        Case(message: "HomeViewController viewWillAppear(_:)", kind: .viewWillAppear, className: "HomeViewController"),
        Case(message: "[Lifecycle] HomeViewController.viewDidAppear(_:)", kind: .viewDidAppear, className: "HomeViewController"),
        Case(message: "HomeViewController deinit", kind: .dealloc, className: "HomeViewController"),
        Case(message: "HomeViewController init(coder:)", kind: .initialize, className: "HomeViewController"),
        Case(message: "ChildViewController willMove(toParent:) nil", kind: .willMoveToParent, className: "ChildViewController"),
        Case(message: "HomeViewController viewWillAppear(_:) animated: true", kind: .viewWillAppear, className: "HomeViewController"),
        Case(message: "HomeViewController(0x600003d0c000) viewDidLoad()", kind: .viewDidLoad, className: "HomeViewController", address: 0x600003d0c000),
        Case(message: "🟢 HomeViewController viewDidAppear(_:)", kind: .viewDidAppear, className: "HomeViewController"),
        Case(message: "HomeViewController -> viewDidLoad", kind: .viewDidLoad, className: "HomeViewController"),
        Case(message: "HomeViewController - viewWillDisappear", kind: .viewWillDisappear, className: "HomeViewController"),
        // described object
        Case(message: "<HomeViewController: 0x7fa1c8d0a200> viewDidDisappear:", kind: .viewDidDisappear, className: "HomeViewController", address: 0x7fa1c8d0a200),
        Case(message: "<MyApp.HomeViewController: 0x7fa1c8d0a200> viewDidLoad", kind: .viewDidLoad, className: "HomeViewController", address: 0x7fa1c8d0a200),
        // UIKit's warnings, with their trailing punctuation and the os_log category tag of iOS 14+
        Case(message: "Unbalanced calls to begin/end appearance transitions for <X: 0x7fa1c8d0a200>.", kind: .uikitUnbalancedTransition, className: "X", address: 0x7fa1c8d0a200),
        Case(message: "Attempt to present <X: 0x1> on <Y: 0x2> (from <Y: 0x2>) whose view is not in the window hierarchy.", kind: .uikitPresentationConflict, className: "Y", address: 0x2),
        Case(message: "Warning: Attempt to present <X: 0x1> on <Y: 0x2> whose view is not in the window hierarchy!", kind: .uikitPresentationConflict, className: "Y", address: 0x2),
        Case(message: "Attempt to present <X: 0x1> on <Y: 0x2> which is already presenting <Z: 0x3>", kind: .uikitPresentationConflict, className: "Y", address: 0x2),
        Case(message: "Attempt to present <X: 0x1> on <Y: 0x2> while a presentation is in progress!", kind: .uikitPresentationConflict, className: "Y", address: 0x2),
        Case(message: "Attempt to dismiss from view controller <X: 0x1> while a presentation or dismiss is in progress!", kind: .uikitPresentationConflict, className: "X", address: 0x1),
        Case(message: "[Presentation] Attempt to present <X: 0x1> on <Y: 0x2> (from <Y: 0x2>) whose view is not in the window hierarchy.", kind: .uikitPresentationConflict, className: "Y", address: 0x2),
    ]

    @Test(arguments: recognised)
    func recognisesDialect(_ c: Case) throws {
        let e = try #require(parser.parse(c.message))
        #expect(e.kind == c.kind)
        #expect(e.className == c.className)
        #expect(e.address == c.address)
    }

    static let noise: [String] = [
        "[Analytics] queued screen event viewDidAppear for HomeViewController",
        "HomeViewController viewDidAppear for analytics",
        "Calling viewDidLoad twice is bad",
        "-[NSURLSession dataTaskWithURL:]",
        "initialize",
        "    \"state\" = viewDidAppear;",
        "[Router] will present login if token expires (dismiss later)",
        "Attempt to present login again after 3 retries",
        "[Memory] footprint 212 MB after didReceiveMemoryWarning from the system",
        "AppDelegate applicationWillResignActive(_:)",
        "X dismiss the keyboard",
    ]

    @Test(arguments: noise)
    func mentionIsNotAnEvent(_ message: String) {
        #expect(parser.parse(message) == nil)
    }

    @Test func moveToParentArguments() throws {
        #expect(try #require(parser.parse("ChildViewController willMove(toParent:) nil")).parent == ParentArgument.none)
        #expect(try #require(parser.parse("-[Child willMoveToParentViewController:] (null)")).parent == ParentArgument.none)
        #expect(try #require(parser.parse("ChildViewController didMove(toParent:) <ContainerViewController: 0x600003d0c000>")).parent == .parent("ContainerViewController"))
        #expect(try #require(parser.parse("-[Child didMoveToParentViewController:]")).parent == .unknown)
    }
}
