import Foundation
import Synchronization

/// A lock on a store that one holder at a time may take — across processes and, for a server
/// store, across machines — for work only one of them should do (a scheduled import, a
/// cleanup), while all of them keep reading and saving.
///
/// Taken with ``PersistentStoreCoordinator/tryExclusiveLease(named:)``; held until
/// ``release()`` or until the lease is freed. A holder that dies releases it with its process
/// (its file lock or its server connection goes with it), so a crash never leaves it taken.
package final class StoreLease: Sendable {
    private let releaser: Mutex<(@Sendable () -> Void)?>

    /// A lease that `release` gives back, once.
    package init(release: @escaping @Sendable () -> Void) {
        releaser = Mutex(release)
    }

    deinit { release() }

    /// Gives the lease back; later calls do nothing.
    package func release() {
        let release = releaser.withLock { releaser -> (@Sendable () -> Void)? in
            defer { releaser = nil }
            return releaser
        }
        release?()
    }

    /// A lease on the file `<store>-<name>.lock` beside a store file, with `flock(2)`: held
    /// against every other open of that file, in this process or another; `nil` when held.
    static func onLockFile(beside store: URL, named name: String) throws -> StoreLease? {
        let path = store.path + "-" + fileSafe(name) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ObjectGraphError(.persistentStoreOperation, "Cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            Foundation.close(descriptor)
            if failure == EWOULDBLOCK { return nil }
            throw ObjectGraphError(.persistentStoreOperation, "Cannot lock \(path): \(String(cString: strerror(failure)))")
        }
        return StoreLease {
            flock(descriptor, LOCK_UN)
            Foundation.close(descriptor)
        }
    }

    /// A lease only this process sees (a store in memory): `key` names the store and the lease.
    static func inProcess(_ key: String) -> StoreLease? {
        let taken = heldInProcess.withLock { $0.insert(key).inserted }
        guard taken else { return nil }
        return StoreLease { _ = heldInProcess.withLock { $0.remove(key) } }
    }

    private static let heldInProcess = Mutex<Set<String>>([])

    /// `name` with everything but letters, digits, `-` and `_` replaced, for a file name.
    private static func fileSafe(_ name: String) -> String {
        String(
            name.unicodeScalars.map { scalar in
                CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" ? Character(scalar) : "_"
            }
        )
    }
}
