import Foundation
import Testing
@testable import VCLintCore

/// The forgiving frame (docs/lifecycle.md#the-forgiving-frame): captures copied from consoles, web pages
/// and chat.
@Suite struct ForgivingFrameTests {
    func locate(_ line: String) -> (EnvelopeFormat?, Int) {
        var s = line
        return s.withUTF8 { b in
            let r = EnvelopeParser.locate(b.baseAddress!, b.count)
            return (r.format, r.skip)
        }
    }

    func parse(_ line: String) -> (EnvelopeInfo?, String) {
        var s = line
        return s.withUTF8 { b -> (EnvelopeInfo?, String) in
            let (f, skip) = EnvelopeParser.locate(b.baseAddress!, b.count)
            guard let f, let info = EnvelopeParser.parse(b.baseAddress! + skip, b.count - skip, format: f) else { return (nil, "") }
            let m = String(decoding: UnsafeBufferPointer(start: b.baseAddress! + skip + info.message.lowerBound, count: info.message.count), as: UTF8.self)
            return (info, m)
        }
    }

    /// Spaces of other scripts are read as spaces; a cut sequence is not one, and the byte after it
    /// stays itself (the CI fuzz run found `vc1 \xE2\x80einit` read as `vc1 init` by the full parser
    /// only: the candidate search, which sees `einit`, did not let it through).
    @Test func aSpaceScalarIsWholeOrNone() {
        func length(_ bytes: [UInt8]) -> Int {
            bytes.withUnsafeBufferPointer { MessageParser.spaceScalarLength($0.baseAddress!, 0, $0.count) }
        }
        #expect(length([0xE2, 0x80, 0x83]) == 3)  // EM SPACE
        #expect(length([0xE2, 0x80, 0xAF]) == 3)  // NARROW NO-BREAK SPACE
        #expect(length([0xE2, 0x81, 0x9F]) == 3)  // MEDIUM MATHEMATICAL SPACE
        #expect(length([0xC2, 0xA0]) == 2)
        #expect(length([0xE2, 0x80, 0x93]) == 0)  // EN DASH: not a space
        #expect(length([0xE2, 0x80, 0x65]) == 0)  // cut short, then `e`
        #expect(length([0xE2, 0x80, 0x20]) == 0)
        #expect(length([0xE2, 0x80]) == 0)
        let line = Array("vc1 ".utf8) + [0xE2, 0x80] + Array("einit".utf8)
        for prefilter in [true, false] {
            var o = LintOptions()
            o.prefilter = prefilter
            #expect(Linter(options: o).lint(bytes: line, path: "t").stats.events == 0, "prefilter \(prefilter)")
        }
    }

    @Test func partialEnvelopesAreEnvelopes() {
        let named = parse("Slide for Reddit[11950:4934813] Unbalanced calls")
        #expect(named.0?.format == .nslog && named.0?.pid == 11950 && named.1 == "Unbalanced calls")
        let pidOnly = parse("[7397:f803] -[FirstViewController viewDidLoad]")
        #expect(pidOnly.0?.pid == 7397 && pidOnly.0?.process == nil && pidOnly.1 == "-[FirstViewController viewDidLoad]")
        let timeOnly = parse("2017-02-11 17:25:16.964 viewDidLoad")
        #expect(timeOnly.0?.format == .nslog && timeOnly.0?.process == nil && timeOnly.0?.pid == nil && timeOnly.1 == "viewDidLoad")
        let shortYear = parse(" 020-04-28 23:36:34.728 locationconnection[1315:14103] RegisteredForRemoteNotifications")
        #expect(shortYear.0?.pid == 1315 && shortYear.1 == "RegisteredForRemoteNotifications")
        var line = Array("020-04-28 23:36:34.728 App[1:2] x".utf8)
        let t = line.withUnsafeMutableBufferPointer { b in
            EnvelopeParser.time(b.baseAddress!, b.count, info: EnvelopeInfo(format: .nslog, message: 0..<0))
        }
        #expect(t?.iso == "2020-04-28T23:36:34.728")
    }

