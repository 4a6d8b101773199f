public import Foundation
public import ObjectGraph

/// The model two processes share in ObjectGraph's multi-process tests: items in groups (the
/// sections), owned by owners that keep their items in order (an ordered to-many), labelled by
/// labels (many-to-many). Used by the tests and by `objectgraph-remote-peer`, their child.
public enum PeerModel {
    /// The model, every entity a plain `ManagedObject` used by key.
    public static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Owner") {
                AttributeDescription("name", .string, optional: false, defaultValue: "")
                RelationshipDescription("items", to: "Item", inverse: "owner", toMany: true, ordered: true)
            }
            EntityDescription("Item") {
                AttributeDescription("name", .string, optional: false, defaultValue: "")
                AttributeDescription("group", .string, optional: false, defaultValue: "A")
                AttributeDescription("rank", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("owner", to: "Owner", inverse: "items")
                RelationshipDescription("labels", to: "Label", inverse: "items", toMany: true)
            }
            EntityDescription("Label") {
                AttributeDescription("name", .string, optional: false, defaultValue: "")
                RelationshipDescription("items", to: "Item", inverse: "labels", toMany: true)
            }
        }
    }

    /// Opens (creating if needed) the store at `url` with persistent history, and with remote
    /// change notifications when `remoteChanges` is set; `options` are added to the store's.
    public static func open(_ url: URL, remoteChanges: Bool, options: [String: any Sendable] = [:]) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Peer", managedObjectModel: make())
        let description = PersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: PersistentStore.persistentHistoryTrackingOption)
        if remoteChanges {
            description.setOption(true as NSNumber, forKey: PersistentStore.remoteChangeNotificationPostOption)
        }
        for (key, value) in options { description.setOption(value, forKey: key) }
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// The groups items are filed in.
    public static let groups = ["A", "B", "C", "D"]
    /// The labels' names.
    public static let labels = ["red", "green", "blue"]
    /// The owners' names.
    public static let owners = ["ada", "bob", "cyd"]

    /// An item as a test compares it: name, group, rank, owner, place in its owner's order, and
    /// labels — everything a list of items could show.
    public static func describe(_ item: ManagedObject) -> String {
        let owner = item.value(forKey: "owner") as? ManagedObject
        let ownerName = owner?.value(forKey: "name") as? String ?? "-"
        let place = (owner?.value(forKey: "items") as? [ManagedObject])?.firstIndex { $0.objectID == item.objectID }
        let labels = ((item.value(forKey: "labels") as? Set<ManagedObject>) ?? [])
            .compactMap { $0.value(forKey: "name") as? String }.sorted()
        let name = item.value(forKey: "name") as? String ?? "?"
        let group = item.value(forKey: "group") as? String ?? "?"
        let rank = item.value(forKey: "rank") as? Int64 ?? -1
        return "\(name) \(group) r\(rank) \(ownerName)#\(place.map(String.init) ?? "-") [\(labels.joined(separator: ","))]"
    }
}
