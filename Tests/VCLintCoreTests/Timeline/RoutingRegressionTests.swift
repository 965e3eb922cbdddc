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

    /// Three tabs, each logged as UIKit orders a switch: tab 0 holds Root, Detail; tab 2 holds Root, Detail;
    /// from tab 1 the switch to tab 0 shows one of the two Detail tops, which the log cannot tell apart (the
    /// one active last is taken: tab 2's). An Item is pushed over it, and a pop to tab 0's root then shows
    /// which Detail it was: the Detail the Item stands on takes its twin's place, and goes with the pop.
    static let popToRootAcrossTwins = """
        -[Tab0RootViewController viewDidLoad]
        -[Tab0RootViewController viewWillAppear:]
        -[Tab0RootViewController viewDidAppear:]
        -[DetailViewController viewDidLoad]
        -[Tab0RootViewController viewWillDisappear:]
        -[DetailViewController viewWillAppear:]
        -[Tab0RootViewController viewDidDisappear:]
        -[DetailViewController viewDidAppear:]
        -[Tab2RootViewController viewDidLoad]
        -[Tab2RootViewController viewWillAppear:]
        -[DetailViewController viewWillDisappear:]
        -[DetailViewController viewDidDisappear:]
        -[Tab2RootViewController viewDidAppear:]
        -[DetailViewController viewDidLoad]
        -[Tab2RootViewController viewWillDisappear:]
        -[DetailViewController viewWillAppear:]
        -[Tab2RootViewController viewDidDisappear:]
        -[DetailViewController viewDidAppear:]
        -[Tab1RootViewController viewDidLoad]
        -[Tab1RootViewController viewWillAppear:]
        -[DetailViewController viewWillDisappear:]
        -[DetailViewController viewDidDisappear:]
        -[Tab1RootViewController viewDidAppear:]
        -[DetailViewController viewWillAppear:]
        -[Tab1RootViewController viewWillDisappear:]
        -[Tab1RootViewController viewDidDisappear:]
        -[DetailViewController viewDidAppear:]
        -[ItemViewController viewDidLoad]
        -[DetailViewController viewWillDisappear:]
        -[ItemViewController viewWillAppear:]
        -[DetailViewController viewDidDisappear:]
        -[ItemViewController viewDidAppear:]
        -[ItemViewController viewWillDisappear:]
        -[Tab0RootViewController viewWillAppear:]
        -[Tab0RootViewController viewDidAppear:]
        -[ItemViewController viewDidDisappear:]
        -[ItemViewController dealloc]
        """

    @Test func aPopToRootAcrossTwinsTakesTheDetailBelowAlong() {
        let r = lint(Self.popToRootAcrossTwins + "\n-[DetailViewController dealloc]")
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    @Test func theDetailBelowAPopToRootAcrossTwinsLeaksWhenItNeverDeallocates() {
        // Without the Detail's dealloc: the one taken along by the pop (line 36) leaked; the Detail on top of
        // tab 2 stays.
        let r = lint(Self.popToRootAcrossTwins)
        #expect(r.summary == ["leaked_controller@36"])
        #expect(r.findings.first?.controller.className == "DetailViewController")
    }

    @Test func anAppearanceWhoseDidWasMissedLeavesBeforeOneJustArriving() {
        // Tab 1 holds List, Item; tab 0 gets Detail, then an Item whose viewDidAppear is missing (line 16); the
        // switch back to tab 1 shows its Item (will-appear first, UIKit's order), and the Item that leaves is
        // tab 0's, on screen though its viewDidAppear was never logged: one finding, that one.
        let r = lint("""
        -[ListViewController viewDidLoad]
        -[ListViewController viewWillAppear:]
        -[ListViewController viewDidAppear:]
        -[ItemViewController viewDidLoad]
        -[ListViewController viewWillDisappear:]
        -[ItemViewController viewWillAppear:]
        -[ListViewController viewDidDisappear:]
        -[ItemViewController viewDidAppear:]
        -[DetailViewController viewDidLoad]
        -[DetailViewController viewWillAppear:]
        -[ItemViewController viewWillDisappear:]
        -[ItemViewController viewDidDisappear:]
        -[DetailViewController viewDidAppear:]
        -[ItemViewController viewDidLoad]
        -[DetailViewController viewWillDisappear:]
        -[ItemViewController viewWillAppear:]
        -[DetailViewController viewDidDisappear:]
        -[ItemViewController viewWillAppear:]
        -[ItemViewController viewWillDisappear:]
        -[ItemViewController viewDidDisappear:]
        -[ItemViewController viewDidAppear:]
        -[ItemViewController viewWillDisappear:]
        -[ListViewController viewWillAppear:]
        -[ItemViewController viewDidDisappear:]
        -[ListViewController viewDidAppear:]
        -[ItemViewController dealloc]
        """)
        #expect(r.summary == ["missing_did_appear@16"])
    }
}
