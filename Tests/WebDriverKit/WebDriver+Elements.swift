public import Foundation

/// A DOM element found by a ``WebDriverSession``.
public struct Element: Sendable, Hashable {
    /// The W3C key under which element references travel in JSON.
    public static let referenceKey = "element-6066-11e4-a52e-4f735466cecf"

    /// chromedriver's id for the element.
    public let id: String
    /// The session the element belongs to.
    public let session: WebDriverSession

    /// Creates an element from a W3C element reference (`{"element-6066-…": id}`).
    public init?(_ reference: JSONValue, session: WebDriverSession) {
        guard let id = reference[Element.referenceKey]?.stringValue else { return nil }
        self.id = id
        self.session = session
    }

    /// The element as a script argument: in the script, `arguments[i]` is the DOM node.
    public var jsonValue: JSONValue { [Element.referenceKey: .string(id)] }

    /// Same element id in the same session.
    public static func == (lhs: Element, rhs: Element) -> Bool { lhs.id == rhs.id && lhs.session === rhs.session }
    /// Hashes the element id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    @discardableResult
    private func command(_ method: HTTPMethod, _ suffix: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await session.command(method, "/element/\(id)\(suffix)", body)
    }

    /// Clicks the element's centre (scrolling it into view first).
    public func click() async throws { try await command(.post, "/click") }

    /// Types `text` into the element (focusing it first). ``Key`` constants work here too.
    public func sendKeys(_ text: String) async throws { try await command(.post, "/value", ["text": .string(text)]) }

    /// Empties an input or textarea.
    public func clear() async throws { try await command(.post, "/clear") }

    /// The rendered text (`innerText`-like).
    public var text: String { get async throws { try await command(.get, "/text").stringValue ?? "" } }

    /// The lower-case tag name.
    public var tagName: String { get async throws { try await command(.get, "/name").stringValue ?? "" } }

    /// Whether the element is visible.
    public var isDisplayed: Bool { get async throws { try await command(.get, "/displayed").boolValue ?? false } }

    /// Whether the element is enabled (form controls).
    public var isEnabled: Bool { get async throws { try await command(.get, "/enabled").boolValue ?? false } }

    /// The HTML attribute `name`, or `nil` if absent.
    public func attribute(_ name: String) async throws -> String? {
        try await command(.get, "/attribute/\(name)").stringValue
    }

    /// The DOM property `name` (e.g. `value`, `checked`, `className`).
    public func property(_ name: String) async throws -> JSONValue {
        try await command(.get, "/property/\(name)")
    }

    /// The computed CSS value of `name`.
    public func cssValue(_ name: String) async throws -> String {
        try await command(.get, "/css/\(name)").stringValue ?? ""
    }

    /// Position and size in CSS pixels relative to the document.
    public var rect: ElementRect {
        get async throws { try await command(.get, "/rect").decode(ElementRect.self) }
    }

    /// A PNG of just this element.
    public func screenshot() async throws -> Data {
        let value = try await command(.get, "/screenshot")
        guard let data = value.stringValue.flatMap({ Data(base64Encoded: $0) }) else {
            throw WebDriverError(
                code: WebDriverError.Code.invalidResponse,
                message: "screenshot is not base64",
                command: "GET /element/\(id)/screenshot"
            )
        }
        return data
    }

    /// The first descendant matching `css`; throws `no such element` if none.
    public func findElement(css: String) async throws -> Element {
        let value = try await command(.post, "/element", ["using": "css selector", "value": .string(css)])
        return try session.element(from: value, command: "find \(css)")
    }

    /// All descendants matching `css` (possibly none).
    public func findElements(css: String) async throws -> [Element] {
        let value = try await command(.post, "/elements", ["using": "css selector", "value": .string(css)])
        return (value.arrayValue ?? []).compactMap { Element($0, session: session) }
    }
}

/// An element's position and size in CSS pixels.
public struct ElementRect: Sendable, Hashable, Codable {
    /// Left edge, relative to the document.
    public var x: Double
    /// Top edge, relative to the document.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double
}

extension WebDriverSession {
    /// The first element matching `css`; throws ``WebDriverError`` with code `no such element` if none.
    public func findElement(css: String) async throws -> Element {
        let value = try await command(.post, "/element", ["using": "css selector", "value": .string(css)])
        return try element(from: value, command: "find \(css)")
    }

    /// All elements matching `css` (possibly none).
    public func findElements(css: String) async throws -> [Element] {
        let value = try await command(.post, "/elements", ["using": "css selector", "value": .string(css)])
        return (value.arrayValue ?? []).compactMap { Element($0, session: self) }
    }

    /// The focused element (`document.activeElement`).
    public func activeElement() async throws -> Element {
        try element(from: try await command(.get, "/element/active"), command: "active element")
    }

    func element(from value: JSONValue, command: String) throws -> Element {
        guard let element = Element(value, session: self) else {
            throw WebDriverError(code: WebDriverError.Code.invalidResponse, message: "not an element reference: \(value)", command: command)
        }
        return element
    }
}
