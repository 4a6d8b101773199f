import Foundation

/// Spelling Swift source: identifiers, string literals and doc comments.
enum SwiftSource {
    /// Swift's keywords, which a property name must escape with backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "async", "consume", "copy", "discard", "each", "borrowing",
        "consuming", "package", "some", "Type", "Protocol",
    ]

    /// Names a `ManagedObject` subclass cannot give a property (public members of
    /// `ManagedObject` and its protocols that the model does not already reserve).
    static let inheritedMembers: Set<String> = ["hashValue", "hasPersistentChangedValues", "hasChanges"]

    /// `name` as a Swift identifier, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` as the inside of a doc comment line (no line breaks).
    static func docText(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
    }
}
