import SwiftCompilerPlugin
import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// Expands `@Managed var title: String?` into accessors that read and write the managed
/// object's storage under the key `"title"`, so a property's name is typed once;
/// `@Managed("type") var kind: String?` uses the key `"type"`.
///
/// Beside the property it declares `private static let _managedSlot_title =
/// ManagedPropertySlot("title")`, which the accessors pass: it remembers the property's slot,
/// so a getter or setter does not look its key up by name on every call.
public struct ManagedMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        let (name, _) = try property(of: node, declaration)
        // A `Set<Element>` property names its element type, so that a to-many relationship's
        // getter builds the set of its destination's class directly (see `_managedSet`).
        let getter: AccessorDeclSyntax =
            if let element = setElementType(of: declaration) {
                "get { _managedSet(Self.\(raw: slotName(name)), of: \(raw: element).self) }"
            } else {
                "get { _managedValue(Self.\(raw: slotName(name))) }"
            }
        return [getter, "set { _setManagedValue(newValue, Self.\(raw: slotName(name))) }"]
    }

    /// The element type of a property declared `Set<Element>` (or `Swift.Set<Element>`).
    private static func setElementType(of declaration: some DeclSyntaxProtocol) -> String? {
        guard let type = declaration.as(VariableDeclSyntax.self)?.bindings.first?.typeAnnotation?.type else { return nil }
        let clause: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Set" {
            clause = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.name.text == "Set", member.baseType.trimmedDescription == "Swift" {
            clause = member.genericArgumentClause
        } else {
            return nil
        }
        guard let arguments = clause?.arguments, arguments.count == 1, let element = arguments.first else { return nil }
        return element.argument.trimmedDescription
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // A misplaced `@Managed` is reported once, by the accessor expansion.
        guard let (name, key) = try? property(of: node, declaration) else { return [] }
        return ["private static let \(raw: slotName(name)) = ManagedPropertySlot(\(literal: key))"]
    }

    /// The name of the slot cache declared beside the property `name`.
    private static func slotName(_ name: String) -> String { "_managedSlot_" + name }

    /// The property's Swift name (without backticks) and its model key.
    private static func property(
        of node: AttributeSyntax,
        _ declaration: some DeclSyntaxProtocol
    ) throws -> (name: String, key: String) {
        guard let variable = declaration.as(VariableDeclSyntax.self),
            variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let identifier = binding.pattern.as(IdentifierPatternSyntax.self)
        else {
            throw MacroExpansionErrorMessage("@Managed applies to a single stored `var` of a ManagedObject subclass")
        }
        if binding.typeAnnotation == nil {
            throw MacroExpansionErrorMessage("@Managed needs an explicit type, e.g. `@Managed var title: String?`")
        }
        if binding.initializer != nil {
            throw MacroExpansionErrorMessage("@Managed properties take their default from the model, not from an initializer")
        }
        let name = String(identifier.identifier.trimmedDescription.filter { $0 != "`" })
        // `@Managed("type") var kind`: the model's key, when the Swift name must differ.
        let key: String
        if let argument = node.arguments?.as(LabeledExprListSyntax.self)?.first {
            guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
                literal.segments.count == 1,
                case .stringSegment(let segment)? = literal.segments.first
            else {
                throw MacroExpansionErrorMessage(
                    "@Managed takes the model's property name as a plain string literal, e.g. `@Managed(\"type\") var kind: String?`"
                )
            }
            key = segment.content.text
        } else {
            key = name
        }
        return (name, key)
    }
}

@main
struct ObjectGraphMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ManagedMacro.self]
}
