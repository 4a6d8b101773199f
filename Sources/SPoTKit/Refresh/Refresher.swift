public import Flickr
import Foundation
public import Logging
import ObjectGraph

/// Fetches SPoT's photos from Flickr into the store: on demand, when the store is empty at
/// start, and on a schedule.
///
/// One refresh runs at a time; asking for one while it runs joins it. Each page is imported
/// and saved on its own (readers never wait), so a Flickr failure midway leaves the pages
/// before it saved and everything else as it was; the failure is reported in ``status``.
public actor Refresher {
    /// The default time between scheduled refreshes: 20 minutes.
    public static let defaultInterval: Duration = .seconds(20 * 60)

    let store: SPoTStore
    let client: FlickrClient
    let query: FlickrPhotoQuery
    let perPage: Int
    let interval: Duration
    let clock: ClockBox
    let logger: Logger
    /// The refresh in progress.
    private var current: Task<RefreshStatus, Never>?
    private var schedule: Task<Void, Never>?
    /// The current status.
    public private(set) var status = RefreshStatus()
    private var observers: [UUID: AsyncStream<RefreshStatus>.Continuation] = [:]
    /// Calls of ``refresh()`` so far, for tests that hold a refresh back until every trigger
    /// is in.
    private var triggers = ArrivalCount()

    /// A refresher of `store` from `client`.
    /// - Parameters:
    ///   - query: what to fetch; SPoT's `cs193pspot` tag search by default.
    ///   - perPage: photos per page (and per save).
    ///   - interval: time between scheduled refreshes; zero disables the schedule.
    ///   - clock: the clock the schedule sleeps on (a `ManualClock` in tests).
    public init(
        store: SPoTStore,
        client: FlickrClient,
        query: FlickrPhotoQuery = .tagged(),
        perPage: Int = 100,
        interval: Duration = Refresher.defaultInterval,
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "spot.refresher")
    ) {
        self.store = store
        self.client = client
        self.query = query
        self.perPage = perPage
        self.interval = interval
        self.clock = ClockBox(clock)
        self.logger = logger
    }

    /// Refreshes now, or joins the refresh already running, and returns the status after it.
    @discardableResult
    public func refresh() async -> RefreshStatus {
        triggers.add(1)
        if let current { return await current.value }
        let task = Task { await self.run() }
        current = task
        let result = await task.value
        current = nil
        return result
    }

    /// Returns once ``refresh()`` has been called `count` times in all, or when the calling
    /// task is cancelled.
    package func waitForTriggers(_ count: Int) async {
        let token = triggers.makeToken()
        await withTaskCancellationHandler {
            await withCheckedContinuation { triggers.wait(token, for: count, $0) }
        } onCancel: {
            Task { await self.cancelTriggerWait(token) }
        }
    }

    private func cancelTriggerWait(_ token: Int) {
        triggers.cancel(token)
    }

    /// The schedule's task while one runs: it ends by itself when the interval is zero (after
    /// the refresh of an empty store), for tests that prove nothing more will run.
    package var scheduleTask: Task<Void, Never>? { schedule }

    /// Starts the schedule: a refresh at once when the store has no photos, then one every
    /// `interval` (none when the interval is zero). Calling it again restarts the schedule.
    public func start() {
        schedule?.cancel()
        schedule = Task {
            if ((try? await store.counts().photos) ?? 0) == 0 { await refresh() }
            guard interval > .zero else { return }
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                await refresh()
            }
        }
    }

    /// Stops the schedule and a refresh in progress: the page being saved is saved, the
    /// pages after it are not fetched.
    public func stop() async {
        schedule?.cancel()
        schedule = nil
        current?.cancel()
        _ = await current?.value
    }

    /// The status now and after every change (each page, each end of a refresh).
    public func statusUpdates() -> AsyncStream<RefreshStatus> {
        let (stream, continuation) = AsyncStream<RefreshStatus>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        continuation.yield(status)
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func update(_ change: (inout RefreshStatus) -> Void) {
        change(&status)
        for observer in observers.values { observer.yield(status) }
    }

    private func run() async -> RefreshStatus {
        // One refresh at a time among every process and instance on the database: the others
        // leave it to the one refreshing and see its pages arrive in their lists.
        let lease: StoreLease
        do {
            guard let taken = try store.tryRefreshLease() else {
                logger.info("another process is refreshing the database; its photos arrive as it saves them")
                update {
                    $0.refreshedElsewhere = true
                    $0.lastError = nil
                    $0.completedRefreshes += 1
                }
                return status
            }
            lease = taken
        } catch {
            logger.warning("refresh failed", metadata: ["error": "\(error)"])
            update {
                $0.lastError = "\(error)"
                $0.lastFailure = Date()
                $0.completedRefreshes += 1
            }
            return status
        }
        defer { lease.release() }
        update {
            $0.refreshedElsewhere = false
            $0.isRunning = true
            $0.newPhotos = 0
            $0.updatedPhotos = 0
            $0.pagesDone = 0
            $0.pagesTotal = 0
        }
        do {
            for try await page in client.pages(of: query, perPage: perPage) {
                try Task.checkCancellation()
                let counts = try await store.importer.importPage(page.photos)
                // Progress counts what the open lists already show.
                await store.waitForLiveLists()
                update {
                    $0.pagesTotal = max(page.pages, page.page)
                    $0.pagesDone = page.page
                    $0.newPhotos += counts.new
                    $0.updatedPhotos += counts.updated
                }
            }
            update {
                $0.isRunning = false
                $0.lastSuccess = Date()
                $0.lastError = nil
                $0.pagesTotal = max($0.pagesTotal, $0.pagesDone)
                $0.completedRefreshes += 1
            }
            logger.info("refresh done", metadata: ["new": "\(status.newPhotos)", "updated": "\(status.updatedPhotos)"])
        } catch {
            let error: any Error = Task.isCancelled ? SPoTError(.flickr, "The refresh was stopped; the pages saved before are kept") : error
            logger.warning("refresh failed", metadata: ["error": "\(error)"])
            update {
                $0.isRunning = false
                $0.lastError = "\(error)"
                $0.lastFailure = Date()
                $0.completedRefreshes += 1
            }
        }
        return status
    }
}
