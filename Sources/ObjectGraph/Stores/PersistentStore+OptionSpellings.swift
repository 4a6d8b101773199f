import Foundation
package import Logging
import Synchronization

extension PersistentStore {
    /// Option keys spelled as Core Data does not spell them, each with the key Core Data reads.
    ///
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` is the *name* of Core Data's
    /// constant; its value, the key Core Data reads, is
    /// `"NSPersistentStoreRemoteChangeNotificationOptionKey"`. Code that sets the option by the
    /// name's spelling gets no remote change notifications on Apple's platforms. ObjectGraph
    /// reads such an option under the right key anyway (so a port is not silently broken) and
    /// logs a warning naming the right key, once per spelling and process. `"ReadOnly"` was
    /// ObjectGraph's own spelling of ``readOnlyOption`` before it took Core Data's.
    public static let misspelledOptionKeys: [String: String] = [
        "NSPersistentStoreRemoteChangeNotificationPostOptionKey": remoteChangeNotificationPostOption,
        "ReadOnly": readOnlyOption,
    ]
}

/// Reads options given by a spelling Core Data does not use under the key Core Data reads,
/// warning once per spelling.
package enum OptionSpellings {
    /// Where the warnings go: the `ObjectGraph` logger. Tests swap in a recording handler.
    package static var logger: Logger {
        get { loggerBox.withLock { $0 } }
        set { loggerBox.withLock { $0 = newValue } }
    }
    private static let loggerBox = Mutex(Logger(label: "ObjectGraph"))
    /// The spellings already warned about in this process.
    private static let warned = Mutex<Set<String>>([])

    /// `options` with each misspelled key's value also under the right key (unless the right
    /// key is set too: it wins); logs one warning per misspelled key, the first time it is seen.
    package static func corrected(_ options: [String: Any]?) -> [String: Any]? {
        guard var options else { return nil }
        var fresh: [(wrong: String, right: String)] = []
        for (wrong, right) in PersistentStore.misspelledOptionKeys.sorted(by: { $0.key < $1.key }) {
            guard let value = options[wrong] else { continue }
            if options[right] == nil { options[right] = value }
            if warned.withLock({ $0.insert(wrong).inserted }) { fresh.append((wrong, right)) }
        }
        guard !fresh.isEmpty else { return options }
        let logger = logger
        for (wrong, right) in fresh {
            logger.warning(
                "store option \"\(wrong)\" is not a key Core Data reads: use \"\(right)\"; ObjectGraph reads it as \"\(right)\" this time, Core Data would ignore it",
                metadata: ["option": "\(wrong)", "key": "\(right)"]
            )
        }
        return options
    }

    /// Forgets which spellings were warned about, so a test can see the first warning again.
    package static func forgetWarnings() { warned.withLock { $0.removeAll() } }
}
