import Foundation
import ObjectGraph
import Testing

// Core Data code from a CS193p-style Photomania app, ported by renaming only
// (NSManagedObjectContext → ManagedObjectContext, NSPredicate → FetchPredicate, …).
extension Photo {
    static func photo(withFlickrInfo info: [String: Any], in context: ManagedObjectContext) throws -> Photo {
        let request: FetchRequest<Photo> = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "unique = %@", info["id"] as! String)
        let matches = try context.fetch(request)
        if let photo = matches.first { return photo }
        let photo = EntityDescription.insertNewObject(forEntityName: "Photo", into: context) as! Photo
        photo.unique = info["id"] as? String
        photo.title = info["title"] as? String
        photo.subtitle = info["description"] as? String
        photo.photographer = try Photographer.photographer(withName: info["ownername"] as? String ?? "Unknown", in: context)
        return photo
    }
}

extension Photographer {
    static func photographer(withName name: String, in context: ManagedObjectContext) throws -> Photographer {
        let request = NSFetchRequestPort(entityName: "Photographer")
        request.predicate = FetchPredicate(format: "name = %@", name)
        request.fetchLimit = 1
        if let existing = try context.fetch(request).first as? Photographer { return existing }
        let photographer = Photographer(context: context)
        photographer.name = name
        return photographer
    }
}

/// `NSFetchRequest<NSFetchRequestResult>`, renamed.
typealias NSFetchRequestPort = FetchRequest<FetchRequestResult>

@Suite("Core Data code ported by renaming")
struct CoreDataPortTests {
    @Test("a Photomania-style importer, background save and merge into the view context")
    func photomania() async throws {
        let stack = try TestStack(inMemory: false)
        let container = stack.container
        await MainActor.run {
            container.viewContext.automaticallyMergesChangesFromParent = true
            container.viewContext.mergePolicy = MergeByPropertyObjectTrumpMergePolicy
        }
        let flickr: [[String: String]] = [
            ["id": "1", "title": "Hoover Tower", "description": "<b>Tall</b>", "ownername": "Ansel"],
            ["id": "2", "title": "Main Quad", "description": "", "ownername": "Ansel"],
            ["id": "1", "title": "Hoover Tower (again)", "ownername": "Ansel"],
        ]
        try await container.performBackgroundTask { context in
            for info in flickr { _ = try Photo.photo(withFlickrInfo: info, in: context) }
            if context.hasChanges { try context.save() }
        }
        try await MainActor.run {
            let context = container.viewContext
            let request: FetchRequest<Photo> = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Photo.title, ascending: true)]
            let photos = try context.fetch(request)
            #expect(photos.map(\.title) == ["Hoover Tower", "Main Quad"])
            #expect(Set(photos.compactMap(\.photographer?.name)) == ["Ansel"])
            let counting = FetchRequest<FetchRequestResult>(entityName: "Photo")
            counting.resultType = .countResultType
            #expect((try context.fetch(counting).first as? NSNumber)?.intValue == 2)
            let uri = photos[0].objectID.uriRepresentation()
            let id = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri))
            #expect(context.object(with: id) === photos[0])
            try context.obtainPermanentIDs(for: photos)
            #expect(!photos[0].objectID.isTemporaryID)
        }
    }
}
