public import Logging

/// How a ``FlickrSandbox`` starts: its behaviour, clock, accepted keys and timeline position.
public struct SandboxConfiguration: Sendable {
    /// The misbehaviour to start with (well behaved by default).
    public var behavior: SandboxBehavior
    /// The clock injected latency sleeps on; a ``Flickr/ManualClock`` in tests.
    public var clock: any Clock<Duration>
    /// The API keys accepted; `nil` accepts any non-empty key. A missing or refused key is
    /// Flickr's error 100.
    public var acceptedAPIKeys: Set<String>?
    /// The timeline epoch to start at (0 is the catalogue as first seen).
    public var epoch: Int
    /// Render every photo's `s` and `q` squares in the background at start, so the first
    /// thumbnails come from memory. Large sizes are always rendered on first request.
    public var prerenderThumbnails: Bool
    /// Where the sandbox logs (requests at `debug`, injected faults at `info`).
    public var logger: Logger

    /// Creates a configuration.
    public init(
        behavior: SandboxBehavior = SandboxBehavior(),
        clock: any Clock<Duration> = ContinuousClock(),
        acceptedAPIKeys: Set<String>? = nil,
        epoch: Int = 0,
        prerenderThumbnails: Bool = false,
        logger: Logger = Logger(label: "spot.flickr-sandbox")
    ) {
        self.behavior = behavior
        self.clock = clock
        self.acceptedAPIKeys = acceptedAPIKeys
        self.epoch = epoch
        self.prerenderThumbnails = prerenderThumbnails
        self.logger = logger
    }
}
