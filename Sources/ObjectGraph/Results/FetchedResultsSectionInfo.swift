import Foundation

/// A section of a ``FetchedResultsController``'s results, as Core Data's
/// `NSFetchedResultsSectionInfo`.
public protocol FetchedResultsSectionInfo {
    /// The section's name: the section key path's value, as a string (`""` for `nil`).
    var name: String { get }
    /// The section's index title (by default its name's first letter, uppercased).
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in order.
    var objects: [Any]? { get }
}

/// A section as the controller hands it out: a value taken from the content at that moment.
struct FetchedSectionInfo: FetchedResultsSectionInfo {
    let section: FetchedSection
    let indexTitle: String?

    var name: String { section.name }
    var numberOfObjects: Int { section.run.count }
    var objects: [Any]? { section.run.entries.map { $0.object as Any } }
}
