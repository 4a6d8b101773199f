public import Foundation

/// Keeps the results of a fetch request current and sectioned as its context changes, and
/// tells a delegate exactly what changed — Core Data's `NSFetchedResultsController`.
///
/// ```swift
/// let request = Photo.fetchRequest()
/// request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
/// let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                           sectionNameKeyPath: "firstLetter", cacheName: nil)
/// controller.delegate = self
/// try controller.performFetch()
/// controller.sections?[0].numberOfObjects
/// controller.object(at: IndexPath(row: 0, section: 0))
/// ```
///
/// After ``performFetch()`` the controller follows its context: local changes at
/// `processPendingChanges()` (the end of every `perform`, every fetch and save), saves merged
/// from other contexts, refreshed objects, `reset()`. Changed objects are evaluated against the
/// predicate in memory and moved to their new place without refetching; a change to a related
/// object that a sort key, the section key path or the predicate reads through a relationship
/// (`recent.lastViewed`, `ANY tags.name == "x"`) re-evaluates the objects that point at it.
/// Requests with a fetch limit or offset are refetched on each relevant change.
///
/// Sections must be contiguous in the sort order (sort first by the section key, or by a key
/// that orders sections the same way). Where Core Data scrambles sections silently,
/// ``performFetch()`` throws ``ObjectGraphError/Code/sectionsNotContiguous`` naming the section
/// and the sort, and a later change that would break contiguity is reported to the delegate's
/// ``FetchedResultsControllerDelegate/controller(_:didFailWith:)``; the controller then keeps
/// its last consistent content until the next `performFetch()`.
///
/// Use the controller on its context's queue, like the context's objects.
public final class FetchedResultsController<Result> {
    let engine: FetchedResultsEngine

    /// The request the controller runs; change it, then call ``performFetch()`` again.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller fetches from and follows.
    public var managedObjectContext: ManagedObjectContext { engine.context }
    /// The key path whose value names each object's section, or `nil` for one section.
    public var sectionNameKeyPath: String? { engine.sectionNameKeyPath }
    /// Accepted for Core Data compatibility and ignored: a first fetch reads sections from the
    /// rows it fetches anyway, so a persistent section cache would not make it faster.
    public var cacheName: String? { engine.cacheName }

    /// Hears about changes; held weakly. Without a delegate the controller still keeps its
    /// content current.
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        get { engine.delegate }
        set { engine.delegate = newValue }
    }

    /// Creates a controller for `fetchRequest`, which needs at least one sort descriptor.
    ///
    /// - Parameters:
    ///   - sectionNameKeyPath: an attribute (stored or transient) or a key path through to-one
    ///     relationships (`"tag.name"`); `nil` puts every object in one section.
    ///   - cacheName: ignored (see ``cacheName``).
    public init(
        fetchRequest: FetchRequest<Result>,
        managedObjectContext context: ManagedObjectContext,
        sectionNameKeyPath: String?,
        cacheName: String?
    ) {
        self.fetchRequest = fetchRequest
        self.engine = FetchedResultsEngine(context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: cacheName) {
            Self.copy(of: fetchRequest)
        }
        engine.makeDelegateView = { [unowned engine] in
            FetchedResultsController<any FetchRequestResult>(sharing: engine, request: Self.copy(of: fetchRequest))
        }
    }

    /// A view of another controller's engine, handed to delegates.
    private init(sharing engine: FetchedResultsEngine, request: FetchRequest<Result>) {
        self.engine = engine
        self.fetchRequest = request
    }

    private static func copy<Other>(of request: FetchRequest<Result>) -> FetchRequest<Other> {
        let copy = FetchRequest<Other>()
        copy.entityName = request.entityName
        copy.predicate = request.predicate
        copy.sortDescriptors = request.sortDescriptors
        copy.fetchLimit = request.fetchLimit
        copy.fetchOffset = request.fetchOffset
        copy.includesSubentities = request.includesSubentities
        copy.includesPendingChanges = request.includesPendingChanges
        copy.relationshipKeyPathsForPrefetching = request.relationshipKeyPathsForPrefetching
        return copy
    }

    /// Does nothing: section caches are not kept (see ``cacheName``). Kept so Core Data code that
    /// clears a cache before changing a request compiles unchanged.
    public static func deleteCache(withName name: String?) {}

    /// Runs the fetch request and starts (or keeps) following the context.
    ///
    /// - Throws: the fetch's errors; ``ObjectGraphError/Code/invalidRequest`` without sort
    ///   descriptors; ``ObjectGraphError/Code/sectionsNotContiguous`` when a section name comes
    ///   back after another section in the sort order.
    public func performFetch() throws {
        try engine.performFetch()
    }

    /// The fetched objects in order (section after section), or `nil` before ``performFetch()``.
    public var fetchedObjects: [Result]? {
        guard engine.hasFetched else { return nil }
        if let cached = typedObjects, cached.version == engine.contentVersion { return cached.objects }
        let objects = engine.fetchedObjects.map { $0 as! Result }
        typedObjects = (engine.contentVersion, objects)
        return objects
    }
    private var typedObjects: (version: Int, objects: [Result])?

    /// The sections, in order, or `nil` before ``performFetch()``. Without a section key path
    /// there is exactly one section, even when it is empty.
    public var sections: [any FetchedResultsSectionInfo]? {
        guard engine.hasFetched else { return nil }
        return engine.content.sections.map { engine.sectionInfo($0) }
    }

    /// The object at `indexPath`.
    ///
    /// - Precondition: `indexPath` is within ``sections``.
    public func object(at indexPath: IndexPath) -> Result {
        let sections = engine.content.sections
        precondition(
            indexPath.section >= 0 && indexPath.section < sections.count && indexPath.row >= 0
                && indexPath.row < sections[indexPath.section].run.count,
            "index path \(indexPath) is outside the fetched results"
        )
        return sections[indexPath.section].run[indexPath.row].object as! Result
    }

    /// Where `object` is in the results, or `nil` if it is not among them.
    public func indexPath(forObject object: Result) -> IndexPath? {
        guard let object = object as? ManagedObject else { return nil }
        return engine.indexPath(for: object)
    }

    /// The section index titles, one per distinct title, in section order.
    public var sectionIndexTitles: [String] {
        var seen = Set<String>()
        var titles: [String] = []
        for section in engine.content.sections {
            guard let title = engine.indexTitle(forSectionName: section.name), seen.insert(title).inserted else { continue }
            titles.append(title)
        }
        return titles
    }

    /// The index title of a section name: the delegate's, or the name's first letter uppercased.
    public func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        engine.indexTitle(forSectionName: sectionName)
    }

    /// The section to show for a tap on a section index title.
    ///
    /// The first section with that index title; if none has it (an index listing the whole
    /// alphabet), the last section whose title sorts before it, else the first section.
    public func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = engine.content.sections
        var best = 0
        for (index, section) in sections.enumerated() {
            let sectionTitle = engine.indexTitle(forSectionName: section.name) ?? ""
            if sectionTitle == title { return index }
            if sectionTitle < title { best = index }
        }
        return best
    }
}
