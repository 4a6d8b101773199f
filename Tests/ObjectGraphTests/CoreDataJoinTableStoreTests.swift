import Foundation
import ObjectGraph
import TestSupport
import Testing

/// A self-referential many-to-many relationship with one ordered side — DuckDuckGo's
/// `BookmarkEntity.favorites` / `favoriteFolders` — read, faulted, prefetched, saved and deleted
/// through: in a store built by hand in Core Data's layout (`bookmarks_store.py`), and on every
/// store kind ObjectGraph creates.
@Suite("Core Data stores: a self-referential join table with one ordered side")
struct CoreDataJoinTableStoreTests {
    /// A store in Core Data's layout, built by `bookmarks_store.py` with the model's version hash.
    static func handBuiltStore(namedFromInverse: Bool = false) throws -> URL {
        let model = CoreDataJoinTableTests.bookmarksModel()
        let folder = TestDirectory.make("objectgraph-bookmarks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Bookmarks.sqlite")
        let hash = try #require(model.entityVersionHashesByName["BookmarkEntity"])
        let script = CoreDataStoreFixtures.folder.appendingPathComponent("bookmarks_store.py").path
        let (status, output) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, url.path, hash.hex] + (namedFromInverse ? ["--named-from-inverse"] : []))
        guard status == 0 else { throw ReferenceReaderError(arguments: ["bookmarks_store.py"], status: status, output: output) }
        return url
    }

    /// The bookmark whose uuid is `uuid`.
    static func bookmark(_ uuid: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let request = FetchRequest<ManagedObject>(entityName: "BookmarkEntity")
        request.predicate = FetchPredicate(format: "uuid == %@", uuid)
        return try #require(try context.fetch(request).first, "no bookmark \(uuid)")
    }

    /// The uuids of `objects`.
    static func uuids(_ objects: Any?) -> [String] {
        switch objects {
        case let ordered as [ManagedObject]: ordered.compactMap { $0.value(forKey: "uuid") as? String }
        case let unordered as Set<ManagedObject>: unordered.compactMap { $0.value(forKey: "uuid") as? String }.sorted()
        default: []
        }
    }

    /// The join table's rows, folder uuid, favorite uuid and order, as Python reads them.
    static func favoriteRows(_ url: URL) throws -> [String] {
        try CoreDataJoinTableTests.rows(
            "SELECT f.ZUUID || ' ' || m.ZUUID || ' ' || j.Z_FOK_1FAVORITES FROM Z_1FAVORITES j JOIN ZBOOKMARKENTITY f ON f.Z_PK = j.Z_1FAVORITEFOLDERS JOIN ZBOOKMARKENTITY m ON m.Z_PK = j.Z_1FAVORITES ORDER BY f.ZUUID, j.Z_FOK_1FAVORITES",
            in: url
        )
    }

    @Test("a hand-built store in Core Data's layout reads, faults, prefetches, saves and deletes through Z_1FAVORITES")
    func handBuiltStore() throws {
        let url = try Self.handBuiltStore()
        let model = CoreDataJoinTableTests.bookmarksModel()
        let container = try CoreDataStoreLayoutTests.open(url, model: model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // Reading, from the ordered side and from its inverse.
            let root = try Self.bookmark("favorites_root", in: context)
            #expect(Self.uuids(root.value(forKey: "favorites")) == ["b5", "b3", "b1", "b4", "b2"])
            let b1 = try Self.bookmark("b1", in: context)
            #expect(Self.uuids(b1.value(forKey: "favoriteFolders")) == ["favorites_root", "mobile_favorites_root"])
            #expect(Self.uuids(try Self.bookmark("b6", in: context).value(forKey: "favoriteFolders")) == [])
            #expect(Self.uuids(try Self.bookmark("bookmarks_root", in: context).value(forKey: "children")) == ["b1", "b2", "b3", "b4", "b5", "b6"])
        }

        // Faulting: a fetched folder is a fault until its favorites are read, which are faults in turn.
        let faulting = container.newBackgroundContext()
        try faulting.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "BookmarkEntity")
            request.predicate = FetchPredicate(format: "uuid == %@", "mobile_favorites_root")
            let folder = try #require(try faulting.fetch(request).first)
            let favorites = try #require(folder.value(forKey: "favorites") as? [ManagedObject])
            #expect(favorites.map(\.isFault) == [true, true])
            #expect(Self.uuids(favorites) == ["b2", "b1"])
            #expect(Self.uuids(favorites[0].value(forKey: "favoriteFolders")) == ["favorites_root", "mobile_favorites_root"])
        }

        // Prefetching both directions with one fetch each.
        let prefetching = container.newBackgroundContext()
        try prefetching.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "BookmarkEntity")
            request.predicate = FetchPredicate(format: "isFolder == YES")
            request.relationshipKeyPathsForPrefetching = ["favorites", "favorites.favoriteFolders"]
            request.sortDescriptors = [FetchSortDescriptor(key: "uuid", ascending: true)]
            let folders = try prefetching.fetch(request)
            #expect(folders.map { $0.value(forKey: "uuid") as? String } == ["bookmarks_root", "favorites_root", "mobile_favorites_root"])
            let favorites = try #require(folders[1].value(forKey: "favorites") as? [ManagedObject])
            #expect(favorites.allSatisfy { !$0.isFault })
            #expect(Self.uuids(favorites.last?.value(forKey: "favoriteFolders")) == ["favorites_root", "mobile_favorites_root"])
        }

        // Saving: reorder, add, remove; from the ordered side and from its inverse.
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let root = try Self.bookmark("favorites_root", in: writer)
            let b6 = try Self.bookmark("b6", in: writer)
            var favorites = try #require(root.value(forKey: "favorites") as? [ManagedObject])
            favorites.removeAll { $0.value(forKey: "uuid") as? String == "b3" }
            favorites.insert(b6, at: 0)
            favorites.swapAt(1, 2)  // b6, b1, b5, b4, b2
            root.setValue(favorites, forKey: "favorites")
            let mobile = try Self.bookmark("mobile_favorites_root", in: writer)
            try Self.bookmark("b4", in: writer).mutableSetValue(forKey: "favoriteFolders").add(mobile)
            try writer.save()
        }
        #expect(
            try Self.favoriteRows(url)
                == [
                    "favorites_root b6 1024", "favorites_root b1 2048", "favorites_root b5 3072", "favorites_root b4 4096",
                    "favorites_root b2 5120", "mobile_favorites_root b2 1024", "mobile_favorites_root b1 2048",
                    "mobile_favorites_root b4 3072",
                ]
        )

        // Deleting a favorite takes its rows out of the join table, on both folders.
        try writer.performAndWait {
            writer.delete(try Self.bookmark("b1", in: writer))
            try writer.save()
        }
        #expect(
            try Self.favoriteRows(url).map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == [
                    "favorites_root b6", "favorites_root b5", "favorites_root b4", "favorites_root b2", "mobile_favorites_root b2",
                    "mobile_favorites_root b4",
                ]
        )

        // A new coordinator reads what was saved, in order.
        let reopened = try CoreDataStoreLayoutTests.open(url, model: model)
        let reader = reopened.newBackgroundContext()
        try reader.performAndWait {
            let root = try Self.bookmark("favorites_root", in: reader)
            let b4 = try Self.bookmark("b4", in: reader)
            #expect(Self.uuids(root.value(forKey: "favorites")) == ["b6", "b5", "b4", "b2"])
            #expect(Self.uuids(b4.value(forKey: "favoriteFolders")) == ["favorites_root", "mobile_favorites_root"])
        }
    }

    @Test("a store whose join table Core Data named from the other side is read and written where it is")
    func joinTableNamedFromTheOtherSide() throws {
        let url = try Self.handBuiltStore(namedFromInverse: true)
        let container = try CoreDataStoreLayoutTests.open(url, model: CoreDataJoinTableTests.bookmarksModel())
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let root = try Self.bookmark("favorites_root", in: context)
            #expect(Self.uuids(root.value(forKey: "favorites")) == ["b5", "b3", "b1", "b4", "b2"])
            #expect(Self.uuids(try Self.bookmark("b2", in: context).value(forKey: "favoriteFolders")) == ["favorites_root", "mobile_favorites_root"])
            try Self.bookmark("b6", in: context).mutableSetValue(forKey: "favoriteFolders").add(root)
            try context.save()
        }
        let rows = try CoreDataJoinTableTests.rows(
            "SELECT m.ZUUID FROM Z_1FAVORITEFOLDERS j JOIN ZBOOKMARKENTITY m ON m.Z_PK = j.Z_1FAVORITES WHERE j.Z_1FAVORITEFOLDERS = 1 ORDER BY j.Z_FOK_1FAVORITES",
            in: url
        )
        #expect(rows == ["b5", "b3", "b1", "b4", "b2", "b6"])
        let tables = try CoreDataJoinTableTests.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z_1%' ORDER BY name", in: url)
        #expect(tables == ["Z_1FAVORITEFOLDERS"], "no second join table was created")
    }

    @Test("the same relationship reads, faults, prefetches, saves and deletes on every store kind", arguments: StoreKind.allCases)
    func everyStoreKind(store: StoreKind) throws {
        let stack = try TestStack(store, model: CoreDataJoinTableTests.bookmarksModel())
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let folder = try CoreDataJoinTableTests.named(writer, "BookmarkEntity", "folder")
            folder.setValue(true, forKey: "isFolder")
            let other = try CoreDataJoinTableTests.named(writer, "BookmarkEntity", "other")
            other.setValue(true, forKey: "isFolder")
            let marks = try ["m1", "m2", "m3", "m4"].map { try CoreDataJoinTableTests.named(writer, "BookmarkEntity", $0) }
            folder.setValue([marks[3], marks[0], marks[2], marks[1]], forKey: "favorites")
            marks[0].mutableSetValue(forKey: "favoriteFolders").add(other)
            try writer.save()
        }

        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "BookmarkEntity")
            request.predicate = FetchPredicate(format: "isFolder == YES")
            request.sortDescriptors = [FetchSortDescriptor(key: "uuid", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["favorites.favoriteFolders"]
            let folders = try reader.fetch(request)
            #expect(folders.map { $0.value(forKey: "uuid") as? String } == ["folder", "other"])
            let favorites = try #require(folders[0].value(forKey: "favorites") as? [ManagedObject])
            #expect(Self.uuids(favorites) == ["m4", "m1", "m3", "m2"])
            #expect(Self.uuids(favorites[1].value(forKey: "favoriteFolders")) == ["folder", "other"])
            #expect(Self.uuids(folders[1].value(forKey: "favorites")) == ["m1"])
        }

        let faulting = stack.container.newBackgroundContext()
        try faulting.performAndWait {
            let m3 = try Self.bookmark("m3", in: faulting)
            let folders = try #require(m3.value(forKey: "favoriteFolders") as? Set<ManagedObject>)
            let folder = try #require(folders.first)
            #expect(folders.count == 1 && folder.isFault)
            #expect(Self.uuids(folder.value(forKey: "favorites")) == ["m4", "m1", "m3", "m2"])
            // Saving from the inverse side: m3 leaves the folder; m2 moves first.
            m3.setValue(Set<ManagedObject>(), forKey: "favoriteFolders")
            let m2 = try Self.bookmark("m2", in: faulting)
            var favorites = try #require(folder.value(forKey: "favorites") as? [ManagedObject])
            favorites.removeAll { $0 === m2 }
            favorites.insert(m2, at: 0)
            folder.setValue(favorites, forKey: "favorites")
            faulting.delete(try Self.bookmark("m4", in: faulting))
            try faulting.save()
        }

        let check = stack.container.newBackgroundContext()
        try check.performAndWait {
            #expect(Self.uuids(try Self.bookmark("folder", in: check).value(forKey: "favorites")) == ["m2", "m1"])
            #expect(Self.uuids(try Self.bookmark("m3", in: check).value(forKey: "favoriteFolders")) == [])
            #expect(Self.uuids(try Self.bookmark("m1", in: check).value(forKey: "favoriteFolders")) == ["folder", "other"])
            let all = try check.fetch(FetchRequest<ManagedObject>(entityName: "BookmarkEntity"))
            #expect(all.count == 5)
        }
    }
}
