/// The JSON Schema of `.vclint.yml` (docs/schemas/vclint-yml.schema.json), made from the settings
/// table and the rule registry, so that it cannot disagree with the parser: each setting's key with
/// its meaning and its kind's schema, and each rule id with a section of its severity and its
/// parameters. Editors that read YAML against a schema (VS Code's YAML extension, JetBrains IDEs)
/// complete and check the file with it (docs/configuration.md#editor-support).
public enum ConfigurationSchema {
    /// Where the schema is published in the repository.
    public static let path = "docs/schemas/vclint-yml.schema.json"

    public static var document: JSONValue {
        var properties: [(String, JSONValue)] = Setting.all.map { setting in
            (setting.key, merged(setting.kind.schema, description: setting.meaning))
        }
        for d in RuleRegistry.descriptions {
            var section: [(String, JSONValue)] = [
                ("severity", .object([("enum", .array([.string("error"), .string("warning"), .string("info")])),
                                      ("description", .string("error fails the run, warning fails it with --strict, info never does"))])),
            ]
            for p in Setting.parameters(of: d.identifier) { section.append((p.key, merged(p.kind.schema, description: p.meaning))) }
            properties.append((d.identifier, .object([
                ("type", .string("object")), ("description", .string("\(d.name): \(d.summary)")),
                ("additionalProperties", .bool(false)), ("properties", .object(section)),
            ])))
        }
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string(".vclint.yml")),
            ("description", .string("vclint's configuration file (docs/configuration.md). Generated from vclint's settings table and rule registry: do not edit.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("properties", .object(properties)),
        ])
    }

    /// The file's text.
    public static var text: String { document.serialized(pretty: true) + "\n" }

    private static func merged(_ schema: JSONValue, description: String) -> JSONValue {
        guard case .object(let pairs) = schema else { return schema }
        return .object([("description", .string(description))] + pairs)
    }
}
