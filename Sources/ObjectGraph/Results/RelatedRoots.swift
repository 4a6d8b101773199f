import Foundation

/// The IDs of the fetched-entity objects a relationship chain leads back to from one changed
/// object: what ``FetchedDependencies/affectedRoots(of:changedKeys:in:)`` walks.
///
/// Every controller on a context asks the same question of the same change when their chains
/// agree (a server's hundred lists of one spot's photos each read `tags.name`), and the answer
/// can be every photo of a tag: the context keeps each answer while it posts the change (see
/// ``ManagedObjectContext/relatedRoots(_:walk:)``), so a change costs one walk, not one per
/// controller.
final class RelatedRoots {
    /// The roots, possibly with repeats (several paths may lead to one root).
    let ids: [ManagedObjectID]
    private var lookup: Set<ManagedObjectID>?

    init(ids: [ManagedObjectID]) {
        self.ids = ids
    }

    /// Calls `body` with each key of `placed` (a controller's fetched objects) that is one of
    /// the roots, walking the smaller of the two: a ten-row list pays for ten lookups, whatever
    /// the number of roots.
    func forEach<Value>(placedIn placed: [ManagedObjectID: Value], _ body: (ManagedObjectID) -> Void) {
        if placed.count < ids.count {
            let lookup = self.lookup ?? Set(ids)
            self.lookup = lookup
            for id in placed.keys where lookup.contains(id) { body(id) }
        } else {
            for id in ids where placed[id] != nil { body(id) }
        }
    }

    /// Identifies one walk: the changed object and the chain, by its relationships.
    struct Key: Hashable {
        let object: ManagedObjectID
        let chain: [ObjectIdentifier]
    }
}

extension ManagedObjectContext {
    /// The walk `key` names, from the answers kept while this context posts a change, or made
    /// by `walk` (and kept, while the change is posted and nothing has changed since).
    ///
    /// An observer that changes objects while the change is posted makes the kept answers
    /// stale: from then on every walk is made afresh.
    func relatedRoots(_ key: RelatedRoots.Key, walk: () -> RelatedRoots?) -> RelatedRoots? {
        let unchanged = pendingUpdated.isEmpty && pendingInserted.isEmpty && pendingDeleted.isEmpty
        guard unchanged, relatedRootWalks != nil else {
            relatedRootWalks = nil
            return walk()
        }
        if let kept = relatedRootWalks?[key] { return kept }
        guard let made = walk() else { return nil }
        relatedRootWalks?[key] = made
        return made
    }
}
