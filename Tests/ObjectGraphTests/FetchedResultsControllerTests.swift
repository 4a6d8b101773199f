import Foundation
import ObjectGraph
import Testing

@Suite("Fetched results controller")
struct FetchedResultsControllerTests {
    /// A context on a fresh store, with items named and grouped as given (rank = position).
    private func stack(_ items: [(name: String, group: String?)]) throws -> (TestStack, ManagedObjectContext) {
        let stack = try TestStack(inMemory: true, model: FetchedResultsScenario.model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for (index, spec) in items.enumerated() {
                let item = Item(context: context)
                item.name = spec.name
                item.group = spec.group
                item.rank = Int64(index)
            }
            try context.save()
        }
        return (stack, context)
    }

    private func controller(
        _ context: ManagedObjectContext,
        predicate: String? = nil,
        sorts: [FetchSortDescriptor] = [FetchSortDescriptor(key: "group", ascending: true), FetchSortDescriptor(key: "name", ascending: true)],
        section: String? = "group"
    ) -> FetchedResultsController<Item> {
        let request = Item.fetchRequest()
        request.predicate = predicate.map { FetchPredicate(format: $0) }
        request.sortDescriptors = sorts
        return FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: section, cacheName: nil)
    }

    /// Fetches with a recording delegate; keep the recorder (the delegate is held weakly).
    private func observe<T>(_ controller: FetchedResultsController<T>) throws -> ChangeRecorder {
        let recorder = ChangeRecorder()
        controller.delegate = recorder
        try controller.performFetch()
        return recorder
    }

    private func item(named name: String, in context: ManagedObjectContext) throws -> Item {
        let request = Item.fetchRequest()
        request.predicate = FetchPredicate(format: "name == %@", name)
        return try #require(try context.fetch(request).first)
    }

    @Test("sections, index paths and index titles follow the sort")
    func sectionsAndIndexPaths() throws {
        let (_, context) = try stack([("hoover", "H"), ("quad", "Q"), ("hall", "H"), ("memchu", "M"), ("oval", "O")])
        try context.performAndWait {
            let frc = controller(context)
            #expect(frc.fetchedObjects == nil && frc.sections == nil)
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["H", "M", "O", "Q"])
            #expect(frc.sections?.map(\.numberOfObjects) == [2, 1, 1, 1])
            #expect(frc.fetchedObjects?.map(\.name) == ["hall", "hoover", "memchu", "oval", "quad"])
            #expect(frc.object(at: IndexPath(row: 1, section: 0)).name == "hoover")
            let oval = try item(named: "oval", in: context)
            #expect(frc.indexPath(forObject: oval) == IndexPath(row: 0, section: 2))
            #expect(frc.sectionIndexTitles == ["H", "M", "O", "Q"])
            #expect(frc.section(forSectionIndexTitle: "O", at: 2) == 2)
            #expect(frc.section(forSectionIndexTitle: "P", at: 3) == 2, "a letter with no section goes to the one before")
            #expect((frc.sections?[0].objects as? [Item])?.map(\.name) == ["hall", "hoover"])
        }
    }

    @Test("IndexPath(row:section:) and IndexPath(item:section:) as on UIKit")
    func indexPathSpelling() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.row == 3 && path.section == 1 && path.item == 3)
        path.row = 4
        #expect(path == IndexPath(item: 4, section: 1))
        #expect(IndexPath(row: 0, section: 1) > IndexPath(row: 9, section: 0))
    }

    @Test("without a section key path there is one section, even when empty")
    func oneSectionWhenUnsectioned() throws {
        let (_, context) = try stack([])
        try context.performAndWait {
            let frc = controller(context, sorts: [FetchSortDescriptor(key: "rank", ascending: true)], section: nil)
            try frc.performFetch()
            #expect(frc.sections?.count == 1)
            #expect(frc.sections?.first?.numberOfObjects == 0)
            #expect(frc.fetchedObjects?.isEmpty == true)
        }
    }

    @Test("a request without sort descriptors is refused")
    func sortDescriptorsRequired() throws {
        let (_, context) = try stack([("a", "A")])
        context.performAndWait {
            let frc = controller(context, sorts: [])
            #expect(throws: ObjectGraphError.self) { try frc.performFetch() }
        }
    }

    @Test("a section key path must name one value per object", arguments: ["nope", "owner.nope", "labels.name", "name.count"])
    func badSectionKeyPath(path: String) throws {
        let (_, context) = try stack([("a", "A")])
        context.performAndWait {
            let frc = controller(context, section: path)
            do {
                try frc.performFetch()
                Issue.record("accepted section key path \(path)")
            } catch {
                #expect("\(error)".contains(path))
            }
        }
    }

    @Test("sections that are not contiguous in the sort order make performFetch throw, naming section and sort")
    func nonContiguousSectionsThrow() throws {
        let (_, context) = try stack([("a", "X"), ("b", "Y"), ("c", "X")])
        context.performAndWait {
            let frc = controller(context, sorts: [FetchSortDescriptor(key: "name", ascending: true)])
            do {
                try frc.performFetch()
                Issue.record("performFetch accepted scrambled sections")
            } catch let error as ObjectGraphError {
                #expect(error.code == .sectionsNotContiguous)
                #expect(error.description.contains("'X'"))
                #expect(error.description.contains("name"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test("a change that would break contiguity is reported; the controller keeps its last content")
    func contiguityBrokenByChange() throws {
        let (_, context) = try stack([("a", "X"), ("b", "X"), ("c", "Y")])
        try context.performAndWait {
            let frc = controller(context, sorts: [FetchSortDescriptor(key: "name", ascending: true)])
            let recorder = try observe(frc)
            try item(named: "a", in: context).group = "Y"  // Y, X, Y in name order
            context.processPendingChanges()
            #expect(recorder.errors.count == 1)
            #expect((recorder.errors.first as? ObjectGraphError)?.code == .sectionsNotContiguous)
            #expect(recorder.batches.isEmpty)
            #expect(frc.sections?.map(\.name) == ["X", "Y"])
            #expect(frc.sections?.map(\.numberOfObjects) == [2, 1])
            #expect(throws: ObjectGraphError.self) { try frc.performFetch() }
        }
    }

    @Test("an edit that does not move an object is an update, never a move")
    func updateIsNotMove() throws {
        let (_, context) = try stack([("a", "A"), ("b", "A"), ("c", "B")])
        try context.performAndWait {
            let frc = controller(context)
            let recorder = try observe(frc)
            try item(named: "b", in: context).note = "seen"
            context.processPendingChanges()
            try item(named: "b", in: context).name = "b2"  // a sort key, same position
            context.processPendingChanges()
            let batches = recorder.drain()
            #expect(batches.map(\.objects.count) == [1, 1])
            for batch in batches {
                #expect(batch.objects.first?.type == .update)
                #expect(batch.objects.first?.indexPath == IndexPath(row: 1, section: 0))
                #expect(batch.sections.isEmpty)
            }
        }
    }

    @Test("a sort-key edit that changes the position is one move with both index paths")
    func moveWithIndexPaths() throws {
        let (_, context) = try stack([("a", "A"), ("b", "A"), ("c", "A"), ("d", "B")])
        try context.performAndWait {
            let frc = controller(context)
            let recorder = try observe(frc)
            try item(named: "a", in: context).name = "cc"
            context.processPendingChanges()
            let batch = try #require(recorder.drain().first)
            #expect(batch.objects.map(\.type) == [.move])
            #expect(batch.objects.first?.indexPath == IndexPath(row: 0, section: 0))
            #expect(batch.objects.first?.newIndexPath == IndexPath(row: 2, section: 0))
            #expect(frc.fetchedObjects?.map(\.name) == ["b", "c", "cc", "d"])
        }
    }

    @Test("moving the last object out of a section deletes the section and inserts the new one, in batch order")
    func sectionInsertAndDelete() throws {
        let (_, context) = try stack([("a", "A"), ("b", "B")])
        try context.performAndWait {
            let frc = controller(context)
            let recorder = try observe(frc)
            try item(named: "a", in: context).group = "C"
            context.processPendingChanges()
            let batch = try #require(recorder.drain().first)
            #expect(batch.sections == [.init(name: "A", index: 0, type: .delete), .init(name: "C", index: 1, type: .insert)])
            #expect(batch.objects.map(\.type) == [.delete, .insert])
            #expect(
                try SectionsModel([("A", [item(named: "a", in: context).objectID]), ("B", [item(named: "b", in: context).objectID])]).applying(batch)
                    == SectionsModel(frc)
            )
            #expect(frc.sections?.map(\.name) == ["B", "C"])
            let difference = try #require(batch.difference)
            #expect(difference.before.sectionIdentifiers == ["A", "B"])
            #expect(difference.after.sectionIdentifiers == ["B", "C"])
            #expect(difference.movedItemIdentifiers.count == 1)
        }
    }

    @Test("a background save merged in inserts the objects that now match, including ones never fetched here")
    func mergedSaveInsertsNewMatches() throws {
        let (stack, context) = try stack([("a", "A"), ("b", "B")])
        let frc = context.performAndWait { controller(context, predicate: "rank >= 10") }
        let recorder = ChangeRecorder()
        try context.performAndWait {
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.fetchedObjects?.isEmpty == true)
        }
        let writer = stack.container.newBackgroundContext()
        let saved = try writer.savingChanges {
            let request = Item.fetchRequest()
            request.predicate = FetchPredicate(format: "name == 'b'")
            try writer.fetch(request).first?.rank = 10
            let new = Item(context: writer)
            new.name = "n"
            new.group = "A"
            new.rank = 11
        }
        try context.performAndWait {
            context.mergeChanges(fromContextDidSave: try #require(saved))
            let batch = try #require(recorder.drain().first)
            #expect(Set(batch.objects.map(\.type)) == [.insert])
            #expect(frc.fetchedObjects?.map(\.name) == ["n", "b"])
            #expect(frc.sections?.map(\.name) == ["A", "B"])
        }
    }

    @Test("sorting by a related object's key path follows changes to the related object")
    func relatedSortKey() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var recents: [Recent] = []
            for (index, title) in ["hoover", "quad", "oval"].enumerated() {
                let photo = Photo(context: context)
                photo.unique = title
                photo.title = title
                let recent = Recent(context: context)
                recent.photo = photo
                recent.lastViewed = Date(timeIntervalSinceReferenceDate: Double(index))
                recents.append(recent)
            }
            try context.save()
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "recent != nil")
            request.sortDescriptors = [FetchSortDescriptor(key: "recent.lastViewed", ascending: false)]
            let frc = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = try observe(frc)
            #expect(frc.fetchedObjects?.map(\.title) == ["oval", "quad", "hoover"])
            recents[0].lastViewed = Date(timeIntervalSinceReferenceDate: 100)  // view hoover again
            context.processPendingChanges()
            #expect(frc.fetchedObjects?.map(\.title) == ["hoover", "oval", "quad"])
            let batch = try #require(recorder.drain().first)
            #expect(batch.objects.map(\.type) == [.move])
            #expect(batch.objects.first?.indexPath == IndexPath(row: 2, section: 0))
            #expect(batch.objects.first?.newIndexPath == IndexPath(row: 0, section: 0))
        }
    }

    @Test("a related key path without an inverse relationship still follows changes (by refetching)")
    func relatedKeyWithoutInverse() throws {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("title", .string)
                RelationshipDescription("folder", to: "Folder", inverse: nil)
            }
            EntityDescription("Folder") {
                AttributeDescription("name", .string)
            }
        }
        let stack = try TestStack(inMemory: true, model: model)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var folders: [ManagedObject] = []
            for (title, folder) in [("n1", "b"), ("n2", "a")] {
                let folderObject = try context.insertObject(entityName: "Folder")
                folderObject.setValue(folder, forKey: "name")
                let note = try context.insertObject(entityName: "Note")
                note.setValue(title, forKey: "title")
                note.setValue(folderObject, forKey: "folder")
                folders.append(folderObject)
            }
            try context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Note")
            request.sortDescriptors = [FetchSortDescriptor(key: "folder.name", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request,
                managedObjectContext: context,
                sectionNameKeyPath: "folder.name",
                cacheName: nil
            )
            let recorder = try observe(frc)
            #expect(frc.fetchedObjects?.map { $0.value(forKey: "title") as? String } == ["n2", "n1"])
            folders[1].setValue("c", forKey: "name")
            context.processPendingChanges()
            #expect(frc.fetchedObjects?.map { $0.value(forKey: "title") as? String } == ["n1", "n2"])
            #expect(frc.sections?.map(\.name) == ["b", "c"])
            let batch = try #require(recorder.drain().first)
            #expect(try SectionsModel(batch.difference!.before).applying(batch) == SectionsModel(frc))
        }
    }

    @Test("a change in a to-many relationship is an update of that row (a tag's photo count)")
    func toManyChangeIsUpdate() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for name in ["hoover", "quad"] {
                let tag = Tag(context: context)
                tag.name = name
            }
            try context.save()
            let request = Tag.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = try observe(frc)
            let photo = Photo(context: context)
            photo.unique = "p"
            photo.tags = [frc.object(at: IndexPath(row: 1, section: 0))]
            context.processPendingChanges()
            let batch = try #require(recorder.drain().first)
            #expect(batch.objects.map(\.type) == [.update])
            #expect(batch.objects.first?.indexPath == IndexPath(row: 1, section: 0))
            #expect(frc.object(at: IndexPath(row: 1, section: 0)).value(forKeyPath: "photos.@count") as? Int == 1)
        }
    }

    @Test("a merged save that adds a photo to a tag is an update of the tag's row")
    func mergedToManyChangeIsUpdate() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            for name in ["hoover", "quad"] { Tag(context: writer).name = name }
            try writer.save()
        }
        let frc = context.performAndWait {
            let request = Tag.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            return FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        }
        let recorder = try context.performAndWait { try observe(frc) }
        let saved = try writer.savingChanges {
            let request = Tag.fetchRequest()
            request.predicate = FetchPredicate(format: "name == 'quad'")
            let photo = Photo(context: writer)
            photo.unique = "p"
            photo.tags = Set(try writer.fetch(request))
        }
        try context.performAndWait {
            context.mergeChanges(fromContextDidSave: try #require(saved))
            let batch = try #require(recorder.drain().first)
            #expect(batch.objects.map(\.type) == [.update])
            #expect(batch.objects.first?.indexPath == IndexPath(row: 1, section: 0))
            #expect(frc.object(at: IndexPath(row: 1, section: 0)).photos.count == 1)
        }
    }

    @Test("reset refetches and reports the difference")
    func resetRefetches() throws {
        let (_, context) = try stack([("a", "A"), ("b", "B")])
        try context.performAndWait {
            let frc = controller(context)
            let recorder = try observe(frc)
            let extra = Item(context: context)
            extra.name = "c"
            extra.group = "C"
            context.processPendingChanges()
            #expect(frc.sections?.map(\.name) == ["A", "B", "C"])
            context.reset()
            #expect(frc.sections?.map(\.name) == ["A", "B"])
            let batches = recorder.drain()
            #expect(batches.count == 2)
            #expect(batches.last?.sections == [.init(name: "C", index: 2, type: .delete)])
            #expect(frc.fetchedObjects?.allSatisfy { $0.managedObjectContext === context } == true)
        }
    }

    @Test("a fetch limit keeps the first objects as others enter and leave")
    func fetchLimit() throws {
        let (_, context) = try stack([("a", "A"), ("b", "A"), ("c", "A"), ("d", "A")])
        try context.performAndWait {
            let request = Item.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            request.fetchLimit = 2
            let frc = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try frc.performFetch()
            context.delete(try item(named: "a", in: context))
            context.processPendingChanges()
            #expect(frc.fetchedObjects?.map(\.name) == ["b", "c"])
        }
    }

    @Test("the delegate's index titles replace the default")
    func delegateIndexTitles() throws {
        final class Titles: FetchedResultsControllerDelegate {
            func controller(
                _ controller: FetchedResultsController<any FetchRequestResult>,
                sectionIndexTitleForSectionName sectionName: String
            ) -> String? {
                "#" + sectionName.lowercased()
            }
        }
        let (_, context) = try stack([("a", "Alpha"), ("b", "Beta")])
        try context.performAndWait {
            let frc = controller(context)
            let titles = Titles()
            frc.delegate = titles
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["#alpha", "#beta"])
            #expect(frc.sections?.first?.indexTitle == "#alpha")
        }
    }

    @Test("an untyped controller (NSFetchedResultsController<NSFetchRequestResult>) ports by renaming")
    func untypedController() throws {
        let (_, context) = try stack([("b", "B"), ("a", "A")])
        try context.performAndWait {
            let request = FetchRequest<FetchRequestResult>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController<FetchRequestResult>(
                fetchRequest: request,
                managedObjectContext: context,
                sectionNameKeyPath: nil,
                cacheName: nil
            )
            try frc.performFetch()
            let first = frc.object(at: IndexPath(row: 0, section: 0)) as? Item
            #expect(first?.name == "a")
            #expect(frc.indexPath(forObject: try item(named: "b", in: context)) == IndexPath(row: 1, section: 0))
        }
    }

    @Test("Core Data delegate code ports by renaming")
    func portedDelegate() throws {
        // NSFetchedResultsControllerDelegate, with NS… renamed.
        final class TableController: FetchedResultsControllerDelegate {
            var log: [String] = []
            func controllerWillChangeContent(_ controller: FetchedResultsController<FetchRequestResult>) { log.append("begin") }
            func controller(
                _ controller: FetchedResultsController<FetchRequestResult>,
                didChange sectionInfo: FetchedResultsSectionInfo,
                atSectionIndex sectionIndex: Int,
                for type: FetchedResultsChangeType
            ) {
                log.append("section \(type) \(sectionIndex)")
            }
            func controller(
                _ controller: FetchedResultsController<FetchRequestResult>,
                didChange anObject: Any,
                at indexPath: IndexPath?,
                for type: FetchedResultsChangeType,
                newIndexPath: IndexPath?
            ) {
                switch type {
                case .insert: log.append("insert \(newIndexPath!.section).\(newIndexPath!.row)")
                case .delete: log.append("delete \(indexPath!.section).\(indexPath!.row)")
                case .update: log.append("update \(indexPath!.section).\(indexPath!.row)")
                case .move: log.append("move \(indexPath!.row) → \(newIndexPath!.row)")
                }
            }
            func controllerDidChangeContent(_ controller: FetchedResultsController<FetchRequestResult>) { log.append("end") }
        }
        let (_, context) = try stack([("a", "A")])
        try context.performAndWait {
            let frc = controller(context)
            let table = TableController()
            frc.delegate = table
            try frc.performFetch()
            let new = Item(context: context)
            new.name = "b"
            new.group = "B"
            try context.save()
            #expect(table.log == ["begin", "section insert 1", "insert 1.0", "end"])
        }
    }
}

