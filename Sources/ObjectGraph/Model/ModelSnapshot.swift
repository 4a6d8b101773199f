import Foundation

/// The parts of a model that decide how its data is stored, as a Codable value: hashed into
/// the model's version hash, written into a store's metadata, and compared to list differences.
struct ModelSnapshot: Codable, Hashable, Sendable {
    struct Entity: Codable, Hashable, Sendable {
        var name: String
        var parent: String?
        var attributes: [Attribute]
        var relationships: [Relationship]
        var uniquenessConstraints: [[String]]
    }
    struct Attribute: Codable, Hashable, Sendable {
        var name: String
        var type: String
    }
    struct Relationship: Codable, Hashable, Sendable {
        var name: String
        var destination: String
        var inverse: String?
        var toMany: Bool
        var ordered: Bool
    }
    var entities: [Entity]

    /// The snapshot of a (checked) model: transient properties, validation rules, delete
    /// rules, defaults and class bindings are left out — they do not affect storage.
    init(_ model: ManagedObjectModel) {
        entities = model.entities.sorted { $0.name < $1.name }.map { entity in
            Entity(
                name: entity.name,
                parent: entity.superentity?.name,
                attributes: entity.properties.compactMap { $0 as? AttributeDescription }.filter { !$0.isTransient }
                    .sorted { $0.name < $1.name }.map { Attribute(name: $0.name, type: $0.attributeType.rawValue) },
                relationships: entity.properties.compactMap { $0 as? RelationshipDescription }.filter { !$0.isTransient }
                    .sorted { $0.name < $1.name }
                    .map {
                        Relationship(
                            name: $0.name,
                            destination: $0.destinationEntity?.name ?? "?",
                            inverse: $0.inverseRelationship?.name,
                            toMany: $0.isToMany,
                            ordered: $0.isOrdered
                        )
                    },
                uniquenessConstraints: entity.uniquenessConstraints.map { $0.sorted() }.sorted {
                    $0.joined(separator: ",") < $1.joined(separator: ",")
                }
            )
        }
    }

    /// Canonical JSON (sorted keys).
    var json: Data { (try? JSONEncoder.sortedKeys.encode(self)) ?? Data() }

    /// The version hash: SHA-256 of the canonical JSON, in hex.
    var versionHash: String { SHA256.hash(json).hexString }

    /// Every difference from `other` (the store's model) to `self` (the app's), one line each.
    func differences(from stored: ModelSnapshot) -> [String] {
        var lines: [String] = []
        let mine = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let theirs = Dictionary(stored.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(mine.keys).union(theirs.keys).sorted() {
            switch (theirs[name], mine[name]) {
            case (nil, _?): lines.append("entity \(name) is new in the model (not in the store)")
            case (_?, nil): lines.append("entity \(name) is in the store but not in the model")
            case let (old?, new?):
                if old.parent != new.parent { lines.append("entity \(name): parent changed from \(old.parent ?? "none") to \(new.parent ?? "none")") }
                lines += diff(name, "attribute", old.attributes, new.attributes, key: \.name) { "type \($0.type)" }
                lines += diff(name, "relationship", old.relationships, new.relationships, key: \.name) {
                    "\($0.toMany ? "to-many" : "to-one")\($0.ordered ? " ordered" : "") → \($0.destination)\($0.inverse.map { " (inverse \($0))" } ?? "")"
                }
                if old.uniquenessConstraints != new.uniquenessConstraints {
                    lines.append("entity \(name): uniqueness constraints changed from \(old.uniquenessConstraints) to \(new.uniquenessConstraints)")
                }
            case (nil, nil): break
            }
        }
        return lines
    }

    private func diff<T: Equatable>(
        _ entity: String,
        _ kind: String,
        _ old: [T],
        _ new: [T],
        key: KeyPath<T, String>,
        describe: (T) -> String
    ) -> [String] {
        var lines: [String] = []
        let oldByName = Dictionary(old.map { ($0[keyPath: key], $0) }, uniquingKeysWith: { a, _ in a })
        let newByName = Dictionary(new.map { ($0[keyPath: key], $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(oldByName.keys).union(newByName.keys).sorted() {
            switch (oldByName[name], newByName[name]) {
            case (nil, let added?): lines.append("\(entity).\(name): \(kind) added (\(describe(added)))")
            case (let removed?, nil): lines.append("\(entity).\(name): \(kind) removed (was \(describe(removed)))")
            case let (before?, after?) where before != after:
                lines.append("\(entity).\(name): \(kind) changed from \(describe(before)) to \(describe(after))")
            default: break
            }
        }
        return lines
    }
}

extension ManagedObjectModel {
    /// A hash of the parts of the model that affect storage (entities, stored attributes and
    /// their types, relationships, uniqueness constraints): equal hashes read each other's stores.
    ///
    /// Valid once the model is checked (after a container loads it, or ``validate()``).
    public var versionHash: String { ModelSnapshot(self).versionHash }
}
