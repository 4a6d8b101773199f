/// The metadata key of a store's type (`"SQLite"` for Core Data's SQLite stores): Core Data's
/// `NSStoreTypeKey`, with its value, `"NSStoreType"`.
public let StoreTypeKey = "NSStoreType"
/// The metadata key of the entities' 32-byte version hashes, by entity name: Core Data's
/// `NSStoreModelVersionHashesKey`, `"NSStoreModelVersionHashes"`.
public let StoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// The metadata key of the model's version identifiers: Core Data's
/// `NSStoreModelVersionIdentifiersKey`, `"NSStoreModelVersionIdentifiers"`.
public let StoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
/// The metadata key of the version of Core Data that wrote the store (a number, e.g. 1344):
/// Core Data's `NSPersistenceFrameworkVersionKey`, `"NSPersistenceFrameworkVersion"`.
public let PersistenceFrameworkVersionKey = "NSPersistenceFrameworkVersion"
/// The metadata key of the version of the hashing scheme (3 in every store Core Data writes
/// today): Core Data's `NSStoreModelVersionHashesVersionKey`,
/// `"NSStoreModelVersionHashesVersion"`.
public let StoreModelVersionHashesVersionKey = "NSStoreModelVersionHashesVersion"
/// The metadata key of the model's checksum (the one Xcode shows for a model version): Core
/// Data's `NSPersistentStoreModelVersionChecksumKey`, whose value is
/// `"NSStoreModelVersionChecksumKey"` — the constant's name and its value differ.
public let PersistentStoreModelVersionChecksumKey = "NSStoreModelVersionChecksumKey"