/// A main-actor list model, as an app's view layer writes it.
@MainActor
final class MainActorListModel {
    var rows: [String] = []
    var batches = 0
    /// Called once after the next batch.
    var onNextChange: (() -> Void)?
    let controller: FetchedResultsController<Item>

    init(context: ManagedObjectContext) throws {
        let request = Item.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = self
        try controller.performFetch()
        rows = controller.fetchedObjects?.compactMap(\.name) ?? []
    }
}

extension MainActorListModel: @preconcurrency FetchedResultsControllerDelegate {
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        batches += 1
        rows = self.controller.fetchedObjects?.compactMap(\.name) ?? []
        let next = onNextChange
        onNextChange = nil
        next?()
    }
}

@Suite("Fetched results controller on the view context")
struct FetchedResultsMainActorTests {
    @MainActor
    @Test("a main-actor delegate hears the view context's changes on the main actor")
    func viewContextDelegate() throws {
        let stack = try TestStack(inMemory: true, model: FetchedResultsScenario.model)
        let context = stack.container.viewContext
        let model = try MainActorListModel(context: context)
        let item = Item(context: context)
        item.name = "hoover"
        try context.save()
        #expect(model.batches == 1)
        #expect(model.rows == ["hoover"])
    }

    @MainActor
    @Test("a background save reaches a view-context list through automatic merging", .timeLimit(.minutes(10)))
    func automaticMergeReachesList() async throws {
        let stack = try TestStack(inMemory: true, model: FetchedResultsScenario.model)
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let model = try MainActorListModel(context: view)
        let writer = stack.container.newBackgroundContext()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            model.onNextChange = { done.resume() }
            writer.perform {
                let item = Item(context: writer)
                item.name = "quad"
                try? writer.save()
            }
        }
        #expect(model.rows == ["quad"])
        #expect(model.batches == 1)
    }
}
