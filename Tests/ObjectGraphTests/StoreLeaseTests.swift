import Foundation
import ObjectGraphPostgres
import Testing

@testable import ObjectGraph

/// A store-wide lease (one scheduled import among several processes or servers): one holder at
/// a time among every coordinator on the same file or database, given back on release or when
/// the holder goes away.
@Suite("Store leases: one holder among every coordinator on a store")
struct StoreLeaseTests {
    /// Two coordinators on one new store of `kind`, as two processes or instances would open it.
    static func twoCoordinators(_ kind: StoreKind) throws -> (PersistentContainer, PersistentContainer) {
        let description = try kind.newDescription()
        let first = try TestStack(description: description).container
        let again = PersistentStoreDescription(url: try #require(description.url))
        again.type = description.type
        let second = try TestStack(description: again).container
        return (first, second)
    }

    @Test("a lease held by one coordinator is refused to another until released", arguments: [StoreKind.sqlite, .postgreSQL])
    func oneHolderAtATime(kind: StoreKind) throws {
        let (first, second) = try Self.twoCoordinators(kind)
        let one = first.persistentStoreCoordinator
        let other = second.persistentStoreCoordinator

        let lease = try #require(try one.tryExclusiveLease(named: "refresh"))
        #expect(try other.tryExclusiveLease(named: "refresh") == nil, "another coordinator on the store")
        #expect(try one.tryExclusiveLease(named: "refresh") == nil, "the holder's own coordinator, a second time")
        // Leases of other names are independent.
        let cleanup = try #require(try other.tryExclusiveLease(named: "cleanup"))

        lease.release()
        let taken = try #require(try other.tryExclusiveLease(named: "refresh"), "free once released")
        #expect(try one.tryExclusiveLease(named: "refresh") == nil)
        taken.release()
        cleanup.release()
        let back = try #require(try one.tryExclusiveLease(named: "refresh"))
        back.release()
    }

    @Test("a lease no one releases is given back when it is freed", arguments: [StoreKind.sqlite, .postgreSQL, .inMemory])
    func freedLeaseIsGivenBack(kind: StoreKind) throws {
        let container = try TestStack(kind).container
        let coordinator = container.persistentStoreCoordinator
        do {
            let lease = try #require(try coordinator.tryExclusiveLease(named: "refresh"))
            #expect(try coordinator.tryExclusiveLease(named: "refresh") == nil)
            withExtendedLifetime(lease) {}
        }
        let again = try #require(try coordinator.tryExclusiveLease(named: "refresh"), "free once the holder's lease is gone")
        again.release()
    }

    @Test("an SQLite lease is a lock file beside the store, and a folder that cannot hold one is an error naming it")
    func lockFileBesideTheStore() throws {
        let stack = try TestStack(.sqlite)
        let file = try #require(stack.container.persistentStoreCoordinator.persistentStores.first?.url)
        let lease = try #require(try stack.container.persistentStoreCoordinator.tryExclusiveLease(named: "refresh/all"))
        #expect(FileManager.default.fileExists(atPath: file.path + "-refresh_all.lock"))
        lease.release()

        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Store.sqlite")
        #expect {
            _ = try StoreLease.onLockFile(beside: missing, named: "refresh")
        } throws: { error in
            "\(error)".contains(missing.path + "-refresh.lock")
        }
    }
}
