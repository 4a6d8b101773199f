import Foundation

extension ManagedObjectModel {
    /// The model's version checksum, exactly as Core Data's `NSManagedObjectModel.versionChecksum`:
    /// what a staged migration names a model version by (``ManagedObjectModelReference``,
    /// ``LightweightMigrationStage``).
    ///
    /// It is the base64 SHA-256 of the entities' ``EntityDescription/versionHash``es in the
    /// order of their names — the value Xcode records for each version of a compiled model
    /// (`VersionInfo.plist`'s `NSManagedObjectModel_VersionChecksums`) and Core Data keeps in a
    /// store's metadata (``PersistentStoreModelVersionChecksumKey``).
    public var versionChecksum: String {
        Self.versionChecksum(of: entityVersionHashesByName)
    }

    /// The version checksum of a model whose entities have `hashes` (by entity name), such as a
    /// store's ``StoreModelVersionHashesKey`` metadata.
    static func versionChecksum(of hashes: [String: Data]) -> String {
        var bytes = Data()
        for name in hashes.keys.sorted() { bytes.append(hashes[name]!) }
        return SHA256.hash(bytes).base64EncodedString()
    }
}
