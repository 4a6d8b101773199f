import Foundation
@testable import ObjectGraph
import Testing

/// What SQL a context runs, recorded statement by statement: the proof of batching.
@Suite("SQL a context runs")
struct SQLRecordingTests {
    @Test("a save runs one INSERT statement per entity, executed once per row, in one transaction")
    func oneInsertStatementPerEntity() throws {
        let stack = try SQLRecordingStack()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photographer = Photographer(context: context)
            photographer.name = "Ansel"
            let tags = (0..<3).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            for number in 0..<5 {
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.photographer = photographer
                photo.tags = Set(tags)
            }
            let statements = try stack.recording { try context.save() }
            for (table, rows) in [("ZPHOTO", 5), ("ZTAG", 3), ("ZPHOTOGRAPHER", 1)] {
                let inserts = statements.inserts(into: table)
                #expect(Set(inserts).count == 1, "one INSERT statement for \(table): \(Set(inserts))")
                #expect(inserts.count == rows, "executed once per \(table) row")
            }
            #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1, "\(statements)")
            #expect(statements.filter { $0.hasPrefix("COMMIT") }.count == 1)
            #expect(statements.selects(from: "ZPHOTO").isEmpty, "a save of new objects reads nothing back")
        }
    }

    @Test("a batch of faults is read with one query per entity")
    func faultBatchOneQueryPerEntity() throws {
        let stack = try SQLRecordingStack()
        let (photoIDs, tagIDs) = try Self.insertPhotosAndTags(stack, photos: 40, tags: 10)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            let faults = (photoIDs + tagIDs).map { context.object(with: $0) }
            #expect(faults.allSatisfy { $0.isFault })
            let statements = stack.recording { context.fulfillFaults(of: faults) }
            #expect(statements.selects(from: "ZPHOTO").count == 1, "\(statements)")
            #expect(statements.selects(from: "ZTAG").count == 1, "\(statements)")
            // GRDB checks the schema version before a reader connection reuses cached statements.
            #expect(statements.filter { !$0.hasPrefix("PRAGMA schema_version") }.count == 2, "\(statements)")
            #expect(faults.allSatisfy { !$0.isFault })
        }
    }

    @Test("merging a save re-reads the objects it updated with one query per entity")
    func mergeReadsOneQueryPerEntity() throws {
        let stack = try SQLRecordingStack()
        let (photoIDs, tagIDs) = try Self.insertPhotosAndTags(stack, photos: 30, tags: 6)
        let viewer = stack.container.newBackgroundContext()
        let loaded = try viewer.performAndWait {
            try viewer.fetch(Photo.fetchRequest()).count + viewer.fetch(Tag.fetchRequest()).count
        }
        #expect(loaded == 36)
        let editor = stack.container.newBackgroundContext()
        try editor.performAndWait {
            for id in photoIDs { (try editor.existingObject(with: id) as? Photo)?.title = "retitled" }
            for id in tagIDs { (try editor.existingObject(with: id) as? Tag)?.name = "renamed \(id.primaryKey)" }
            try editor.save()
        }
        let saved = ContextDidSave(insertedObjectIDs: [], updatedObjectIDs: Set(photoIDs + tagIDs), deletedObjectIDs: [])
        try viewer.performAndWait {
            let statements = stack.recording { viewer.mergeChanges(fromContextDidSave: saved) }
            #expect(statements.selects(from: "ZPHOTO").count == 1, "\(statements)")
            #expect(statements.selects(from: "ZTAG").count == 1, "\(statements)")
            let titles = try viewer.fetch(Photo.fetchRequest()).compactMap(\.title)
            #expect(titles == Array(repeating: "retitled", count: 30))
        }
    }

    private static func insertPhotosAndTags(_ stack: SQLRecordingStack, photos: Int, tags: Int) throws -> ([ManagedObjectID], [ManagedObjectID]) {
        let context = stack.container.newBackgroundContext()
        return try context.performAndWait {
            let tagObjects = (0..<tags).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            let photoObjects = (0..<photos).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                return photo
            }
            try context.save()
            return (photoObjects.map(\.objectID), tagObjects.map(\.objectID))
        }
    }
}
