import Foundation

/// The metadata of a store Apple's Core Data wrote: its `Z_METADATA` row (a binary property
/// list) and its `Z_PRIMARYKEY` entity numbers, read without changing the file.
///
/// A store is Core Data's when its metadata is a property list naming an `NSStoreType` and
/// carrying `NSStoreModelVersionHashes` — never because of its file name.
struct CoreDataStoreMetadata: Sendable {
    /// One `Z_PRIMARYKEY` row.
    struct EntityNumber: Sendable, Hashable {
        let number: Int
        let name: String
        let superNumber: Int
    }

    /// The property list as stored, kept whole so a save rewrites it with every key the app
    /// put there.
    let plist: Data
    let storeUUID: String
    let storeType: String
    /// `NSStoreModelVersionHashes`: the version hash of each entity of the model that wrote it.
    let versionHashes: [String: Data]
    let versionIdentifiers: [String]
    let entityNumbers: [EntityNumber]
    /// The compiled model Core Data cached in `Z_MODELCACHE` (compressed), when it did.
    var modelCache: Data?

    /// Reads the metadata of the Core Data store at `path` from its `Z_METADATA` row (the
    /// property list and the `Z_UUID` column, where Core Data keeps the store's UUID) and its
    /// `Z_PRIMARYKEY` rows; `nil` when `plist` is not a Core Data property list.
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/persistentStoreInvalidType``)
    ///   naming the file when the property list is Core Data's but damaged.
    static func decode(_ plist: Data, uuid: String?, entityNumbers: [EntityNumber], path: String) throws -> CoreDataStoreMetadata? {
        guard plist.starts(with: Array("bplist".utf8)) || plist.starts(with: Array("<?xml".utf8)) else { return nil }
        let decoded: Any
        do {
            decoded = try PropertyListSerialization.propertyList(from: plist, format: nil)
        } catch {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(path) has a damaged Core Data metadata property list",
                underlying: error,
                file: path
            )
        }
        guard let dictionary = decoded as? [String: Any], let type = dictionary[StoreTypeKey] as? String else { return nil }
        guard let hashes = dictionary[StoreModelVersionHashesKey] as? [String: Any] else {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(path) is a Core Data \(type) store without NSStoreModelVersionHashes in its metadata",
                file: path
            )
        }
        return CoreDataStoreMetadata(
            plist: plist,
            storeUUID: dictionary[StoreUUIDKey] as? String ?? uuid ?? "",
            storeType: type,
            versionHashes: hashes.compactMapValues { $0 as? Data },
            versionIdentifiers: (dictionary[StoreModelVersionIdentifiersKey] as? [Any])?.compactMap { $0 as? String } ?? [],
            entityNumbers: entityNumbers
        )
    }

    /// Refuses a model whose entity version hashes are not the store's, as Core Data refuses
    /// it (`isConfiguration(withName:compatibleWithStoreMetadata:)`), listing each difference.
    func checkCompatible(with model: ManagedObjectModel, path: String) throws {
        let differences = differences(from: model)
        guard !differences.isEmpty else { return }
        throw ObjectGraphError(
            .persistentStoreIncompatibleVersionHash,
            "the Core Data store at \(path) was written with a different model (\(differences.count) difference\(differences.count == 1 ? "" : "s")); the file was not changed",
            differences: differences,
            file: path
        )
    }

    /// Each entity whose version hash differs between the store and `model`.
    func differences(from model: ManagedObjectModel) -> [String] {
        let mine = model.entityVersionHashesByName
        return Set(mine.keys).union(versionHashes.keys).sorted().compactMap { name in
            switch (mine[name], versionHashes[name]) {
            case (nil, _?): "entity \(name) is in the store, not in the model"
            case (_?, nil): "entity \(name) is in the model, not in the store"
            case (let a?, let b?) where a != b: "entity \(name) differs (its version hash is not the store's)"
            default: nil
            }
        }
    }

    /// Refuses a store whose `Z_PRIMARYKEY` does not number the model's entities as the model
    /// numbers them (an entity is matched by name or by its renaming identifier).
    func checkEntityNumbers(of model: ManagedObjectModel, path: String) throws {
        let byNumber = Dictionary(entityNumbers.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for entity in model.entities.sorted(by: { $0.entityCode < $1.entityCode }) {
            guard let row = byNumber[entity.entityCode] else {
                problems.append("entity \(entity.name) (number \(entity.entityCode)) has no Z_PRIMARYKEY row")
                continue
            }
            if row.name != entity.name && row.name != entity.renamingIdentifier {
                problems.append("Z_PRIMARYKEY numbers \(row.name) \(row.number), where the model has \(entity.name)")
            }
            if row.superNumber != (entity.superentity?.entityCode ?? 0) {
                problems.append("Z_PRIMARYKEY gives \(row.name) parent number \(row.superNumber), the model \(entity.superentity?.entityCode ?? 0)")
            }
        }
        guard !problems.isEmpty else { return }
        throw ObjectGraphError(
            .persistentStoreIncompatibleVersionHash,
            "the Core Data store at \(path) numbers its entities differently from the model; the file was not changed",
            differences: problems,
            file: path
        )
    }

    /// What ``PersistentStore/metadata`` reports for the store.
    var summary: [String: String] {
        [
            "storeUUID": storeUUID, StoreUUIDKey: storeUUID, StoreTypeKey: storeType,
            StoreModelVersionIdentifiersKey: versionIdentifiers.joined(separator: ", "), "layout": "Core Data",
        ]
    }
}
