public import HummingbirdCore
public import Logging

/// How many connections the server holds at once: as many as the open-files limit allows,
/// less a reserve for the database and files, so that running out of descriptors means new
/// visitors wait rather than the server failing.
///
/// Why a cap and not the accept error: when `accept` fails for lack of descriptors, NIO (2.x on
/// Linux) leaves the listening socket registered and retries at once, spinning a core for as
/// long as visitors wait in the backlog (seen with strace: about 3,000 failed `accept4` a
/// second), and the database, which needs descriptors too, starts failing. At the cap the
/// server stops accepting; the connections it has are served as before; when one closes it
/// accepts again. Each episode is logged once, when the cap is reached.
///
/// Its state lives on the listening channel's event loop (Hummingbird calls it there), so it
/// needs no lock.
public struct ConnectionAllowance: AvailableConnectionsDelegate {
    /// The connections held at most.
    public let maximum: Int
    private let openFilesLimit: UInt64
    private let logger: Logger
    private var open = 0
    private var atCap = false

    /// An allowance fitting the soft open-files limit now in force (raise it first).
    public init(logger: Logger) {
        self.init(openFilesLimit: OpenFilesLimit.current.soft, logger: logger)
    }

    /// An allowance fitting `openFilesLimit` descriptors: the reserve is 64 or 1/32 of them,
    /// whichever is more (at least one connection is always allowed).
    init(openFilesLimit: UInt64, logger: Logger) {
        let limit = Int(clamping: openFilesLimit)
        self.maximum = max(1, limit - max(64, limit / 32))
        self.openFilesLimit = openFilesLimit
        self.logger = logger
    }

    /// Counts a connection accepted; says so once when that one reaches the cap.
    public mutating func connectionOpened() {
        open += 1
        guard open >= maximum, !atCap else { return }
        atCap = true
        logger.error(
            """
            connection limit reached: \(open) open (the open files limit, \(openFilesLimit), keeps \(Int(clamping: openFilesLimit) - maximum) \
            for the database and files); new visitors wait until some close, the open ones are still served. \
            Raise the limit (ulimit -n) for more visitors.
            """
        )
    }

    /// Counts a connection closed; an episode at the cap ends when a tenth of it is free again.
    public mutating func connectionClosed() {
        open -= 1
        guard atCap, open < maximum - max(1, maximum / 10) else { return }
        atCap = false
        logger.notice("accepting new connections again: \(open) open of at most \(maximum)")
    }

    /// Whether another connection may be accepted now.
    public func isAcceptingNewConnections() -> Bool {
        open < maximum
    }
}
