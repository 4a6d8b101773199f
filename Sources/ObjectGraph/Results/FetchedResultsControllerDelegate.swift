public import Foundation

/// Hears a ``FetchedResultsController``'s changes, as Core Data's
/// `NSFetchedResultsControllerDelegate`.
///
/// Called on the context's queue, synchronously within the change that caused it (a save, a
/// merge, `processPendingChanges`), in table-view batch order: ``controllerWillChangeContent(_:)``;
/// section deletes and inserts; object deletes, inserts, moves and updates;
/// ``controller(_:didChangeContentWith:)``; ``controllerDidChangeContent(_:)``. Applying the
/// changes with UITableView's batch-update rules to the previous sections gives the new
/// sections exactly: deletes and moves' sources at old index paths, inserts and moves'
/// destinations at new ones, updates at old ones. Every method has a default that does nothing.
///
/// The controller passed in is a type-erased view of the one you created (same content), so
/// Core Data signatures port by renaming: `NSFetchedResultsController<NSFetchRequestResult>` is
/// `FetchedResultsController<FetchRequestResult>`.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// A batch of changes begins.
    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)
    /// A section was inserted (index in the new content) or deleted (index in the old content).
    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: FetchedResultsChangeType
    )
    /// An object was inserted, deleted, moved or updated; see ``FetchedResultsChangeType``
    /// for which index path is which.
    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    )
    /// The whole batch, as sections and item identifiers before and after.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChangeContentWith difference: FetchedResultsDifference)
    /// A batch of changes ended: the controller's `sections` and `fetchedObjects` are current.
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>)
    /// The index title for a section; return `nil` to use the default (the first letter,
    /// uppercased).
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, sectionIndexTitleForSectionName sectionName: String) -> String?
    /// A change would have broken the sections' contiguity (or could not be evaluated): the
    /// controller keeps its last consistent content and stops tracking until the next
    /// `performFetch()`, which throws the same error if the data still breaks the sort.
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didFailWith error: any Error)
}

/// Defaults that do nothing, so a delegate implements only what it needs (Core Data's
/// delegate methods are optional).
extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: FetchedResultsChangeType
    ) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {}
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChangeContentWith difference: FetchedResultsDifference)
    {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {}
    /// Returns `nil`: the default title, the name's first letter uppercased.
    public func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? { nil }
    /// Does nothing.
    public func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didFailWith error: any Error) {}
}
