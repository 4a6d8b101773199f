/// The kind of change a ``FetchedResultsController`` reports for an object or a section, as
/// Core Data's `NSFetchedResultsChangeType` (same raw values).
public enum FetchedResultsChangeType: UInt, Sendable, Hashable, CustomStringConvertible {
    /// The object or section is new: its index path (or section index) is in the new content.
    case insert = 1
    /// The object or section left: its index path (or section index) is in the old content.
    case delete = 2
    /// The object changed position: from `indexPath` (old content) to `newIndexPath` (new).
    case move = 3
    /// The object changed without moving: `indexPath` is its old position, `newIndexPath`
    /// its position after the batch's inserts and deletes.
    case update = 4

    /// The change's name: `insert`, `delete`, `move` or `update`.
    public var description: String {
        switch self {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
    }
}
