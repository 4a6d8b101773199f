import Foundation

/// The IDs of the fetched-entity objects a relationship chain leads back to from one changed
/// object: what ``FetchedDependencies/affectedRoots(of:changedKeys:in:)`` walks.
///
/// Every controller on a context asks the same question of the same change when their chains
/// agree (a server's hundred lists of one spot's photos each read `tags.name`), and the answer
/// can be every photo of a tag: the context keeps each answer while it posts the change (see
/// ``ChangeTracker/relatedRoots(_:walk:)``), so a change costs one walk, not one per
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
