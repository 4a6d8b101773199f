import Foundation
import Logging
import ObjectGraph
import Synchronization

/// Watches whether the database answers, so that an outage is a state rather than a hang.
///
/// Fed by the store's own calls: a failure that says the database cannot be reached or is
/// locked (a refused or dropped PostgreSQL connection, a server shutting down, SQLite's
/// `SQLITE_BUSY`), or a call that does not answer within its deadline, makes it *suspect* the
/// database; it then asks the database itself — a probe, a one-row read on a background
/// context of its own (and, for an SQLite file, whether another program holds its write
/// lock), with a deadline — and goes ``DatabaseStatus/offline(since:reason:)`` when the probe
/// fails too, or goes unanswered for longer than the database's kind allows (a server's
/// probe that misses its deadline is unreachable; a file's, whose lock the probe asks about
/// explicitly, is on a busy machine until it has been unanswered far longer). While offline
/// it probes again every ``probeInterval``; only a probe that succeeds makes it online again
/// (a call that was under way since before the outage proves nothing), and then it runs its
/// recovery handlers (the store's live lists fetch again).
///
/// Observers (``updates()``) and recovery handlers are called with no lock held.
public final class DatabaseMonitor: Sendable {
    /// How errors and pages name the database: a file's path or a server's URL without its
    /// password.
    public let databaseName: String
    /// How long a probe may take before the database counts as not answering.
    public let probeDeadline: Duration
    /// The time between probes while offline.
    public let probeInterval: Duration
    private let probe: @Sendable (ProbeCall) async throws -> Void
    private let state = Mutex(State())
    private let logger: Logger
    /// How long a probe may go unanswered before the database counts as away; until then a
    /// probe that misses its deadline finds a busy machine, and the caller goes on waiting.
    /// `nil` for a store in this process's memory, which cannot be away.
    private let awayAfter: Duration?

    private struct State {
        var status = DatabaseStatus.online
        /// The probe running now, shared by everyone who asks.
        var probe: Task<DatabaseStatus, Never>?
        /// The probe's call to the database, while it runs: a call that outlived its deadline
        /// (a store call cannot be interrupted) is awaited by the next probe, not doubled.
        var call: (task: Task<Result<Void, any Error>, Never>, progress: ProbeCall)?
        /// Whether the loop probing an offline database runs.
        var isRetrying = false
        var observers: [Int: AsyncStream<DatabaseStatus>.Continuation] = [:]
        var recoveryHandlers: [@Sendable () async -> Void] = []
        var nextID = 0
    }

    /// A monitor of the database `databaseName` names, asking it with `probe`.
    init(
        databaseName: String,
        probeDeadline: Duration = .seconds(2),
        probeInterval: Duration = .milliseconds(500),
        awayAfter: Duration?,
        logger: Logger = Logger(label: "spot.database"),
        probe: @escaping @Sendable (ProbeCall) async throws -> Void
    ) {
        self.awayAfter = awayAfter
        self.logger = logger
        self.databaseName = databaseName
        self.probeDeadline = probeDeadline
        self.probeInterval = probeInterval
        self.probe = probe
    }

    /// The state now, without asking the database.
    public var status: DatabaseStatus { state.withLock { $0.status } }

    /// The state now, and after every change; the newest only, for a slow reader.
    public func updates() -> AsyncStream<DatabaseStatus> {
        let (stream, continuation) = AsyncStream<DatabaseStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (id, status) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.observers[id] = continuation
            return (id, state.status)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
        continuation.yield(status)
        return stream
    }

    /// Runs `handler` each time the database answers again after an outage.
    func onRecovery(_ handler: @escaping @Sendable () async -> Void) {
        state.withLock { $0.recoveryHandlers.append(handler) }
    }

    /// Asks the database now (or joins the probe under way) and returns the state after it,
    /// within ``probeDeadline`` or a little more: what `/health` reports.
    public func check() async -> DatabaseStatus {
        await startProbe().value
    }

    /// The state within `limit`: at once while offline (the monitor is probing already), else
    /// after a probe. When the probe takes longer than `limit`, the state as the monitor knows
    /// it then: the probe goes on, and its own outcome (within ``probeDeadline``) is what
    /// everyone is told next — a machine too loaded to answer a health check in time is not
    /// a database gone away.
    public func check(within limit: Duration) async -> DatabaseStatus {
        let status = self.status
        guard status.isOnline else { return status }
        let probe = startProbe()
        do {
            return try await withDeadline(limit, late: { ProbeLate() }) { await probe.value }
        } catch {
            return self.status
        }
    }

    /// The error to throw instead of calling the database while it is offline (`doing` says
    /// what was asked: "save to", "start a refresh"), or `nil` while it is online.
    public func refusal(_ doing: String) -> SPoTError? {
        let status = self.status
        guard !status.isOnline else { return nil }
        return Self.unavailable(doing, databaseName, status.reason ?? "it does not answer")
    }

    /// A store call failed with `error` while `doing` something: the error for the caller —
    /// ``SPoTError/Kind/unavailable`` when the database cannot be reached or is locked (the
    /// monitor then probes it), ``SPoTError/Kind/store`` otherwise.
    func failed(_ error: any Error, doing: String) -> SPoTError {
        if let error = error as? SPoTError { return error }
        guard let reason = Self.connectivityReason(error) else {
            return SPoTError(.store, "Could not \(doing) the database \(databaseName): \(error)")
        }
        suspect()
        return Self.unavailable(doing, databaseName, reason)
    }

