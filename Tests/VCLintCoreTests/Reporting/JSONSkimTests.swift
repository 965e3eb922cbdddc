import Foundation
import Testing
@testable import VCLintCore

/// `JSONSkim` reads reports back a piece at a time; it must accept exactly the documents Foundation's
/// parser accepts and give each member the value Foundation gives it in the whole document.
@Suite struct JSONSkimTests {
    static func foundation(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    static func skim(_ bytes: [UInt8]) -> JSONSkim? {
        guard let s = try? JSONSkim(checking: bytes), s.isObject(s.root) else { return nil }
        return s
    }

    /// The same value (a literal read alone is an NSNumber where Foundation's arrays hold a Bool: the
    /// same to every `as?` the readers make, told apart only by NSArray's equality).
    static func same(_ a: Any, _ b: Any) -> Bool {
        NSArray(array: [a]).isEqual(to: [b]) || (!(a is [Any]) && !(a is [String: Any]) && "\(a)" == "\(b)")
    }

    /// Every member and every element, read by its range, is what the whole document holds there.
    static func expectSameValues(_ bytes: [UInt8], _ whole: [String: Any], _ skim: JSONSkim, _ comment: Comment) {
        let members = skim.members(skim.root)
        #expect(Set(members.keys) == Set(whole.keys), comment)
        for (key, range) in members {
            let piece = skim.value(range)
            #expect(piece.map { same($0, whole[key] as Any) } == true, "\(key): \(comment)")
            if skim.isArray(range), let array = whole[key] as? [Any] {
                let elements = skim.elements(range)
                #expect(elements.count == array.count, comment)
                for (e, a) in zip(elements, array) {
                    #expect(skim.value(e).map { same($0, a) } == true, "\(key)[]: \(String(decoding: bytes[e], as: UTF8.self)) is \(String(describing: skim.value(e))), not \(a): \(comment)")
                }
            }
        }
    }

    static let documents: [String] = [
        #"{}"#, #" { } "#, "\u{FEFF}{\"a\": 1}", #"{"a": [], "b": {}, "c": [[]], "d": [{}]}"#,
        #"{"a": 1, "a": 2}"#, #"{"\u0074ool": "x", "t\"o": [1, -0, 0.5, -1.5e3, 2E+2, 3e-1, true, false, null]}"#,
        #"{"a": "\ud83d\ude00 \u00e9 \/ \b\f\n\r\t", "b": "é😀"}"#, #"{"nested": {"x": [{"y": [1, {"z": null}]}]}}"#,
        // Not JSON, or not an object; and what Foundation allows beyond JSON (one comma before a closer).
        "", " ", "[]", "1", #""s""#, "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a": 1,}"#, #"{"a": [1,]}"#, #"{"a": [1, ], "b": {"c": 2 , } , }"#, #"{"a": [,]}"#, #"{"a": [1,,]}"#,
        #"{"a": 1,,}"#, #"{"a": [1 2]}"#,
        #"{a: 1}"#, #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": .5}"#, #"{"a": -}"#, #"{"a": 1e}"#, #"{"a": +1}"#,
        #"{"a": tru}"#, #"{"a": nul}"#, #"{"a": "x}"#, "{\"a\": \"\u{01}\"}", #"{"a": "\x"}"#, #"{"a": "\u12"}"#,
        #"{"a": 1} x"#, #"{"a": 1}{}"#, #"{"a": [}"#, #"{"a": {]}"#, #"{"a" 1}"#, #"{"a": 1 "b": 2}"#, #"{,}"#,
        #"{"a": [,1]}"#, #"{"a": NaN}"#, #"{"a": Infinity}"#, "{\"a\": 1}\u{0}",
    ]

    @Test func acceptsWhatFoundationAcceptsAndReadsTheSameValues() {
        for text in Self.documents {
            let bytes = Array(text.utf8)
            let whole = Self.foundation(bytes)
            let skim = Self.skim(bytes)
            #expect((whole != nil) == (skim != nil), "\(text.debugDescription): Foundation \(whole != nil), skim \(skim != nil)")
            if let whole, let skim { Self.expectSameValues(bytes, whole, skim, "\(text.debugDescription)") }
        }
    }

    /// A real report, cut and changed a byte at a time: the skim refuses what Foundation refuses and
    /// reads what it reads. (Bytes are drawn from JSON's own characters, which are UTF-8 wherever they
    /// land: what is not UTF-8 is refused when the piece holding it is read.)
    @Test func mutatedReportsAgreeWithFoundation() throws {
        let result = try lintFixture("Fixtures/seeds/navtest-missing-dealloc.log")
        let report = Array(JSONReporter(configuration: RunConfiguration(options: LintOptions())).report(LintResult(files: [result])).utf8)
        #expect(Self.skim(report) != nil)
        let alphabet = Array(#"{}[]:,"\ 0-1.eE+tfnulx"#.utf8)
        var state: UInt64 = 2026
        func next() -> UInt64 {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var disagreements: [String] = []
        for trial in 0..<3000 {
            var b = report
            switch trial % 4 {
            case 0: b.removeSubrange(Int(next() % UInt64(b.count))...)
            case 1: b.remove(at: Int(next() % UInt64(b.count)))
            case 2: b[Int(next() % UInt64(b.count))] = alphabet[Int(next() % UInt64(alphabet.count))]
            default: b.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: Int(next() % UInt64(b.count + 1)))
            }
            let whole = Self.foundation(b)
            let skim = Self.skim(b)
            if (whole != nil) != (skim != nil) {
                disagreements.append(String(decoding: b, as: UTF8.self))
            } else if let whole, let skim {
                Self.expectSameValues(b, whole, skim, "trial \(trial)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, the first: \(disagreements.first ?? "")")
    }

    /// Nesting is followed without recursion: a hostile depth is refused, not a stack overflow.
    @Test func deepNestingIsRefusedWithoutRecursion() {
        let deep = Array(("{\"a\": " + String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000) + "}").utf8)
        #expect(Self.skim(deep) == nil)
        let fine = Array(("{\"a\": " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}").utf8)
        #expect(Self.skim(fine) != nil)
    }

    /// The readers built on it refuse what is not JSON as they did, and read a report's pieces.
    @Test func readersRefuseBrokenReports() throws {
        let result = try lintFixture("Fixtures/seeds/navtest-missing-dealloc.log")
        let json = JSONReporter(configuration: RunConfiguration(options: LintOptions())).report(LintResult(files: [result]))
        let back = try LoadedReport.parse(Data(json.utf8), path: "a.json")
        #expect(back.result.files.flatMap(\.findings).map(\.fingerprint) == result.findings.map(\.fingerprint))
        // A finding's string that is not UTF-8 is refused as the whole document was.
        var bytes = Array(json.utf8)
        let key = Array("\"fingerprint\": \"".utf8)
        let found = bytes.indices.first { (i: Int) -> Bool in bytes[i...].starts(with: key) }
        let at = try #require(found)
        bytes.insert(0xFF, at: at + key.count)
        #expect(throws: ReportReadError.Reason.self) { try LoadedReport.parse(Data(bytes), path: "a.json") }
        #expect(throws: ReportReadError.Reason.self) { try LoadedReport.parse(Data(json.dropLast(2).utf8), path: "a.json") }
    }
}
