public import Logging
import Synchronization

/// A log handler that turns the listener's repeated "Too many open files" errors into one
/// line per episode, saying what it means, and passes everything else through.
///
/// When the process runs out of file descriptors, the server cannot accept connections; NIO
/// backs off and retries, and Hummingbird logs each failed accept. The connections already
/// open keep being served. An episode ends after ``quietPeriod`` without such an error.
public struct DescriptorExhaustionLogHandler: LogHandler {
    /// How long without a failed accept ends an episode (the next one is reported again).
    public static let quietPeriod: Duration = .seconds(30)

    private static let lastSeen = Mutex<ContinuousClock.Instant?>(nil)
    private var wrapped: any LogHandler

    /// Wraps `handler`.
    public init(_ handler: any LogHandler) {
        wrapped = handler
    }

    /// The wrapped handler's level.
    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    /// The wrapped handler's metadata provider.
    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    /// The wrapped handler's metadata.
    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    /// The wrapped handler's metadata value for `key`.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    /// Passes the message on, except failed accepts for lack of descriptors after the first of
    /// an episode.
    public func log(event: LogEvent) {
        guard Self.isDescriptorExhaustion(event) else {
            wrapped.log(event: event)
            return
        }
        let now = ContinuousClock.now
        let first = Self.lastSeen.withLock { last in
            defer { last = now }
            return last.map { now - $0 > Self.quietPeriod } ?? true
        }
        guard first else { return }
        var reported = event
        reported.level = .error
        reported.message = """
            out of file descriptors (limit \(OpenFilesLimit.current.soft)): new connections wait until some close; \
            the open ones are still served. Raise the limit (ulimit -n) for more visitors.
            """
        wrapped.log(event: reported)
    }

    private static func isDescriptorExhaustion(_ event: LogEvent) -> Bool {
        guard event.message.description == "Server channel error", let error = event.metadata?["error"]?.description else { return false }
        return error.contains("Too many open files") || error.contains("EMFILE") || error.contains("errno: 24")
            || error.contains("ENFILE")
    }
}
