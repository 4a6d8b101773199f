import Foundation
import ObjectGraph
import Testing

/// Records which hooks ran, in order.
final class Diary: ManagedObject {
    @Managed var entry: String?
    var log: [String] = []

    override func awakeFromInsert() { log.append("awakeFromInsert") }
    override func awakeFromFetch() { log.append("awakeFromFetch") }
    override func willSave() { log.append("willSave") }
    override func didSave() { log.append("didSave") }
    override func prepareForDeletion() { log.append("prepareForDeletion") }
    override func validateForInsert() throws {
        try super.validateForInsert()
        if entry == "forbidden" {
            throw ValidationFailure(objectID: objectID, entityName: entity.name, key: "entry", message: "is forbidden")
        }
    }
}

@Suite("Life-cycle hooks")
struct LifecycleHookTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel { EntityDescription("Diary", class: Diary.self) { AttributeDescription("entry", .string) } }
    }

    @Test("hooks run at insert, save, fetch and delete; a validateForInsert override can refuse")
    func hooks() throws {
        let stack = try TestStack(inMemory: true, model: Self.model())
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let diary = Diary(context: context)
            diary.entry = "first"
            try context.save()
            #expect(diary.log == ["awakeFromInsert", "willSave", "didSave"])
            let id = diary.objectID
            context.reset()
            let fetched = try #require(try context.existingObject(with: id) as? Diary)
            #expect(fetched.log == ["awakeFromFetch"])
            context.delete(fetched)
            try context.save()
            #expect(fetched.log == ["awakeFromFetch", "prepareForDeletion", "willSave", "didSave"])
            let refused = Diary(context: context)
            refused.entry = "forbidden"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.failures.map(\.message) == ["is forbidden"])
        }
    }
}
