public import Foundation

/// What to fetch, as SwiftData's `FetchDescriptor`: a `#Predicate`, sort descriptors on key
/// paths, a limit and an offset.
///
/// ```swift
/// var descriptor = FetchDescriptor<Book>(
///     predicate: #Predicate { $0.title.localizedStandardContains("dune") },
///     sortBy: [SortDescriptor(\.title, comparator: .localizedStandard)]
/// )
/// descriptor.fetchLimit = 20
/// let books = try context.fetch(descriptor)
/// ```
///
/// The predicate is compiled to SQL where it can be; what cannot is evaluated in memory on
/// the rows the rest selects (see <doc:SharingSwiftDataModels>).
public struct FetchDescriptor<T: PersistentModel> {
    /// The condition models must meet; all models without one.
    public var predicate: Predicate<T>?
    /// The order of the results.
    public var sortBy: [SortDescriptor<T>]
    /// The most models to return; all without one.
    public var fetchLimit: Int?
    /// How many models to skip from the start.
    public var fetchOffset: Int?
    /// Whether unsaved inserts, changes and deletes of the context count (default `true`).
    public var includePendingChanges = true
    /// The properties to load at once (a hint; the rest load when read).
    public var propertiesToFetch: [PartialKeyPath<T>] = []
    /// The relationships whose destinations to load with the results, in as few queries.
    public var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []

    /// A descriptor of the models matching `predicate`, in `sortBy`'s order.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
    }
}
