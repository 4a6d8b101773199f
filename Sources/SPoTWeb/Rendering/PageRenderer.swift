import Foundation
import Mustache

/// Renders pages and fragments from the Mustache templates bundled with SPoTWeb.
///
/// Mustache escapes every `{{value}}`; only fragments that a template rendered are inserted
/// unescaped (`{{{…}}}`), so every Flickr string passes through escaping exactly once.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary

    /// Loads every template in SPoTWeb's bundle.
    /// - Throws: ``SPoTWebError`` naming the template folder when a template cannot be parsed.
    static func bundled() async throws -> PageRenderer {
        guard let directory = Bundle.module.url(forResource: "templates", withExtension: nil) else {
            throw SPoTWebError("SPoTWeb's templates are missing from its resource bundle")
        }
        do {
            return PageRenderer(library: try await MustacheLibrary(directory: directory.path))
        } catch {
            throw SPoTWebError("Could not load the templates in \(directory.path): \(error)")
        }
    }

    /// `object` rendered with template `name`.
    func render(_ object: Any, _ name: Template) -> String {
        guard let html = library.render(object, withTemplate: name.rawValue) else {
            preconditionFailure("template \(name.rawValue) is not bundled")  // the enum lists only bundled ones
        }
        return html
    }

    /// The templates, by file name.
    enum Template: String, CaseIterable {
        case layout
        case listPane = "list-pane"
        case section
        case sectionHeader = "section-header"
        case rowPhoto = "row-photo"
        case rowCount = "row-count"
        case emptyDetail = "empty-detail"
        case photo, error
    }

    /// Whether every template the server uses is bundled (checked at start).
    func missingTemplates() -> [String] {
        Template.allCases.filter { library.getTemplate(named: $0.rawValue) == nil }.map(\.rawValue)
    }
}

/// Why SPoTWeb could not start or serve.
public struct SPoTWebError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The server could not listen or stopped with an error.
    public static func serving(_ description: String) -> SPoTWebError { SPoTWebError(description) }
}
