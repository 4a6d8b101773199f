public import Foundation

/// Where refreshing stands: running or not, the last outcome, and progress.
public struct RefreshStatus: Sendable, Hashable, Codable {
    /// Whether a refresh is running now.
    public var isRunning: Bool = false
    /// When the last successful refresh finished.
    public var lastSuccess: Date?
    /// Why the last refresh failed, or `nil` if it succeeded (or none ran yet).
    public var lastError: String?
    /// When the last failure happened.
    public var lastFailure: Date?
    /// Photos new in the current (or last) refresh.
    public var newPhotos: Int = 0
    /// Photos updated in the current (or last) refresh.
    public var updatedPhotos: Int = 0
    /// Pages imported so far in the current (or last) refresh.
    public var pagesDone: Int = 0
    /// Pages Flickr reported for the current (or last) refresh; 0 before the first page.
    public var pagesTotal: Int = 0
    /// How many refreshes finished, successfully or not, since start.
    public var completedRefreshes: Int = 0
    /// Whether the last refresh was left to another process or instance on the same database,
    /// which was refreshing it: its photos arrive as it saves them.
    public var refreshedElsewhere: Bool = false
    /// Whether the database answers; while it does not, since when and why (pages show it,
    /// and refreshes are retried with growing delays until it answers).
    public var database: DatabaseStatus = .online

    /// Creates the status of a refresher that has not run.
    public init() {}

    /// Progress from 0 to 1; 0 before the first page.
    public var fractionDone: Double {
        pagesTotal == 0 ? 0 : min(1, Double(pagesDone) / Double(pagesTotal))
    }
}
