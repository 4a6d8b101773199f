import Foundation
import ObjectGraph

/// The part of a live list one fetched results controller feeds: it turns the controller's
/// content into rows and its delegate calls into a ``LiveChangeSet``.
///
/// Lives on the list context's queue; everything here runs there.
protocol LiveListSource<Row>: AnyObject {
    associatedtype Row: LiveRow
    /// Fetches, and from then on reports changes to `publish`, and to `lost` that it stopped
    /// tracking (the list fetches it again with ``refetch()``).
    func start(publish: @escaping (inout LiveChangeSet<Row>) -> Void, lost: @escaping (any Error) -> Void) throws
    /// Fetches again, after tracking was lost.
    func refetch() throws
    /// The current sections.
    func sections() -> [LiveSection<Row>]
    /// Stops tracking.
    func stop()
}

/// A ``LiveListSource`` over a `FetchedResultsController` of `Entity`.
final class FetchedLiveListSource<Entity: ManagedObject, Row: LiveRow>: LiveListSource, FetchedResultsControllerDelegate {
    let controller: FetchedResultsController<Entity>
    /// The list's index of this source's first section (search puts spots, then photos).
    let sectionOffset: Int
    /// For an unsectioned controller inside a composite list: the one section's name.
    let fixedSectionName: String?
    let makeRow: (Entity) -> Row
    /// The rows last handed out, by object: an update whose row is unchanged (a related
    /// spot's count changed, a field no row shows) is not worth sending to anyone.
    private var rows: [ManagedObjectID: Row] = [:]
    private var pending: LiveChangeSet<Row>?
    private var publish: ((inout LiveChangeSet<Row>) -> Void)?
    private var lost: ((any Error) -> Void)?

    init(
        request: FetchRequest<Entity>,
        context: ManagedObjectContext,
        sectionNameKeyPath: String? = nil,
        sectionOffset: Int = 0,
        fixedSectionName: String? = nil,
        makeRow: @escaping (Entity) -> Row
    ) {
        controller = FetchedResultsController(
            fetchRequest: request,
            managedObjectContext: context,
            sectionNameKeyPath: sectionNameKeyPath,
            cacheName: nil
        )
        self.sectionOffset = sectionOffset
        self.fixedSectionName = fixedSectionName
        self.makeRow = makeRow
    }

    func start(publish: @escaping (inout LiveChangeSet<Row>) -> Void, lost: @escaping (any Error) -> Void) throws {
        self.publish = publish
        self.lost = lost
        controller.delegate = self
        try controller.performFetch()
    }

    func refetch() throws {
        pending = nil
        rows = [:]
        try controller.performFetch()
    }

    func stop() {
        controller.delegate = nil
        publish = nil
        lost = nil
    }

    /// The current sections, in the controller's order, with each row as last handed out
    /// (the delegate calls keep them current; only rows never seen are made).
    func sections() -> [LiveSection<Row>] {
        var cache: [ManagedObjectID: Row] = [:]
        defer { self.rows = cache }
        return (controller.sections ?? []).map { info in
            let rows = (info.objects ?? []).compactMap { object -> Row? in
                guard let entity = object as? Entity else { return nil }
                let row = self.rows[entity.objectID] ?? makeRow(entity)
                cache[entity.objectID] = row
                return row
            }
            let name = fixedSectionName ?? info.name
            return LiveSection(name: name, indexTitle: fixedSectionName == nil ? (info.indexTitle ?? "") : "", rows: rows)
        }
    }

    private func position(_ indexPath: IndexPath?) -> RowPosition? {
        indexPath.map { RowPosition(section: $0.section + sectionOffset, row: $0.row) }
    }

    // MARK: FetchedResultsControllerDelegate

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        pending = LiveChangeSet(version: 0)
    }

    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: FetchedResultsChangeType
    ) {
        switch type {
        case .insert:
            pending?.insertedSections.append(
                .init(index: sectionIndex + sectionOffset, name: sectionInfo.name, indexTitle: sectionInfo.indexTitle ?? "")
            )
        case .delete:
            pending?.deletedSections.append(sectionIndex + sectionOffset)
        default:
            break
        }
    }

    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {
        let object = anObject as? Entity
        switch type {
        case .delete:
            if let old = position(indexPath) { pending?.deletedRows.append(old) }
            if let object { rows[object.objectID] = nil }
        case .insert:
            if let new = position(newIndexPath), let object {
                let row = makeRow(object)
                rows[object.objectID] = row
                pending?.insertedRows.append(.init(position: new, newPosition: nil, row: row))
            }
        case .move:
            if let old = position(indexPath), let new = position(newIndexPath), let object {
                let row = makeRow(object)
                rows[object.objectID] = row
                pending?.movedRows.append(.init(from: old, to: new, row: row))
            }
        case .update:
            if let old = position(indexPath), let object {
                let row = makeRow(object)
                guard rows[object.objectID] != row else { return }
                rows[object.objectID] = row
                pending?.updatedRows.append(.init(position: old, newPosition: position(newIndexPath) ?? old, row: row))
            }
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        guard var changes = pending else { return }
        pending = nil
        if !changes.isEmpty { publish?(&changes) }
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didFailWith error: any Error) {
        // The controller stopped tracking (a change it could not place): the list fetches
        // again and sends the whole content, or says why it cannot and retries.
        pending = nil
        lost?(error)
    }
}