    @Test func junkBeforeAnEnvelopeDoesNotHideIt() {
        for junk in ["\u{FEFF}", "\u{FFFC}", "\u{1F7E2} ", "\u{2022} ", "d\u{3001}", "   ", "\u{A0}"] {
            let (f, skip) = locate(junk + "2024-03-01 10:00:00.000 Shop[100:200] -[A viewDidLoad]")
            #expect(f == .nslog, "\(junk.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(skip == junk.utf8.count)
        }
        // Quote markers, as an issue or an e-mail quotes a capture, before the envelope or other junk.
        for quote in ["> ", ">> ", "> > ", ">", ">>> \u{2022} "] {
            let (f, skip) = locate(quote + "2031-07-09 08:15:00.250 Atlas[7:8] -[C viewWillAppear:]")
            #expect(f == .nslog, "\(quote)")
            #expect(skip == quote.utf8.count, "\(quote)")
        }
        #expect(locate("> Atlas[7:8] -[C viewWillAppear:]").0 == .nslog)
        #expect(locate("> quoted prose about viewDidLoad").0 == nil)
        #expect(locate(">>>>>>>>>>>>>>>>>>>> 2031-07-09 08:15:00.250 Atlas[7:8] x").0 == nil, "a run of markers is bounded")
        // An indented dictionary line of NSLog is no envelope, and stays a continuation.
        #expect(locate("    items = 12;").0 == nil)
        #expect(locate("    \"2024-03-01\" = 3;").0 == nil)
    }

    @Test func logcatIsItsOwnEnvelopeAndNeverNSLog() {
        for line in [
            "11-24 10:00:00.123  1234  5678 D MainActivity: onCreate",
            "2024-11-24 10:00:00.123  1234  5678 W Tag: -[HomeViewController viewDidLoad]",
            "2022-01-20 14:01:32.591 6937-6937/com.example.geoquiz D/MainActivity: onStart() called",
            "04-11 09:44:57.350 11757-11757/cn.hotwoo.play:remote I/MainActivity: onCreate",
            "D/MainActivity( 1234): onResume() called",
        ] {
            #expect(locate(line).0 == .logcat, "\(line)")
        }
        // A process name that starts with digits is NSLog's.
        #expect(locate("2013-07-01 18:11:00.421 7_1UIViewController[6679:907] Received memory warning.").0 == .nslog)
        let r = lint("11-24 10:00:00.123  1234  5678 D MainActivity: -[HomeViewController viewDidLoad]\n")
        #expect(r.stats.events == 0)
        #expect(r.stats.unrecognized == 0, "Android lines are read (as Android's), not unread")
    }

    @Test func ndjsonOnlyForJSONObjects() {
        #expect(locate(#"{"timestamp":"2024-03-01 10:00:00.000000+0000","eventMessage":"x"}"#).0 == .ndjson)
        #expect(locate("{(").0 == nil)
        #expect(locate("{").0 == nil)
        #expect(locate("(").0 == nil)
        #expect(locate("        \"-> __presentationControllerToNotifyOnLayoutSubviews -> _UIFullscreenPresentationController \",").0 == nil)
    }

    /// Xamarin prints `…App[1315:14103] ` and the message on the next line: the message is read in
    /// that envelope (its time and process), indented or not.
    @Test func emptyEnvelopeMessageContinuesOnTheNextLine() throws {
        let r = try lintFixture("Fixtures/formats/xamarin-continuation.log")
        #expect(r.stats.events == 5)
        #expect(r.findings.isEmpty, "\(r.summary)")
        var o = LintOptions()
        o.timeline.recordTimeline = true
        let rec = try #require(try lintFixture("Fixtures/formats/xamarin-continuation.log", options: o).timeline)
        #expect(rec.sessions.map(\.process) == ["locationconnection"])
        let loaded = rec.sessions[0].instances.first { $0.controller.className == "ChatOneActivity" }
        #expect(loaded?.callbacks.first?.stamp.time?.iso == "2020-04-28T23:36:34.844", "the envelope's time")
    }

    /// A capture quoted in an issue or an e-mail (`> `, `>> `, `> > `): the same events and findings as unquoted.
    @Test func quotedCaptureReadsAsTheCaptureItQuotes() throws {
        let quoted = try lintFixture("Fixtures/formats/quoted-capture.log")
        #expect(quoted.stats.events == 13)
        #expect(quoted.stats.unrecognized == 0)
        #expect(quoted.findings.isEmpty, "\(quoted.summary)")
        let lines = ["2031-07-09 08:15:00.100 Atlas[7:8] Ledger viewDidLoad", "2031-07-09 08:15:00.200 Atlas[7:8] Ledger viewWillAppear",
                     "2031-07-09 08:15:00.300 Atlas[7:8] Unbalanced calls to begin/end appearance transitions for <Ledger: 0x1c0>."]
        let plain = lint(lines.joined(separator: "\n") + "\n")
        for quote in ["> ", ">> ", "> > "] {
            let r = lint(lines.map { quote + $0 }.joined(separator: "\n") + "\n")
            #expect(r.summary == plain.summary, "\(quote)")
            #expect(r.stats.events == 3, "\(quote)")
        }
        #expect(plain.summary == ["uikit_unbalanced_transition@3"], "the flow has a finding to compare")
    }

