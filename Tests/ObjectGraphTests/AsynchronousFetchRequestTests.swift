import Foundation
import ObjectGraph
import Testing

/// What an asynchronous fetch's completion saw, as Sendable values.
private struct Completion: Sendable {
    let onMainQueue: Bool
    let names: [String]?
    let error: String?
    let completed: Int64
    let total: Int64
}

@Suite("Asynchronous fetch requests")
struct AsynchronousFetchRequestTests {
    /// Marks the main queue, the view context's queue (on Linux the main queue's work may run
    /// on a thread other than the main thread, so `Thread.isMainThread` cannot tell).
    private static let mainQueueKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// `count` photos saved, titled "p000"…, in a fresh store.
    private func stack(count: Int, _ store: StoreKind) throws -> TestStack {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<count {
                let photo = Photo(context: context)
                photo.unique = String(format: "p%03d", index)
                photo.views = Int64(index)
            }
            try context.save()
        }
        return stack
    }

    /// Runs `request` (sorted by `unique`) on `context` through an asynchronous fetch, awaiting
    /// its completion; `beforeReturn` runs on the context's queue right after `execute`.
    @MainActor
    private func run(
        _ request: FetchRequest<Photo>,
        on context: ManagedObjectContext,
        beforeReturn: @escaping (AsynchronousFetchResult<Photo>) -> Void = { _ in }
    ) async throws -> Completion {
        let key = Self.mainQueueKey
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Completion, any Error>) in
            let asynchronous = AsynchronousFetchRequest(fetchRequest: request) { result in
                continuation.resume(
                    returning: Completion(
                        onMainQueue: DispatchQueue.getSpecific(key: key) == 1,
                        names: result.finalResult?.map { $0.unique ?? "" },
                        error: result.operationError.map { "\($0)" },
                        completed: result.progress?.completedUnitCount ?? -1,
                        total: result.progress?.totalUnitCount ?? -1
                    )
                )
            }
            do {
                let result = try #require(try context.execute(asynchronous) as? AsynchronousFetchResult<Photo>)
                #expect(result.finalResult == nil && result.managedObjectContext === context)
                beforeReturn(result)
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    @MainActor
    @Test("the completion runs on the context's queue with the results; progress reaches its total", arguments: StoreKind.allCases)
    func completes(store: StoreKind) async throws {
        let stack = try stack(count: 450, store)
        let request = Photo.fetchRequest()
        request.predicate = FetchPredicate(format: "views >= 10")
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: false)]
        let completion = try await run(request, on: stack.container.viewContext)
        #expect(completion.onMainQueue)
        #expect(completion.error == nil)
        #expect(completion.names?.count == 440)
        #expect(completion.names?.first == "p449" && completion.names?.last == "p010")
        #expect(completion.total == 440 && completion.completed == 440)
        // The objects are registered in the context, with their values.
        let view = stack.container.viewContext
        #expect(try view.fetch(request).count == 440)
    }

    @MainActor
    @Test("limit and offset hold across pages; unsaved changes are included", arguments: StoreKind.allCases)
    func limitsAndPendingChanges(store: StoreKind) async throws {
        let stack = try stack(count: 450, store)
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
        request.fetchOffset = 190
        request.fetchLimit = 220
        let paged = try await run(request, on: stack.container.viewContext)
        #expect(paged.names == (190..<410).map { String(format: "p%03d", $0) })
        #expect(paged.completed == 220)

        let view = stack.container.viewContext
        let unsaved = Photo(context: view)
        unsaved.unique = "p999"
        let all = Photo.fetchRequest()
        all.predicate = FetchPredicate(format: "unique BEGINSWITH 'p99'")
        let pending = try await run(all, on: view)
        #expect(pending.names == ["p999"])
    }

    @MainActor
    @Test("cancelled before it completes, the fetch ends with no result and a cancellation error", arguments: StoreKind.allCases)
    func cancellation(store: StoreKind) async throws {
        let stack = try stack(count: 50, store)
        let completion = try await run(Photo.fetchRequest(), on: stack.container.viewContext) { $0.cancel() }
        #expect(completion.names == nil)
        #expect(completion.error != nil)
        #expect(completion.onMainQueue)
    }
}
