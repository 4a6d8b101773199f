import SwiftCompilerPlugin
import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// Expands `@Model final class Book { … }` as SwiftData's `@Model` does, onto ObjectGraph:
///
/// - each stored `var` not marked `@Transient` gets `@_PersistedProperty`, which turns it into
///   accessors over the model's backing data (see ``PersistedPropertyMacro``);
/// - the class gains `_$backingData` (the model's backing data, stored in it),
///   `_$observationRegistrar`,
///   `init(backingData:)` and `schemaMetadata` (one entry per
///   persisted property, with its `@Attribute`/`@Relationship` options);
/// - an extension makes the class conform to `PersistentModel`.
public struct ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let type = declaration.as(ClassDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@Model applies to a class, e.g. `@Model final class Book { … }`")
        }
        let access = accessModifier(of: type)
        let properties = persistedProperties(of: declaration)
        for property in properties where property.type == nil {
            context.diagnose(
                Diagnostic(
                    node: property.node,
                    message: MacroExpansionErrorMessage("@Model needs an explicit type on '\(property.name)', e.g. `var \(property.name): Int = 0`")
                )
            )
        }
        let typeName = type.name.trimmedDescription
        // Initializing the placeholders directly (not through the properties' init accessors)
        // also skips the properties' default values: a fetched model's values are the store's.
        let initialisations = properties.map { "self._$\($0.name) = ObjectGraphData._PersistedPropertyPlaceholder()" }.joined(separator: "\n")
        let metadata = properties.map { property in
            "ObjectGraphData.Schema.PropertyMetadata(name: \(literal(property.name)), keypath: \\\(typeName).\(property.name), metadata: \(property.metadata))"
        }.joined(separator: ",\n")
        return [
            // Stored in the model (a value: no allocation of its own); its initial value is
            // empty, and allocates nothing, so `init(backingData:)` replacing it costs little.
            // Unchecked: every property read accesses it, and a model is used by one thread at
            // a time (it is not Sendable).
            "@exclusivity(unchecked) \(raw: access)var _$backingData = ObjectGraphData._ModelBacking()",
            // The model's observers, as `@Observable` keeps them: a `let` of the class, which a
            // read passes to Observation without copying it.
            "\(raw: access)let _$observationRegistrar = ObjectGraphData._ModelBacking.makeObservationRegistrar()",
            """
            \(raw: access)required init(backingData: ObjectGraphData._ModelBacking) {
                self._$backingData = backingData
                \(raw: initialisations)
            }
            """,
            """
            \(raw: access)static var schemaMetadata: [ObjectGraphData.Schema.PropertyMetadata] {
                [\(raw: metadata)]
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let variable = member.as(VariableDeclSyntax.self), isPersisted(variable) else { return [] }
        return ["@_PersistedProperty"]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(ClassDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): ObjectGraphData.PersistentModel {}")]
    }

    // MARK: Reading the class

    /// A persisted property as the member macro sees it.
    struct Property {
        let name: String
        let type: TypeSyntax?
        /// The `Schema.Attribute(…)`/`Schema.Relationship(…)` expression, or `nil`.
        let metadata: String
        let node: VariableDeclSyntax
    }

    /// `public `/`open `/`package ` when the class has it, so the conformance's members match.
    static func accessModifier(of type: ClassDeclSyntax) -> String {
        for modifier in type.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// Whether `variable` is a stored instance `var` the model persists.
    static func isPersisted(_ variable: VariableDeclSyntax) -> Bool {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var), variable.bindings.count == 1,
            let binding = variable.bindings.first, binding.pattern.is(IdentifierPatternSyntax.self)
        else { return false }
        for modifier in variable.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.static), .keyword(.class), .keyword(.lazy), .keyword(.override): return false
            default: continue
            }
        }
        // A computed property, or one with observers, which `@Model` leaves as it is.
        if binding.accessorBlock != nil { return false }
        let name = binding.pattern.trimmedDescription
        if name.hasPrefix("_$") { return false }
        return !hasAttribute(variable, named: "Transient") && !hasAttribute(variable, named: "_PersistedProperty")
    }

    static func hasAttribute(_ variable: VariableDeclSyntax, named name: String) -> Bool {
        attribute(of: variable, named: name) != nil
    }

    static func attribute(of variable: VariableDeclSyntax, named name: String) -> AttributeSyntax? {
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { continue }
            let written = attribute.attributeName.trimmedDescription
            if written == name || written == "ObjectGraphData.\(name)" || written == "SwiftData.\(name)" { return attribute }
        }
        return nil
    }

    static func persistedProperties(of declaration: some DeclGroupSyntax) -> [Property] {
        declaration.memberBlock.members.compactMap { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self), isPersisted(variable),
                let binding = variable.bindings.first
            else { return nil }
            let name = binding.pattern.trimmedDescription.filter { $0 != "`" }
            var metadata = "nil"
            if let attribute = attribute(of: variable, named: "Attribute") {
                metadata = "ObjectGraphData.Schema.Attribute(\(attribute.arguments?.trimmedDescription ?? ""))"
            } else if let relationship = attribute(of: variable, named: "Relationship") {
                metadata = "ObjectGraphData.Schema.Relationship(\(relationship.arguments?.trimmedDescription ?? ""))"
            }
            return Property(name: name, type: binding.typeAnnotation?.type, metadata: metadata, node: variable)
        }
    }

    static func literal(_ text: String) -> String {
        var escaped = "\""
        for character in text {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "\""
    }
}

/// `@Attribute(…)`, `@Relationship(…)` and `@Transient`: markers `@Model` reads; they expand
/// to nothing themselves, as SwiftData's do.
public struct SchemaMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

@main
struct ObjectGraphDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        ModelMacro.self, PersistedPropertyMacro.self, SchemaMarkerMacro.self, ModelActorMacro.self, ConstraintMacro.self,
    ]
}
