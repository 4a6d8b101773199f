import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// Turns a `@Model` class's stored property into accessors over its backing data, as
/// SwiftData's `@_PersistedProperty` does.
///
/// `var title: String` becomes an init accessor (so `self.title = title` in the class's own
/// initializer, and a default value `= ""`, set the new model's value), a getter and a setter
/// that read and write `_$backingData` under the key `"title"`, telling the model's observers
/// under `\.title`. A peer `_$title` of the empty struct `_PersistedPropertyPlaceholder` is
/// what the init accessor initializes: definite initialization then makes every initializer
/// set the property (an optional one is `nil` unless set, as a stored optional is), and an
/// assignment before `self` is fully initialized goes to the init accessor — the value kept
/// in the new model's backing data — not to the setter. (A `Void` peer would count as
/// initialized from the start: an initializer could leave a property unset, and every
/// assignment took the setter.) A static peer `_$slot_title` is where the accessors find the
/// property's slot (through which properties of attributes' own Swift types are read and
/// written typed), and `_$keyPath_title` the key path they tell the observers (a key-path
/// literal in an accessor asks the runtime for it on every call).
public struct PersistedPropertyMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = propertyName(declaration) else { return [] }
        let key = ModelMacro.literal(name)
        return [
            """
            @storageRestrictions(initializes: _$\(raw: name), accesses: _$backingData)
            init(initialValue) {
                _$backingData.setInitialValue(initialValue, forKey: \(raw: key), slot: Self._$slot_\(raw: name))
                _$\(raw: name) = ObjectGraphData._PersistedPropertyPlaceholder()
            }
            """,
            // A read works on the stored backing in place (its getValue is mutating: a read
            // marks the model as observable); a change goes through the static setValue, which
            // tells the observers outside any access to the backing.
            "get { _$backingData.getValue(forKey: \(raw: key), slot: Self._$slot_\(raw: name), of: self, Self._$keyPath_\(raw: name)) }",
            "set { ObjectGraphData._ModelBacking.setValue(newValue, forKey: \(raw: key), slot: Self._$slot_\(raw: name), of: self, Self._$keyPath_\(raw: name)) }",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let name = propertyName(declaration) else { return [] }
        guard let type = context.lexicalContext.lazy.compactMap({ $0.as(ClassDeclSyntax.self) }).first else {
            throw MacroExpansionErrorMessage("@_PersistedProperty applies to a stored property of a @Model class")
        }
        return [
            "private var _$\(raw: name): ObjectGraphData._PersistedPropertyPlaceholder",
            "private static let _$slot_\(raw: name) = ObjectGraphData._PropertySlot(\(raw: ModelMacro.literal(name)))",
            "private static let _$keyPath_\(raw: name) = \\\(raw: type.name.trimmedDescription).\(raw: name)",
        ]
    }

    static func propertyName(_ declaration: some DeclSyntaxProtocol) -> String? {
        guard let variable = declaration.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else { return nil }
        return identifier.identifier.trimmedDescription.filter { $0 != "`" }
    }
}

/// `@ModelActor actor Importer {}`: an actor whose work runs with its own `ModelContext`, as
/// SwiftData's `@ModelActor`. Adds `modelContainer`, `modelExecutor` and
/// `init(modelContainer:)`, and the `ModelActor` conformance.
public struct ModelActorMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(ActorDeclSyntax.self) else {
            throw MacroExpansionErrorMessage("@ModelActor applies to an actor, e.g. `@ModelActor actor Importer {}`")
        }
        var access = ""
        for modifier in declaration.modifiers where modifier.name.tokenKind == .keyword(.public) { access = "public " }
        return [
            "\(raw: access)nonisolated let modelExecutor: any ObjectGraphData.ModelExecutor",
            "\(raw: access)nonisolated let modelContainer: ObjectGraphData.ModelContainer",
            """
            \(raw: access)init(modelContainer: ObjectGraphData.ModelContainer) {
                self.modelExecutor = ObjectGraphData.DefaultSerialModelExecutor(modelContext: ObjectGraphData.ModelContext(modelContainer))
                self.modelContainer = modelContainer
            }
            """,
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(type.trimmed): ObjectGraphData.ModelActor {}")]
    }
}
