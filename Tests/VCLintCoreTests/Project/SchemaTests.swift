import Foundation
import Testing
@testable import VCLintCore

/// The machine-readable contracts in docs/schemas: the JSON report's schema holds for every report
/// vclint writes (the fixtures' goldens, the command line's with its configuration, a baseline, a
/// source root, a merge), and `.vclint.yml`'s schema, made from the settings table and the rule
/// registry, takes every configuration the docs show and the starter `vclint init` writes.
@Suite(.serialized) struct SchemaTests {
    static let reportSchema = packageRoot.appendingPathComponent("docs/schemas/report.schema.json")
    static let configSchema = packageRoot.appendingPathComponent(ConfigurationSchema.path)

    @Test func theConfigurationSchemaIsTheSettingsTables() throws {
        let current = try String(contentsOf: Self.configSchema, encoding: .utf8)
        if ProcessInfo.processInfo.environment["VCLINT_UPDATE_DOCS"] == "1", current != ConfigurationSchema.text {
            try ConfigurationSchema.text.write(to: Self.configSchema, atomically: true, encoding: .utf8)
        }
        #expect(current == ConfigurationSchema.text, "\(ConfigurationSchema.path) is generated: VCLINT_UPDATE_DOCS=1 swift test --filter SchemaTests")
        let object = try JSONSerialization.jsonObject(with: Data(ConfigurationSchema.text.utf8)) as? [String: Any]
        let properties = try #require(object?["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(Setting.all.map(\.key) + RuleRegistry.identifiers))
    }

    /// Validates JSON documents against a schema (draft 2020-12) with python3's jsonschema; the
    /// failures, a line each.
    static func invalid(_ documents: [URL], schema: URL) throws -> String {
        let script = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        bad = 0
        for path in sys.argv[2:]:
            for e in list(validator.iter_errors(json.load(open(path, encoding="utf-8"))))[:3]:
                bad += 1
                print(path, list(e.absolute_path), e.message[:200])
        sys.exit(1 if bad else 0)
        """
        let r = try python(script, [schema.path] + documents.map(\.path))
        return r.status == 0 ? "" : r.output
    }

    @Test(.requires(.jsonschema, for: "the JSON report's schema validation"))
    func everyReportFollowsTheReportSchema() throws {
        var documents: [URL] = []
        let fixtures = packageRoot.appendingPathComponent("Fixtures")
        let walker = FileManager.default.enumerator(atPath: fixtures.path)
        while let rel = walker?.nextObject() as? String {
            guard rel.hasSuffix(".expected.json") else { continue }
            let url = fixtures.appendingPathComponent(rel)
            if (try? String(contentsOf: url, encoding: .utf8))?.contains("\"violations\"") == true { documents.append(url) }
        }
        #expect(documents.count > 60)
        // The command line's, with its configuration, a baseline, the declarations and a merge.
        let dir = scratchRoot.appendingPathComponent("vclint-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cli = CLITests()
        func report(_ name: String, _ args: [String]) throws {
            let file = dir.appendingPathComponent(name)
            let r = try cli.run(["lint"] + args + ["--reporter", "json:\(file.path)"])
            #expect(r.status == 0 || r.status == 1, "\(args): \(r.stderr)")
            documents.append(file)
        }
        try report("plain.json", ["Fixtures/flows/leak-pop.log", "Fixtures/objects/late-object.log"])
        let baseline = dir.appendingPathComponent("baseline.json")
        #expect(try cli.run(["baseline", "create", "Fixtures/flows/leak-pop.log", "--output", baseline.path]).status == 0)
        try report("baselined.json", ["Fixtures/flows/leak-pop.log", "--baseline", baseline.path])
        try report("declared.json", ["Fixtures/flows/leak-pop.log", "--source-root", "Fixtures"])
        try report("shard.json", ["Fixtures/seeds/navtest-missing-dealloc.log"])
        let merged = dir.appendingPathComponent("merged.json")
        let m = try cli.run(["merge", dir.appendingPathComponent("plain.json").path, dir.appendingPathComponent("shard.json").path,
                             "--reporter", "json:\(merged.path)"])
        #expect(m.status == 1, "\(m.stderr)")
        documents.append(merged)
        let failures = try Self.invalid(documents, schema: Self.reportSchema)
        #expect(failures.isEmpty, "\(failures)")
        // The schema does reject a report that breaks it (so a pass means something).
        let broken = dir.appendingPathComponent("broken.json")
        let text = try String(contentsOf: dir.appendingPathComponent("plain.json"), encoding: .utf8)
        try text.replacingOccurrences(of: "\"severity\": \"error\"", with: "\"severity\": \"fatal\"").write(to: broken, atomically: true, encoding: .utf8)
        #expect(!(try Self.invalid([broken], schema: Self.reportSchema)).isEmpty)
    }

    /// The configurations to check: the starter with every line it comments out turned on, and each
    /// YAML example of docs/configuration.md that is a whole configuration.
    static func configurations() throws -> [(name: String, text: String)] {
        let starter = Configuration.starter.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            // `#key: value` lines are settings turned off; `# …` lines are comments.
            line.hasPrefix("#") && !line.hasPrefix("# ") && line != "#" ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        var out = [("the starter, every line on", starter)]
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        for (i, block) in docs.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
            let yaml = block.components(separatedBy: "```").first ?? ""
            out.append(("docs/configuration.md yaml block \(i + 1)", yaml))
        }
        return out
    }

    @Test(.requires(.checkJSONSchema, for: "the .vclint.yml schema validation"))
    func theDocumentedConfigurationsFollowTheConfigurationSchema() throws {
        let dir = scratchRoot.appendingPathComponent("vclint-yml-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var checked = 0
        for (k, c) in try Self.configurations().enumerated() {
            // Only what vclint itself accepts is held to the schema (the docs also show wrong files).
            guard (try? Configuration.parse(c.text, path: ".vclint.yml")) != nil else { continue }
            let file = dir.appendingPathComponent("config-\(k).yml")
            try c.text.write(to: file, atomically: true, encoding: .utf8)
            let r = try ActionTests.exec(ActionTests.checkJSONSchema + ["--schemafile", Self.configSchema.path, file.path])
            #expect(r.status == 0, "\(c.name): \(r.out)\(r.err)")
            checked += 1
        }
        #expect(checked >= 4)
        // And it rejects what vclint rejects: an unknown key, a severity that is none, a negative grace.
        for wrong in ["leak_grace_seconds: -1\n", "leaked_controller: {severity: fatal}\n", "leak_grace: 3\n", "disabled_rules: [leaked_controler]\n"] {
            #expect((try? Configuration.parse(wrong, path: ".vclint.yml")) == nil, "\(wrong)")
            let file = dir.appendingPathComponent("wrong.yml")
            try wrong.write(to: file, atomically: true, encoding: .utf8)
            #expect(try ActionTests.exec(ActionTests.checkJSONSchema + ["--schemafile", Self.configSchema.path, file.path]).status != 0, "\(wrong)")
        }
    }
}
