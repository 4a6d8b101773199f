import Foundation

extension PersistentStore {
    /// The option key (a `Bool`) that makes the store record persistent history — every save as
    /// a ``PersistentHistoryTransaction`` — as Core Data's `NSPersistentHistoryTrackingKey`.
    ///
    /// A store that has history keeps recording it when added without the option, so readers
    /// catching up never miss a save.
    public static let persistentHistoryTrackingOption = "NSPersistentHistoryTrackingKey"
}

extension PersistentStoreCoordinator {
    /// The token of the last transaction in the persistent history of `stores` (the
    /// coordinator's store when `nil`), as Core Data's `currentPersistentHistoryToken(fromStores:)`:
    /// fetching history after it returns only later saves.
    ///
    /// - Returns: `nil` when the store tracks no history, has recorded none, or cannot be read.
    public func currentPersistentHistoryToken(fromStores stores: [PersistentStore]? = nil) -> PersistentHistoryToken? {
        guard let store = (stores ?? persistentStores).first?.backend else { return nil }
        return try? store.currentHistoryToken()
    }
}
