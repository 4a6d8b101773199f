import Synchronization

/// How many requests of each kind the server answered, per item: what tests read to prove
/// that a page asked only for the thumbnails it shows.
final class RequestCounters: Sendable {
    enum Kind: Hashable, Sendable {
        case thumbnail
    }

    private let counts = Mutex<[Kind: [String: Int]]>([:])

    func count(_ kind: Kind, _ item: String) {
        counts.withLock { $0[kind, default: [:]][item, default: 0] += 1 }
    }

    /// Requests of `kind`, per item.
    func requests(_ kind: Kind) -> [String: Int] {
        counts.withLock { $0[kind] ?? [:] }
    }
}
