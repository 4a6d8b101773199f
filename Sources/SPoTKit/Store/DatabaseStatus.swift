public import Foundation

/// Whether the database answers: online, or offline since a moment and for a reason (a
/// PostgreSQL server that cannot be reached, an SQLite file another process keeps locked).
///
/// Carried in ``RefreshStatus/database``, so pages, `/api/status` and the status events show
/// it. While offline, what is in memory (the live lists' snapshots) keeps being served and
/// what needs the database fails at once with ``reason``.
public struct DatabaseStatus: Sendable, Hashable, Codable {
    /// Whether the database answered the last time it was asked.
    public var isOnline: Bool
    /// When it stopped answering, while it does not.
    public var offlineSince: Date?
    /// Why it does not answer (the store's error, or the time it was given), while it does not.
    public var reason: String?

    /// A database that answers.
    public static let online = DatabaseStatus(isOnline: true, offlineSince: nil, reason: nil)

    /// A database that stopped answering at `since` because of `reason`.
    public static func offline(since: Date, reason: String) -> DatabaseStatus {
        DatabaseStatus(isOnline: false, offlineSince: since, reason: reason)
    }

    /// For people: "offline since 22:41:07 UTC: …", or `nil` when online.
    public var marker: String? {
        guard !isOnline else { return nil }
        let since = offlineSince.map { " since " + Self.timeFormat.string(from: $0) } ?? ""
        return "Database offline\(since): \(reason ?? "it does not answer"). Showing what was loaded before."
    }

    private static let timeFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss 'UTC'"
        return formatter
    }()
}
