import Testing
@testable import VCLintCore

/// Shapes that a navigation simulator found misread; each must stay silent (or give exactly its
/// one finding).
@Suite struct RoutingRegressionTests {
    @Test func memoryWarningDoesNotMakeANewInstanceAReload() {
        // Modal over modal of one class, no init logged, a memory warning on the top one.
        let r = lint("""
        -[ModalViewController viewDidLoad]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController didReceiveMemoryWarning]
        -[ModalViewController viewDidLoad]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController dealloc]
        """)
        #expect(r.summary == ["memory_warning@4"])
        #expect(r.stats.controllers == 2)
    }

    @Test func childAddedAgainAtAReusedAddress() {
        let r = lint("""
        <ChildViewController: 0x7000> willMoveToParentViewController: <HomeViewController: 0x1000>
        <ChildViewController: 0x7000> viewDidLoad
        <ChildViewController: 0x7000> didMoveToParentViewController: <HomeViewController: 0x1000>
        <ChildViewController: 0x7000> willMoveToParentViewController: (null)
        <ChildViewController: 0x7000> didMoveToParentViewController: (null)
        <ChildViewController: 0x7000> dealloc
        <ChildViewController: 0x7000> willMoveToParentViewController: <HomeViewController: 0x1000>
        <ChildViewController: 0x7000> viewDidLoad
        <ChildViewController: 0x7000> didMoveToParentViewController: <HomeViewController: 0x1000>
        """)
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(r.stats.controllers == 2)
    }

    @Test func newTabRevealsItsOwnStackNotAPop() {
        // Two tabs each show a ListViewController (no addresses); switching tabs (new first) is not a pop.
        let r = lint("""
        -[ListViewController viewDidLoad]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidAppear:]
        -[OtherRoot viewDidLoad]
        -[OtherRoot viewWillAppear:]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewDidDisappear:]
        -[OtherRoot viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[OtherRoot viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[OtherRoot viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ItemViewController viewDidLoad]
        -[ListViewController viewWillDisappear:]
        -[ItemViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[ItemViewController viewDidAppear:]
        -[ListViewController viewWillAppear:]
        -[ItemViewController viewWillDisappear:]
        -[ItemViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[Temp dealloc]
        """)
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    @Test func loneChildCannotCancelItsAppearance() {
        let r = lint("""
        ChildViewController willMove(toParent:) <HomeViewController: 0x1000>
        ChildViewController viewDidLoad()
        ↓ChildViewController viewWillAppear(_:)
        ChildViewController didMove(toParent:) <HomeViewController: 0x1000>
        ChildViewController willMove(toParent:) nil
        ChildViewController viewWillDisappear(_:)
        ChildViewController viewDidDisappear(_:)
        ChildViewController didMove(toParent:) nil
        ChildViewController deinit
        OtherViewController viewWillAppear(_:)
        OtherViewController viewDidAppear(_:)
        """.replacingOccurrences(of: "↓", with: ""))
        #expect(r.summary == ["missing_did_appear@3"])
    }

    @Test func dismissRevealsTheControllerBelowNotARemovedOne() {
        // Modal A presents B; B dismissed (removed, dealloc pending); A presents C, C dismissed: the
        // controller revealed is A, and B's missing dealloc is the one leak.
        let r = lint("""
        -[ModalViewController viewDidLoad]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController viewDidLoad]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController viewDidLoad]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController viewWillDisappear:]
        -[ModalViewController viewWillAppear:]
        -[ModalViewController viewDidDisappear:]
        -[ModalViewController viewDidAppear:]
        -[ModalViewController dealloc]
        """)
        #expect(r.summary == ["leaked_controller@11"])
        #expect(r.findings.first?.controller.instance == "ModalViewController#2")
    }

    /// Fixtures/flows/pop-below-the-twin.log without times: tab 0 holds List, List; tab 1 holds List,
    /// Detail, List. The switch back from tab 2 (new first) shows one of the two List tops, which the log
    /// cannot tell apart; the pop after it reveals a List, which a pop of tab 0's top explains (the one right
    /// below it), and a pop of tab 1's only as a pop two levels down that takes the Detail along.
    static let popBelowTheTwin = """
        -[Tab0RootViewController viewDidLoad]
        -[Tab0RootViewController viewWillAppear:]
        -[Tab0RootViewController viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[Tab0RootViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[Tab0RootViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[Tab1RootViewController viewDidLoad]
        -[Tab1RootViewController viewWillAppear:]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewDidDisappear:]
        -[Tab1RootViewController viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[Tab1RootViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[Tab1RootViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[DetailViewController viewDidLoad]
        -[ListViewController viewWillDisappear:]
        -[DetailViewController viewWillAppear:]
        -[DetailViewController viewDidAppear:]
        -[ListViewController viewDidDisappear:]
        -[ListViewController viewDidLoad]
        -[DetailViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidAppear:]
        -[DetailViewController viewDidDisappear:]
        -[Tab2RootViewController viewDidLoad]
        -[Tab2RootViewController viewWillAppear:]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewDidDisappear:]
        -[Tab2RootViewController viewDidAppear:]
        -[ListViewController viewWillAppear:]
        -[Tab2RootViewController viewWillDisappear:]
        -[Tab2RootViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        """

    @Test func popRevealsTheOneRightBelowATwinBeforeOneFurtherDown() {
        let r = lint(Self.popBelowTheTwin + "\n-[ListViewController dealloc]")
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    @Test func theTwinThatLeftLeaksAloneWhenItNeverDeallocates() {
        // The same pop without its dealloc: the List that left (line 45) leaked, not the Detail (another
        // class's dealloc shows that the app logs deallocs).
        let r = lint(Self.popBelowTheTwin + "\n-[SheetViewController dealloc]")
        #expect(r.summary == ["leaked_controller@45"])
        #expect(r.findings.first?.controller.className == "ListViewController")
    }

    @Test func aPopFurtherDownStillTakesTheMiddleAlongWithoutATwin() {
        // One tab: Root, List, Detail, List; the top List is popped to the List two levels down (no twin
        // of it on top of another stack): the Detail between goes with it, and its missing dealloc is a leak.
        let r = lint("""
        -[RootViewController viewDidLoad]
        -[RootViewController viewWillAppear:]
        -[RootViewController viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[RootViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[RootViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[DetailViewController viewDidLoad]
        -[ListViewController viewWillDisappear:]
        -[DetailViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[DetailViewController viewDidAppear:]
        -[ListViewController viewDidLoad]
        -[DetailViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[DetailViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ListViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ListViewController dealloc]
        """)
        #expect(r.summary == ["leaked_controller@21"])
        #expect(r.findings.first?.controller.className == "DetailViewController")
    }
}
