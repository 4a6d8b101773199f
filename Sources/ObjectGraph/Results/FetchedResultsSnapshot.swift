import Foundation

/// A controller's content at one moment, by identifier: section names and object IDs, as the
/// snapshot Core Data hands to diffable data sources.
///
/// Taking one is cheap (the controller's content is copy-on-write); item identifiers are
/// gathered when asked for.
public struct FetchedResultsSnapshot {
    /// Computes the content once, when first asked (a "before" snapshot is rebuilt from the
    /// content after the change, which costs O(n) — only consumers that read it pay).
    private final class Source {
        private var made: FetchedContent?
        private var make: (() -> FetchedContent)?
        init(_ content: FetchedContent) { made = content }
        init(_ make: @escaping () -> FetchedContent) { self.make = make }
        var content: FetchedContent {
            if let made { return made }
            let content = make!()
            made = content
            make = nil
            return content
        }
    }

    private let source: Source
    var content: FetchedContent { source.content }

    init(content: FetchedContent) { source = Source(content) }
    init(making make: @escaping () -> FetchedContent) { source = Source(make) }

    /// The section names, in order.
    public var sectionIdentifiers: [String] { content.sections.map(\.name) }
    /// How many sections there are.
    public var numberOfSections: Int { content.sections.count }
    /// How many objects there are in all sections.
    public var numberOfItems: Int { content.numberOfObjects }
    /// Every object ID, section after section.
    public var itemIdentifiers: [ManagedObjectID] { content.sections.flatMap { $0.run.entries.map(\.id) } }

    /// The object IDs of the section named `identifier` (empty if there is none).
    public func itemIdentifiers(inSection identifier: String) -> [ManagedObjectID] {
        guard let index = content.indexByName[identifier] else { return [] }
        return content.sections[index].run.entries.map(\.id)
    }

    /// How many objects the section named `identifier` holds.
    public func numberOfItems(inSection identifier: String) -> Int {
        content.indexByName[identifier].map { content.sections[$0].run.count } ?? 0
    }
}

/// One batch of changes as a whole: the content before and after, and which items and sections
/// were inserted, deleted, moved or updated — for consumers that diff rather than apply
/// index-path changes one by one.
public struct FetchedResultsDifference {
    /// The content before the batch.
    public let before: FetchedResultsSnapshot
    /// The content after the batch.
    public let after: FetchedResultsSnapshot
    /// Sections that appeared (including sections that moved, which also count as deleted).
    public let insertedSectionIdentifiers: [String]
    /// Sections that went away (including sections that moved).
    public let deletedSectionIdentifiers: [String]
    /// Objects that entered the results.
    public let insertedItemIdentifiers: [ManagedObjectID]
    /// Objects that left the results.
    public let deletedItemIdentifiers: [ManagedObjectID]
    /// Objects that stayed but changed position.
    public let movedItemIdentifiers: [ManagedObjectID]
    /// Objects that stayed in place and changed (reload them).
    public let updatedItemIdentifiers: [ManagedObjectID]
}
