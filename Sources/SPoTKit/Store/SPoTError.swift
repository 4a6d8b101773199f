/// Why SPoT could not do what was asked: what went wrong and where.
public struct SPoTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, for callers that branch on it (a web server maps these to status codes).
    public enum Kind: String, Sendable, Hashable {
        /// No photo has this id.
        case photoNotFound
        /// No spot has this name.
        case spotNotFound
        /// No photographer has this id.
        case photographerNotFound
        /// The store has no entity or object by this name or id (a debug browser's lookups).
        case objectNotFound
        /// The store could not be opened, read or written.
        case store
        /// The database cannot be reached or is locked by another process (an outage, not a
        /// fault of the data): the same request may succeed later. The description says why.
        case unavailable
        /// Flickr (or the sandbox) failed.
        case flickr
        /// An image could not be fetched or decoded.
        case image
        /// A value given by the caller is not acceptable.
        case invalidInput
    }

    /// The kind of failure.
    public let kind: Kind
    /// A sentence for people, naming the file, id or value concerned.
    public let description: String

    /// Creates an error.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
