public import Foundation
import Synchronization

extension PersistentStoreCoordinator {
    /// The metadata of the store at `url`, read without opening the store — nothing is created
    /// or written — as Core Data's `metadataForPersistentStore(type:at:options:)`.
    ///
    /// A file URL is an SQLite store's: a store Core Data wrote gives its property list
    /// (`NSStoreType`, `NSStoreUUID`, `NSStoreModelVersionHashes`, …); one ObjectGraph wrote
    /// gives its metadata (`storeUUID`, `modelVersionHash`, `layout`, `model`, …) with
    /// `NSStoreType` and `NSStoreUUID` added, and `NSStoreModelVersionHashes` — each entity's
    /// version hash as Core Data computes it, `Data` by entity name — when the store keeps
    /// them (every store created or migrated since they are kept). A URL whose scheme a registered store type claims
    /// (`postgres://` once ObjectGraphPostgres's type is registered) is read by that type, in
    /// ObjectGraph's form.
    ///
    /// - Parameters:
    ///   - type: The store's type; a URL a registered type claims is that type's whatever
    ///     `type` says, as when the store is added.
    ///   - url: The store file, or the server store's URL.
    /// - Throws: ``ObjectGraphError`` naming the store when there is no store there, it cannot
    ///   be reached or read, or no registered type reads its URL's scheme.
    public static func metadataForPersistentStore(
        type: PersistentStore.StoreType = .sqlite,
        at url: URL,
        options: [String: Any]? = nil
    ) throws -> [String: Any] {
        if let (typeName, reader) = try registeredMetadataReader(for: url, type: type) {
            let read = try reader(url, options ?? [:])
            var metadata: [String: Any] = [:]
            if let json = read.json {
                guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
                    throw ObjectGraphError(.persistentStoreInvalidType, "the store at \(displayName(of: url)) has damaged ObjectGraph metadata")
                }
                metadata = object
            }
            metadata["storeUUID"] = metadata["storeUUID"] ?? read.storeUUID
            metadata["modelVersionHash"] = metadata["modelVersionHash"] ?? read.modelVersionHash
            metadata[StoreTypeKey] = typeName
            metadata[StoreUUIDKey] = read.storeUUID
            return decodingVersionHashes(metadata)
        }
        guard url.isFileURL else {
            throw ObjectGraphError(.persistentStoreInvalidType, "\(displayName(of: url)) is neither a store file nor a URL a registered store type claims")
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ObjectGraphError(.persistentStoreOperation, "\(url.path): no such file", file: url.path)
        }
        switch try StoreFileProbe.inspect(url) {
        case .noStore:
            throw ObjectGraphError(.persistentStoreInvalidType, "\(url.path) holds no store", file: url.path)
        case .coreDataStore(let metadata):
            guard let dictionary = (try? PropertyListSerialization.propertyList(from: metadata.plist, format: nil)) as? [String: Any] else {
                throw ObjectGraphError(.persistentStoreInvalidType, "\(url.path): its Core Data metadata is damaged", file: url.path)
            }
            return dictionary
        case .store(let metadata):
            let json = try JSONEncoder().encode(metadata)
            var dictionary = (try JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
            dictionary[StoreTypeKey] = SQLiteStoreType
            dictionary[StoreUUIDKey] = metadata.storeUUID
            return decodingVersionHashes(dictionary)
        }
    }

    /// `metadata` with its `NSStoreModelVersionHashes` as `Data` by entity name, as Core Data
    /// reports them (the JSON they are kept in holds them in base64).
    private static func decodingVersionHashes(_ metadata: [String: Any]) -> [String: Any] {
        guard let encoded = metadata[StoreModelVersionHashesKey] as? [String: String] else { return metadata }
        var decoded = metadata
        decoded[StoreModelVersionHashesKey] = encoded.compactMapValues { Data(base64Encoded: $0) }
        return decoded
    }

    /// The registered type that reads the metadata of the store at `url` (the one claiming its
    /// scheme, else `type` when it is registered), with its reader; `nil` for an SQLite file.
    ///
    /// - Throws: ``ObjectGraphError`` when the type that claims the URL cannot read metadata,
    ///   or no type claims a URL that is not a file's.
    static func registeredMetadataReader(for url: URL, type: PersistentStore.StoreType) throws -> (String, StoreMetadataReader)? {
        let scheme = url.scheme?.lowercased() ?? "file"
        let found: (String, RegisteredStoreTypes.Entry)? = registeredStoreTypes.withLock { types in
            if let name = types.typeClaiming(scheme: scheme), let entry = types.types[name] { return (name, entry) }
            return types.types[type.rawValue].map { (type.rawValue, $0) }
        }
        guard let (name, entry) = found else {
            if scheme != "file" {
                throw ObjectGraphError(
                    .persistentStoreInvalidType,
                    "no store type is registered for \(scheme)\u{3A}// URLs; link the library of the store type that opens them and register it first"
                )
            }
            return nil
        }
        guard let reader = entry.metadataReader else {
            throw ObjectGraphError(.persistentStoreInvalidType, "the store type \(name) does not read a store's metadata without opening it")
        }
        return (name, reader)
    }

    /// `url` as errors name it: a file's path, else the URL without its password.
    package static func displayName(of url: URL) -> String {
        guard !url.isFileURL else { return url.path }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the store's URL" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "the store's URL"
    }
}
