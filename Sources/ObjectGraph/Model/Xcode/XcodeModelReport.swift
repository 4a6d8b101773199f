public import Foundation

/// What reading an Xcode model left out or changed: every element, attribute and option of the
/// `contents` file that ObjectGraph cannot map, each naming where it was.
///
/// Nothing in a model file is dropped silently: what the reader does not map (fetched
/// properties, configurations, fetch request templates, attribute types ObjectGraph lacks,
/// elements and attributes it does not know) and what it maps with a difference (a value
/// transformer nobody registered, a derived attribute whose expression is not evaluated) is an
/// ``Entry`` here.
///
/// ```swift
/// let model = try ManagedObjectModel(contentsOf: modelURL)
/// for entry in model.importReport?.entries ?? [] { print(entry) }
/// // Photo.bestTags: fetched property skipped — ObjectGraph has no fetched properties
/// ```
public struct XcodeModelReport: Sendable, Hashable, CustomStringConvertible {
    /// One thing the reader skipped or mapped with a difference.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// Whether the thing was left out of the model or kept with a difference.
        public enum Kind: String, Sendable, Hashable {
            /// Left out: the model has nothing for it.
            case skipped
            /// Kept, but it behaves differently than in Core Data (read ``Entry/message``).
            case changed
        }

        /// Skipped or changed.
        public var kind: Kind
        /// The entity concerned, if any (`nil` for model-level elements).
        public var entity: String?
        /// The property concerned, if any.
        public var property: String?
        /// The XML element or attribute concerned (`fetchedProperty`, `attributeType="Composite"`).
        public var item: String
        /// What was skipped or changed, and why.
        public var message: String
        /// The 1-based line of the `contents` file where the element starts.
        public var line: Int

        /// Creates an entry.
        public init(kind: Kind, entity: String?, property: String?, item: String, message: String, line: Int) {
            self.kind = kind
            self.entity = entity
            self.property = property
            self.item = item
            self.message = message
            self.line = line
        }

        /// Where the entry applies: `Entity.property`, `Entity` or `model`.
        public var location: String {
            switch (entity, property) {
            case let (entity?, property?): "\(entity).\(property)"
            case let (entity?, nil): entity
            case let (nil, property?): property
            case (nil, nil): "model"
            }
        }

        /// A readable summary, for logs and debugging.
        public var description: String {
            "\(location) (line \(line)): \(item) \(kind == .skipped ? "skipped" : "changed") — \(message)"
        }
    }

    /// The model file the entries are about.
    public var url: URL
    /// Every entry, in document order.
    public var entries: [Entry]

    /// Creates a report about the model file at `url`.
    public init(url: URL, entries: [Entry] = []) {
        self.url = url
        self.entries = entries
    }

    /// Whether the reader mapped everything as Core Data would.
    public var isEmpty: Bool { entries.isEmpty }

    /// The entries about `entity` (and, when given, its `property`).
    public func entries(entity: String, property: String? = nil) -> [Entry] {
        entries.filter { $0.entity == entity && (property == nil || $0.property == property) }
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        if entries.isEmpty { return "\(url.path): everything mapped" }
        return "\(url.path): \(entries.count) item\(entries.count == 1 ? "" : "s") not mapped as in Core Data\n"
            + entries.map { "  - \($0)" }.joined(separator: "\n")
    }
}
