import FlickrSandbox
import Foundation
import GRDB
import Testing

@testable import SPoTKit

/// The `spot` command against databases it must not touch: locked by another program, or
/// another program's.
@Suite("The spot command and other programs' databases", .serialized)
struct SpotCommandStoreErrorTests {
    @Test func aLockedDatabaseIsReportedByNameAndNothingIsLost() async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appending(SPoTStore.fileName)
            #expect(try await SpotCommand.run(["refresh", "--data-dir", directory.url.path]).status == 0)
            let photoID = try #require(SandboxCatalogue.stanfordSpotIDs.first)
            // Another program holds the write lock.
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the lock outlives this call on purpose
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            let hide = try await SpotCommand.run(["hide", photoID, "--data-dir", directory.url.path])
            #expect(hide.status == 1)
            #expect(hide.stderr.hasPrefix("spot: "))
            #expect(hide.stderr.contains(file.path), "\(hide.stderr)")
            #expect(hide.stderr.contains("locked"), "\(hide.stderr)")
            // Opening waits for the lock as long as the store's timeout, then says so by name.
            let tags = try await SpotCommand.run(["tags", "--format", "tsv", "--data-dir", directory.url.path])
            let readOrSaidWhy =
                tags.status == 0
                ? tags.lines.first?.hasPrefix("All\t") == true
                : tags.stderr.contains(file.path) && tags.stderr.contains("locked")
            #expect(readOrSaidWhy, "status \(tags.status): \(tags.stdout) \(tags.stderr)")
            try await queue.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            // Once the lock is gone the same command works, and nothing was lost meanwhile.
            let retry = try await SpotCommand.run(["hide", photoID, "--data-dir", directory.url.path])
            #expect(retry.status == 0, "\(retry.stderr)")
            let after = try await SpotCommand.run(["tags", "--format", "tsv", "--data-dir", directory.url.path])
            #expect(after.status == 0)
            #expect(after.lines.first?.hasPrefix("All\t\(SandboxCatalogue.stanfordSpotIDs.count - 1)\t") == true, "\(after.stdout)")
        }
    }

    @Test func anotherProgramsDatabaseIsRefusedByName() async throws {
        try await TemporaryDirectory.with { directory in
            let file = directory.appending(SPoTStore.fileName)
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')")
            }
            try queue.close()
            let result = try await SpotCommand.run(["tags", "--data-dir", directory.url.path])
            #expect(result.status == 1)
            #expect(result.stderr.contains(file.path))
            #expect(result.stderr.contains("not an ObjectGraph store"), "\(result.stderr)")
            let check = try DatabaseQueue(path: file.path)
            #expect(try await check.read { db in try String.fetchAll(db, sql: "SELECT body FROM notes") } == ["keep me"])
        }
    }

    @Test func theDataDirectoryDefaultsFollowTheEnvironment() {
        #expect(
            SPoTConfiguration.defaultDataDirectory(environment: ["SPOT_DATA_DIR": "/srv/spot", "XDG_DATA_HOME": "/x", "HOME": "/h"]).path
                == "/srv/spot"
        )
        #expect(SPoTConfiguration.defaultDataDirectory(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/spot")
        #expect(SPoTConfiguration.defaultDataDirectory(environment: ["HOME": "/h"]).path == "/h/.local/share/spot")
        #expect(SPoTConfiguration.defaultDataDirectory(environment: ["SPOT_DATA_DIR": "", "HOME": "/h"]).path == "/h/.local/share/spot")
    }
}
