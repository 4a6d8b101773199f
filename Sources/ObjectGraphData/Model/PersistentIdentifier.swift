import Foundation
public import ObjectGraph

/// A model's identity in its store, as SwiftData's `PersistentIdentifier`: `Sendable`, so it
/// crosses contexts and actors where models cannot.
///
/// A model inserted but not yet saved has a temporary identifier (as in Core Data); after
/// its first save it has its store's permanent one. A model never inserted has an identifier
/// of its own that no context knows.
public struct PersistentIdentifier: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case managed(ManagedObjectID)
        case detached(entityName: String, id: UUID)
    }

    private let storage: Storage

    init(_ objectID: ManagedObjectID) { storage = .managed(objectID) }

    init(entityName: String, detachedID: UUID) { storage = .detached(entityName: entityName, id: detachedID) }

    /// The ObjectGraph object ID behind the identifier; `nil` for a model never inserted.
    public var objectID: ManagedObjectID? {
        if case .managed(let id) = storage { return id }
        return nil
    }

    /// The name of the model's entity (its class name).
    public var entityName: String {
        switch storage {
        case .managed(let id): id.entityName
        case .detached(let name, _): name
        }
    }

    /// The identifier of the store holding the model; `nil` before the model is inserted.
    public var storeIdentifier: String? { objectID?.storeIdentifier }

    /// Whether the identifier is temporary (the model is not saved yet).
    public var isTemporary: Bool { objectID?.isTemporaryID ?? true }

    /// Orders identifiers by entity, then store primary key.
    public static func < (lhs: PersistentIdentifier, rhs: PersistentIdentifier) -> Bool {
        if lhs.entityName != rhs.entityName { return lhs.entityName < rhs.entityName }
        return (lhs.objectID?.primaryKey ?? 0) < (rhs.objectID?.primaryKey ?? 0)
    }

    /// The identifier as text: the object ID's URI, or the detached model's UUID.
    public var description: String {
        switch storage {
        case .managed(let id): id.uriRepresentation().absoluteString
        case .detached(let name, let id): "detached://\(name)/\(id.uuidString)"
        }
    }

    /// Decodes an identifier encoded with ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let url = URL(string: text), let id = ManagedObjectID(uriRepresentation: url) {
            storage = .managed(id)
        } else if text.hasPrefix("detached://"), let url = URL(string: text), let uuid = UUID(uuidString: url.lastPathComponent),
            let host = url.host
        {
            storage = .detached(entityName: host, id: uuid)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a persistent identifier: \(text)"))
        }
    }

    /// Encodes the identifier as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
