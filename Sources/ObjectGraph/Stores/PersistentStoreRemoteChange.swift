public import Foundation

extension PersistentStore {
    /// The option key (a `Bool`) that makes the coordinator notice commits made to the store by
    /// another process or another coordinator, and post a
    /// ``Foundation/Notification/Name/persistentStoreRemoteChange`` notification for each — Core
    /// Data's `NSPersistentStoreRemoteChangeNotificationPostOptionKey`, whose value (the string
    /// Core Data reads, and this key's) is `"NSPersistentStoreRemoteChangeNotificationOptionKey"`:
    /// the constant's name and its value differ. Options set by the name's spelling still work,
    /// with a warning in the log (see <doc:PortingFromCoreData>).
    ///
    /// With ``persistentHistoryTrackingOption`` on as well, the notification carries the
    /// history token after the commit, and contexts with
    /// ``ManagedObjectContext/automaticallyMergesChangesFromParent`` merge the other writer's
    /// transactions by themselves (see <doc:Concurrency>). Without history the contexts that
    /// merge automatically fetch their objects anew, since what changed is unknown.
    public static let remoteChangeNotificationPostOption = "NSPersistentStoreRemoteChangeNotificationOptionKey"

    /// The option key of how often, in seconds, the store is checked for other writers'
    /// commits (a number; 0.04 when absent). Shorter brings remote changes sooner; each check is
    /// one `PRAGMA data_version`, a few microseconds.
    public static let remoteChangePollingIntervalOption = "ObjectGraphRemoteChangePollingInterval"
}

extension Notification.Name {
    /// Posted by a ``PersistentStoreCoordinator`` (the notification's object) when another
    /// process or coordinator committed to one of its stores — Core Data's
    /// `NSPersistentStoreRemoteChange`. Its user info holds ``StoreUUIDKey``, ``StoreURLKey``
    /// and, for a store with history, ``PersistentHistoryTokenKey``.
    ///
    /// Posted on a private queue, once per commit noticed (commits close together may arrive
    /// in one notification). Never posted for the coordinator's own saves.
    public static let persistentStoreRemoteChange = Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// The user-info key of the ``PersistentHistoryToken`` after the commits a remote change
/// notification announces: Core Data's `NSPersistentHistoryTokenKey`, whose value is
/// `"historyToken"`.
public let PersistentHistoryTokenKey = "historyToken"
/// The user-info key of the store's identifier (a `String`): Core Data's `NSStoreUUIDKey`
/// (`"NSStoreUUID"`), also the metadata key of the store's identifier.
public let StoreUUIDKey = "NSStoreUUID"
/// The user-info key of the store's file URL: Core Data's `NSPersistentStoreURLKey`, whose
/// value is `"storeURL"`.
public let StoreURLKey = "storeURL"

/// Commits another process or coordinator made to a store, as a remote change notification
/// announces them; the element of ``PersistentStoreCoordinator/remoteChanges``.
public struct PersistentStoreRemoteChange: Sendable, Hashable {
    /// The identifier of the store that changed.
    public let storeIdentifier: String
    /// The store's file.
    public let storeURL: URL?
    /// The history token after the announced commits; `nil` for a store without persistent
    /// history. Fetch the history after your last token up to this one to see what changed.
    public let historyToken: PersistentHistoryToken?
    /// Whether history the coordinator had not read yet was pruned before it could: the
    /// contexts that merge automatically fetched their objects anew instead of merging.
    public let historyWasLost: Bool

    /// The notification's user info, with Core Data's keys.
    var userInfo: [AnyHashable: Any] {
        var info: [AnyHashable: Any] = [StoreUUIDKey: storeIdentifier]
        if let storeURL { info[StoreURLKey] = storeURL }
        if let historyToken { info[PersistentHistoryTokenKey] = historyToken }
        return info
    }
}
