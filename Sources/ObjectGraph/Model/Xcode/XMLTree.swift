import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One element of an XML document, with its attributes, children and the line it starts on:
/// the plain tree the Xcode model reader maps, so mapping never sees the parser's callbacks.
struct XMLTree: Sendable, Hashable {
    /// The element's name (`entity`, `attribute`, …).
    var name: String
    /// Its attributes, by name.
    var attributes: [String: String]
    /// Its child elements, in document order.
    var children: [XMLTree]
    /// The 1-based line of the element's start tag.
    var line: Int

    /// The children named `name`, in document order.
    func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The value of the attribute `key`.
    subscript(key: String) -> String? { attributes[key] }

    /// Whether the attribute `key` says `YES`.
    func flag(_ key: String) -> Bool { attributes[key] == "YES" }

    /// Parses `data` into its root element.
    ///
    /// - Throws: ``XMLTreeError`` with the line and column where the document stops being
    ///   well-formed XML.
    static func parse(_ data: Data) throws(XMLTreeError) -> XMLTree {
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        builder.parser = parser
        let succeeded = parser.parse()
        if let failure = builder.failure { throw failure }
        guard succeeded, let root = builder.root else {
            let reason = parser.parserError.map { Self.reason(of: $0) } ?? "the document is not well-formed XML"
            throw XMLTreeError(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), reason: reason)
        }
        return root
    }

    private static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if let description = nsError.userInfo[NSLocalizedDescriptionKey] as? String, !description.isEmpty {
            return description
        }
        return "XML parser error \(nsError.code)"
    }
}

/// Where and why a document is not well-formed XML.
struct XMLTreeError: Error, Sendable, Hashable {
    /// The 1-based line of the error.
    var line: Int
    /// The 1-based column of the error.
    var column: Int
    /// The parser's explanation.
    var reason: String
}

/// Collects `XMLParser`'s callbacks into an ``XMLTree``. Used by one parse, on one thread.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    weak var parser: XMLParser?
    private var stack: [XMLTree] = []
    private(set) var root: XMLTree?
    private(set) var failure: XMLTreeError?

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        stack.append(XMLTree(name: elementName, attributes: attributeDict, children: [], line: parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        let nsError = parseError as NSError
        let description = (nsError.userInfo[NSLocalizedDescriptionKey] as? String).flatMap { $0.isEmpty ? nil : $0 }
        failure = XMLTreeError(
            line: max(parser.lineNumber, 1),
            column: max(parser.columnNumber, 1),
            reason: description ?? "the document is not well-formed XML (parser error \(nsError.code))"
        )
    }
}
