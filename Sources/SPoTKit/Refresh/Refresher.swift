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
    /// The current status, but for the database's (the monitor's, read in ``status``).
    private var refreshState = RefreshStatus()
    /// The database status last sent to observers.
    private var sentDatabase = DatabaseStatus.online
    /// The task that sends the database's changes to observers, once there are observers.
    private var databaseWatch: Task<Void, Never>?
    /// Whether the last refresh failed because the database did not answer: the schedule
    /// retries it with growing delays.
    private var lastFailureWasOutage = false
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

    /// The current status, with the database's.
    public var status: RefreshStatus {
        var status = refreshState
        status.database = store.monitor.status
        return status
    }

    /// The longest delay between retries of a refresh the database's outage stopped.
    static let maximumOutageDelay: Duration = .seconds(30)

    /// The delay before the `n`th retry of a refresh the database's outage stopped: 1 s, 2 s,
    /// 4 s, … up to ``maximumOutageDelay``.
    static func outageDelay(_ attempt: Int) -> Duration {
        min(maximumOutageDelay, .seconds(1 << min(max(attempt - 1, 0), 5)))
    }

    /// Starts the schedule: a refresh at once when the store has no photos, then one every
    /// `interval` (none when the interval is zero). A refresh the database's outage stopped
    /// (or a check of an empty store it prevented) is retried after 1 s, 2 s, 4 s, … up to
    /// 30 s, until the database answers. Calling it again restarts the schedule.
    public func start() {
        schedule?.cancel()
        schedule = Task {
            var outages = 0
            var checkedEmpty = false
            while !Task.isCancelled {
                let hitOutage: Bool
                if !checkedEmpty {
                    do {
                        if try await store.counts().photos == 0 { await refresh() }
                        checkedEmpty = true
                        hitOutage = lastFailureWasOutage
                    } catch let error as SPoTError where error.kind == .unavailable {
                        hitOutage = true
                    } catch {
                        checkedEmpty = true
                        await refresh()
                        hitOutage = lastFailureWasOutage
                    }
                } else {
                    await refresh()
                    hitOutage = lastFailureWasOutage
                }
                let delay: Duration
                if hitOutage {
                    outages += 1
                    delay = Self.outageDelay(outages)
                    logger.notice("the database does not answer; trying again", metadata: ["in": "\(delay)"])
                } else {
                    outages = 0
                    guard interval > .zero else { return }
                    delay = interval
                }
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
            }
        }
    }

    /// Stops the schedule and a refresh in progress: the page being saved is saved, the
    /// pages after it are not fetched.
    public func stop() async {
        schedule?.cancel()
        schedule = nil
        databaseWatch?.cancel()
        databaseWatch = nil
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
        watchDatabase()
        return stream
    }

    private func removeObserver(_ id: UUID) {
        observers[id] = nil
    }

    private func update(_ change: (inout RefreshStatus) -> Void) {
        change(&refreshState)
        let status = self.status
        sentDatabase = status.database
        for observer in observers.values { observer.yield(status) }
    }

    /// Sends the status to observers each time the database goes offline or comes back.
    private func watchDatabase() {
        guard databaseWatch == nil else { return }
        let updates = store.monitor.updates()
        databaseWatch = Task { [weak self] in
            for await database in updates {
                guard let self else { return }
                await self.databaseChanged(database)
            }
        }
    }

    private func databaseChanged(_ database: DatabaseStatus) {
        guard database != sentDatabase else { return }
        update { _ in }
    }

    private func run() async -> RefreshStatus {
        // One refresh at a time among every process and instance on the database: the others
        // leave it to the one refreshing and see its pages arrive in their lists.
        let lease: StoreLease
        do {
            guard let taken = try await store.tryRefreshLease() else {
                logger.info("another process is refreshing the database; its photos arrive as it saves them")
                lastFailureWasOutage = false
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
            lastFailureWasOutage = (error as? SPoTError)?.kind == .unavailable
            update {
                $0.lastError = "\(error)"
                $0.lastFailure = Date()
                $0.completedRefreshes += 1
            }
            return status
        }
        defer { lease.release() }
        lastFailureWasOutage = false
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
            var error: any Error = Task.isCancelled ? SPoTError(.flickr, "The refresh was stopped; the pages saved before are kept") : error
            if !(error is SPoTError) { error = store.monitor.failed(error, doing: "import into") }
            var outage = (error as? SPoTError)?.kind == .unavailable
            if !outage, (error as? SPoTError)?.kind == .store {
                // The import's own contexts failed: was it the database going away? The
                // schedule retries sooner if so.
                outage = await !store.monitor.check(within: .seconds(1)).isOnline
            }
            lastFailureWasOutage = outage
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
