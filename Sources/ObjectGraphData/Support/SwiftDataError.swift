/// An error of this library's own, as SwiftData's `SwiftDataError`: a code and what happened.
///
/// Errors of the store, validation and constraints come from ObjectGraph as its
/// `ObjectGraphError`, unchanged.
public struct SwiftDataError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case saveNotAllowed
        case loadIssueModelContainer
        case unsupportedPredicate
        case migrationFailed
    }

    private let code: Code
    /// What happened, for people.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The configuration does not allow saves (`allowsSave: false`).
    public static let saveNotAllowed = SwiftDataError(.saveNotAllowed, "the container's configuration does not allow saves")
    /// The container could not open its stores.
    public static let loadIssueModelContainer = SwiftDataError(.loadIssueModelContainer, "the container could not load its stores")
    /// A predicate cannot be evaluated.
    public static let unsupportedPredicate = SwiftDataError(.unsupportedPredicate, "the predicate cannot be evaluated")
    /// A migration plan does not lead from the store's version to the schema's.
    public static let migrationFailed = SwiftDataError(.migrationFailed, "the store could not be migrated")

    /// This error with `message` in place of the generic one.
    func with(_ message: String) -> SwiftDataError { SwiftDataError(code, message) }

    /// Errors are equal when their codes are.
    public static func == (lhs: SwiftDataError, rhs: SwiftDataError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `saveNotAllowed: the container's configuration does not allow saves`.
    public var description: String { "\(code.rawValue): \(message)" }
}
