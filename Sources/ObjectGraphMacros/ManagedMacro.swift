import SwiftCompilerPlugin
import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// Expands `@Managed var title: String?` into accessors that read and write the managed
/// object's storage under the key `"title"`, so a property's name is typed once;
/// `@Managed("type") var kind: String?` uses the key `"type"`.
public struct ManagedMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
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
            key = String(identifier.identifier.trimmedDescription.filter { $0 != "`" })
        }
        return [
            "get { _managedValue(forKey: \(literal: key)) }",
            "set { _setManagedValue(newValue, forKey: \(literal: key)) }",
        ]
    }
}

@main
struct ObjectGraphMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ManagedMacro.self]
}
