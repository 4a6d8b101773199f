import SwiftDiagnostics
public import SwiftSyntax
import SwiftSyntaxBuilder
public import SwiftSyntaxMacros

/// `#Unique<Book>([\.isbn], [\.title, \.author])` and `#Index<Book>([\.title])` inside a
/// `@Model` class: declare the key paths as a static property the schema reads
/// (`_$uniqueConstraints`, `_$indexes`).
public struct ConstraintMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let root = node.genericArgumentClause?.arguments.first?.argument.trimmedDescription else {
            throw MacroExpansionErrorMessage("name the model type, e.g. `#Unique<Book>([\\.isbn])`")
        }
        let property = node.macroName.text == "Unique" ? "_$uniqueConstraints" : "_$indexes"
        var access = ""
        for enclosing in context.lexicalContext {
            if let type = enclosing.as(ClassDeclSyntax.self) {
                access = ModelMacro.accessModifier(of: type)
                break
            }
        }
        let groups = node.arguments.map(\.expression.trimmedDescription).joined(separator: ", ")
        return [
            """
            \(raw: access)static var \(raw: property): [[AnyKeyPath]] {
                let groups: [[PartialKeyPath<\(raw: root)>]] = [\(raw: groups)]
                return groups.map { $0.map { $0 as AnyKeyPath } }
            }
            """
        ]
    }
}
