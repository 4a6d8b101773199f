public import Foundation

extension ManagedObjectModel {
    /// Reads the model a store Core Data wrote carries in its `Z_MODELCACHE` — the compiled
    /// model Core Data saved there — so the store opens with nothing else.
    ///
    /// The file is read without being changed. Open the store read-only with the model (a
    /// model recovered this way has no classes of yours, and a save would be made with a model
    /// your app may not share):
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(cachedInStoreAt: storeURL)
    /// let container = PersistentContainer(name: "Any", managedObjectModel: model)
    /// let description = PersistentStoreDescription(url: storeURL)
    /// description.isReadOnly = true
    /// container.persistentStoreDescriptions = [description]
    /// ```
    ///
    /// A URL whose scheme a registered store type claims (`postgres://` once
    /// ObjectGraphPostgres's type is registered) gives the model that wrote that store: the
    /// snapshot its metadata keeps (entities, stored attributes, relationships, constraints;
    /// no defaults, validation or classes).
    ///
    /// - Throws: ``ObjectGraphError`` naming the file when it is not a Core Data store, has
    ///   no model cache, or the cache cannot be read; naming the server store when it holds no
    ///   store, cannot be reached, or keeps no model.
    public convenience init(cachedInStoreAt url: URL) throws {
        if let (_, reader) = try PersistentStoreCoordinator.registeredMetadataReader(for: url, type: .sqlite) {
            let read = try reader(url, [:])
            guard let json = read.json else {
                throw ObjectGraphError(
                    .invalidModelFile,
                    "the store at \(PersistentStoreCoordinator.displayName(of: url)) keeps no model (it was written before stores kept theirs); give the model"
                )
            }
            let metadata = try StoreMetadata.decode(json, path: PersistentStoreCoordinator.displayName(of: url))
            try self.init(snapshot: metadata.model)
            return
        }
        guard case .coreDataStore(let metadata) = try StoreFileProbe.inspect(url) else {
            throw ObjectGraphError(.invalidModelFile, "\(url.path) is not a store Core Data wrote, so it carries no model cache", file: url.path)
        }
        guard let cache = metadata.modelCache, !cache.isEmpty else {
            throw ObjectGraphError(.invalidModelFile, "\(url.path) has no model cache (its Z_MODELCACHE table is missing or empty)", file: url.path)
        }
        let read = try CompiledModelReader.model(cache: cache, source: url.path)
        self.init()
        entities = read.entities
        versionIdentifiers = read.versionIdentifiers
    }
}
