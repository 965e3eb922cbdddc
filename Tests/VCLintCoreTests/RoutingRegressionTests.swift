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
}