    /// A store call did not answer within `limit` while `doing` something: the error for the
    /// caller, at once; the monitor probes the database.
    func lateNow(_ limit: Duration, doing: String) -> SPoTError {
        _ = startProbe()
        return Self.unavailable(doing, databaseName, "no answer within \(Self.seconds(limit))")
    }

    /// Like ``lateNow(_:doing:)``, waiting for the probe: the error when it finds the database
    /// away; `nil` when it answers (it is only busy, and the caller keeps waiting).
    func late(_ limit: Duration, doing: String) async -> SPoTError? {
        let status = await startProbe().value
        guard !status.isOnline else { return nil }
        return Self.unavailable(doing, databaseName, status.reason ?? "no answer within \(Self.seconds(limit))")
    }

    // MARK: Probing

    /// Starts a probe unless one runs (or the loop of an offline database does).
    private func suspect() {
        _ = startProbe()
    }

    private func startProbe() -> Task<DatabaseStatus, Never> {
        state.withLock { state in
            if let probe = state.probe { return probe }
            // Creating a task calls nothing of ours: the probe starts once the lock is free.
            let task = Task { [self] in await runProbe() }
            state.probe = task
            return task
        }
    }

    /// One probe: its outcome becomes the state; an offline database is probed again until it
    /// answers.
    private func runProbe() async -> DatabaseStatus {
        let (task, call) = state.withLock { state in
            if let running = state.call { return running }
            let call = ProbeCall()
            let task = Task { [probe] () -> Result<Void, any Error> in
                do { return .success(try await probe(call)) } catch { return .failure(error) }
            }
            state.call = (task, call)
            return (task, call)
        }
        var result: Result<Void, any Error>?
        do {
            result = try await withDeadline(probeDeadline, late: { ProbeLate() }) { await task.value }
        } catch {
            // The call may have answered while the task awaiting it waits for a thread (a
            // machine so loaded that the deadline's own timer fires late): its answer counts.
            result = call.outcome
        }
        let outcome: String?
        if let result {
            state.withLock { state in
                if state.call?.task == task { state.call = nil }
            }
            switch result {
            case .success: outcome = nil
            case .failure(let error): outcome = Self.connectivityReason(error) ?? "\(error)"
            }
        } else if let awayAfter, let started = call.started, ContinuousClock.now - started >= awayAfter {
            outcome = "it does not answer (no answer within \(Self.seconds(awayAfter)))"
        } else {
            // Unanswered for less than the database's kind allows, or not yet begun: busy.
            outcome = nil
        }
        state.withLock { $0.probe = nil }
        if let reason = outcome {
            setOffline(reason)
            startRetrying()
        } else {
            setOnline()
        }
        return status
    }

    private struct ProbeLate: Error {}

    /// Probes an offline database every ``probeInterval`` until it answers.
    private func startRetrying() {
        let start = state.withLock { state in
            defer { state.isRetrying = true }
            return !state.isRetrying
        }
        guard start else { return }
        Task { [weak self, probeInterval] in
            while let monitor = self {
                let answered = monitor.state.withLock { state in
                    if state.status.isOnline { state.isRetrying = false }
                    return state.status.isOnline
                }
                if answered { return }
                try? await Task.sleep(for: probeInterval)
                _ = await monitor.startProbe().value
            }
        }
    }

    private func setOffline(_ reason: String) {
        let (observers, status, changed) = state.withLock { state in
            let wasOnline = state.status.isOnline
            if wasOnline || state.status.reason != reason {
                state.status = .offline(since: state.status.offlineSince ?? Date(), reason: reason)
                return (Array(state.observers.values), state.status, wasOnline)
            }
            return ([], state.status, false)
        }
        if changed { logger.error("the database does not answer; serving what is in memory", metadata: ["database": "\(databaseName)", "reason": "\(reason)"]) }
        for observer in observers { observer.yield(status) }
    }

    private func setOnline() {
        let change = state.withLock { state -> (observers: [AsyncStream<DatabaseStatus>.Continuation], handlers: [@Sendable () async -> Void], since: Date?)? in
            guard !state.status.isOnline else { return nil }
            let since = state.status.offlineSince
            state.status = .online
            return (Array(state.observers.values), state.recoveryHandlers, since)
        }
        guard let (observers, handlers, since) = change else { return }
        logger.notice("the database answers again", metadata: ["database": "\(databaseName)", "offline since": "\(since.map { "\($0)" } ?? "?")"])
        for observer in observers { observer.yield(.online) }
        for handler in handlers { Task { await handler() } }
    }

    // MARK: Errors

    static func unavailable(_ doing: String, _ database: String, _ reason: String) -> SPoTError {
        SPoTError(.unavailable, "Could not \(doing) the database \(database): \(reason)")
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// Why `error` says the database cannot be reached or is locked, or `nil` when it is about
    /// the data or the request (a constraint, a missing table) and would fail again.
    static func connectivityReason(_ error: any Error) -> String? {
        guard let error = error as? ObjectGraphError, let cause = error.cause else { return nil }
        if let code = cause.resultCode {
            // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_PROTOCOL.
            return [5, 6, 14, 15].contains(code) ? cause.message : nil
        }
        if let sqlState = cause.sqlState {
            // Connection exceptions; the server shutting down or starting; too many connections.
            let unavailable = sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "53300"
            return unavailable ? cause.message : nil
        }
        // A server's store failing without a code from the server: the client could not reach
        // it (refused, dropped, no answer within the store's timeout).
        if let file = cause.file, file.hasPrefix("postgres") { return cause.message }
        return nil
    }
}