    /// seed 000's capture as published: its last dealloc line ends in a space and U+00A0.
    @Test func seed000AsPublishedHasNoLeak() throws {
        let r = try lintFixture("Fixtures/seeds/navtest-seed000-published.log")
        #expect(r.findings.isEmpty, "\(r.summary)")
        #expect(r.stats.events == 24)
    }

    @Test func unicodeWhiteSpaceInsideAMessage() {
        let r = lint("-[HomeViewController\u{A0}viewDidLoad]\n\u{3000}HomeViewController\u{2003}viewWillAppear(_:)\u{A0}\nHomeViewController viewDidAppear(_:)\n")
        #expect(r.stats.events == 3)
        #expect(r.findings.isEmpty, "\(r.summary)")
    }

    /// UIKit's warnings in every form the captures show.
    @Test func uikitWarningsWhateverSurroundsThem() throws {
        let r = try lintFixture("Fixtures/formats/uikit-warning-forms.log")
        #expect(r.summary == ["uikit_presentation_conflict@1", "uikit_presentation_conflict@2", "uikit_unbalanced_transition@3",
                              "uikit_unbalanced_transition@4", "uikit_presentation_conflict@5"])
        #expect(r.findings[0].controller.className == "SFAuthenticationViewController")
        #expect(r.findings[1].controller.className == "UIAlertController", "the presenter elided: the presented one is named")
        // Without brackets, as a web page leaves them: the fixture, then forms with names no fixture uses.
        let bare = try lintFixture("Fixtures/formats/uikit-warning-bare.log")
        #expect(bare.summary == ["uikit_unbalanced_transition@3", "uikit_unbalanced_transition@5", "uikit_presentation_conflict@6",
                                 "uikit_presentation_conflict@7", "uikit_presentation_conflict@8"])
        #expect(bare.findings.map(\.controller.className) == ["NavViewController", "TabsViewController", "NavViewController",
                                                              "NavViewController", "NavViewController"])
        for (line, kind, cls, address) in [
            ("Unbalanced calls to begin/end appearance transitions for LedgerViewController: 0x9a0.", EventKind.uikitUnbalancedTransition, "LedgerViewController", UInt64(0x9a0)),
            ("Unbalanced calls to begin/end appearance transitions for Vault.LedgerViewController.", .uikitUnbalancedTransition, "LedgerViewController", nil),
            ("Unbalanced calls to begin/end appearance transitions for <LedgerViewController>.", .uikitUnbalancedTransition, "LedgerViewController", nil),
            ("Attempt to present QuoteSheet: 0xb1 on LedgerViewController: 0x9a0 (from LedgerViewController: 0x9a0) whose view is not in the window hierarchy.",
             .uikitPresentationConflict, "LedgerViewController", 0x9a0),
            ("Warning: Attempt to present QuoteSheet on LedgerViewController whose view is not in the window hierarchy!", .uikitPresentationConflict, "LedgerViewController", nil),
            ("Attempt to present QuoteSheet on LedgerViewController which is already presenting ReceiptSheet", .uikitPresentationConflict, "LedgerViewController", nil),
            ("Attempt to dismiss from view controller LedgerViewController while a presentation or dismiss is in progress!", .uikitPresentationConflict, "LedgerViewController", nil),
        ] {
            let e = try #require(MessageParser().parse(line), "\(line)")
            #expect(e.kind == kind, "\(line)")
            #expect(e.className == cls, "\(line)")
            #expect(e.address == address, "\(line)")
        }
        // Not UIKit's wording: SwiftUI's exception text, and sentences about the warning.
        for noise in [
            "reason: 'Application tried to present modally a view controller <PresentationHostingController: 0x10e118400> that is already being presented by",
            "[Support] known issue: Unbalanced calls to begin/end appearance transitions when pushing twice",
            "[Router] Attempt to present login again after 3 retries",
            "Unbalanced calls to begin/end appearance transitions for the ledger screen after rotation.",
            "Attempt to present QuoteSheet on LedgerViewController because the user tapped twice",
        ] {
            #expect(MessageParser().parse(noise) == nil, "\(noise)")
        }
    }
}
