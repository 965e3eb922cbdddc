import Foundation
import Testing
@testable import VCLintCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SourceIndexTests {
    @Test func declarations() {
        func parse(_ s: String) -> String? { SourceIndex.declaredClass(Substring(s)).map { $0.0 } }
        #expect(parse("class HomeViewController: UIViewController {") == "HomeViewController")
        #expect(parse("final class HomeViewController: BaseViewController, UITableViewDelegate {") == "HomeViewController")
        #expect(parse("@MainActor public final class Home<T>: UIViewController") == "Home")
        #expect(parse("@objc(HVC) class HomeViewController: UIViewController") == "HomeViewController")
        #expect(parse("@implementation SecondViewController") == "SecondViewController")
        #expect(parse("@interface SecondViewController : BaseViewController") == "SecondViewController")
        #expect(parse("    class func make() -> Self") == nil)
        #expect(parse("let x = SomeClass()") == nil)
        #expect(SourceIndex.declaredClass("@interface X ()")?.1 == false)
    }

    func tree() throws -> String {
        let root = scratchRoot.appendingPathComponent("vclint-src-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("App/Screens"), withIntermediateDirectories: true)
        try "import UIKit\n\nfinal class ProductDetailViewController: UIViewController {}\n".write(to: root.appendingPathComponent("App/Screens/ProductDetail.swift"), atomically: true, encoding: .utf8)
        try "@interface Child1ViewController : UIViewController\n@end\n".write(to: root.appendingPathComponent("App/Child1.h"), atomically: true, encoding: .utf8)
        try "#import \"Child1.h\"\n\n@implementation Child1ViewController\n@end\n".write(to: root.appendingPathComponent("App/Child1.m"), atomically: true, encoding: .utf8)
        return root.path
    }

    @Test func locatesSwiftAndObjectiveCDeclarations() throws {
        let root = try tree()
        let found = SourceIndex.locate(["ProductDetailViewController", "Child1ViewController", "Missing"], under: root)
        #expect(found["ProductDetailViewController"] == Declaration(path: root + "/App/Screens/ProductDetail.swift", line: 3))
        #expect(found["Child1ViewController"] == Declaration(path: root + "/App/Child1.m", line: 3), "@implementation wins over @interface")
        #expect(found["Missing"] == nil)
    }

    /// Source files were read whole: a 300 MB sparse `Zeros.swift` took a minute and 640 MB. Now a
    /// file larger than 4 MiB is skipped with one note naming how many and the first, a FIFO named
    /// like a source is not opened for long (it blocked the run), and the other files are still read.
    @Test func largeAndSpecialSourceFilesAreSkipped() throws {
        let root = try tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["App/Zeros.swift", "App/Screens/Blob.m"] {
            let path = root + "/" + name
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, 300 << 20) == 0)
        }
        #expect(truncate(root + "/App/Child1.h", off_t(SourceIndex.maxFileBytes)) == 0)  // at the cap: still read
        #expect(mkfifo(root + "/App/Pipe.swift", 0o600) == 0)
        var notes: [String] = []
        let start = Date()
        let found = SourceIndex.locate(["ProductDetailViewController", "Child1ViewController"], under: root, note: { notes.append($0) })
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(found["ProductDetailViewController"] == Declaration(path: root + "/App/Screens/ProductDetail.swift", line: 3))
        #expect(found["Child1ViewController"] == Declaration(path: root + "/App/Child1.m", line: 3))
        #expect(notes == ["skipped 2 source files under \(root) larger than 4 MiB, which no Swift or Objective-C source is (first: \(root)/App/Screens/Blob.m); --source-root does not look for declarations in them"])
    }

    @Test(.requires(.jsonschema, for: "the SARIF schema validation")) func reportersPointAtTheDeclaration() throws {
        let root = try tree()
        var result = LintResult(files: [try lintFixture("Fixtures/flows/leak-pop.log")])
        result.attachDeclarations(under: root)
        let decl = root + "/App/Screens/ProductDetail.swift"
        #expect(XcodeReporter().report(result).contains("\n\(decl):3: note: ProductDetailViewController is declared here (leaked_controller)\n"))
        #expect(GitHubActionsReporter().report(result).hasPrefix("::error file=\(decl),line=3,title=leaked_controller::Fixtures/flows/leak-pop.log:26: "))
        let sarif = SARIFReporter().report(result)
        try SARIFReporterTests().expectValid(sarif)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let r = try #require(((doc["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let primary = (((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(primary?.hasSuffix("App/Screens/ProductDetail.swift") == true)
        let related = (r["relatedLocations"] as? [[String: Any]])?.first
        let relatedURI = ((related?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(relatedURI == "Fixtures/flows/leak-pop.log")
    }
}
