import Synchronization

/// The latest versions of something many readers follow — a list's change sets, a feed's
/// rendered events, the refresher's status — kept once, however many readers there are.
///
/// A reader holds only a cursor (the last version it has) and a ``Wakeup``: it reads what is
/// newer than its cursor, and waits when there is nothing. The log keeps the last
/// ``capacity`` entries; a reader further behind is told so (``Read/behind``) and
/// resynchronises from a snapshot instead of growing a buffer of its own. Appending wakes the
/// registered readers after the lock is released, never under it.
public final class ChangeLog<Element: Sendable>: Sendable {
    /// What a reader finds after its cursor.
    public enum Read: Sendable {
        /// Every entry after the cursor, in order; `through` is the last one's version.
        case entries([Element], through: Int)
        /// Nothing newer yet.
        case upToDate
        /// Entries after the cursor are gone: start again from a snapshot at `latest`.
        case behind(latest: Int)
        /// Nothing newer, and nothing more will come.
        case closed
    }

    private struct State {
        /// Versions `latest - entries.count + 1 ... latest`, oldest first.
        var entries: [Element] = []
        var latest: Int
        var closed = false
        var readers: [ObjectIdentifier: Wakeup] = [:]
    }

    /// How many of the latest entries are kept.
    public let capacity: Int
    private let state: Mutex<State>
    /// `state.latest`, and whether the log is closed, readable without the lock: thousands of
    /// readers ask whether anything is new far more often than something is.
    private let published: Atomic<Int>
    private let isClosedFlag = Atomic(false)

    /// An empty log whose next entry will be `version + 1`.
    public init(capacity: Int, version: Int = 0) {
        precondition(capacity > 0, "a change log keeps at least one entry")
        self.capacity = capacity
        state = Mutex(State(latest: version))
        published = Atomic(version)
    }

    /// The latest version appended (or the starting version), read without taking the lock:
    /// an entry is readable with ``read(after:)`` once its version shows here.
    public var latestVersion: Int { published.load(ordering: .acquiring) }

    /// Whether ``close()`` was called, read without taking the lock.
    public var isClosed: Bool { isClosedFlag.load(ordering: .acquiring) }

    /// The latest entry and its version, if any is kept.
    public var latest: (version: Int, element: Element)? {
        state.withLock { state in state.entries.last.map { (state.latest, $0) } }
    }

    /// How many readers are registered.
    public var readerCount: Int { state.withLock { $0.readers.count } }

    /// Adds `element` as `version` and wakes every reader. A version that does not follow the
    /// latest one starts the log afresh from it (readers before it are then ``Read/behind``).
    public func append(_ element: Element, version: Int) {
        _ = add(element) { _ in version }
    }

    /// Adds `element` as the next version and wakes every reader; returns that version.
    @discardableResult
    public func append(_ element: Element) -> Int {
        add(element) { $0 + 1 }
    }

    private func add(_ element: Element, version: (Int) -> Int) -> Int {
        let (readers, added) = state.withLock { state -> ([Wakeup], Int) in
            guard !state.closed else { return ([], state.latest) }
            let added = version(state.latest)
            if added == state.latest + 1 {
                state.entries.append(element)
                if state.entries.count > capacity { state.entries.removeFirst(state.entries.count - capacity) }
            } else {
                state.entries = [element]
            }
            state.latest = added
            published.store(added, ordering: .releasing)
            return (Array(state.readers.values), added)
        }
        for reader in readers { reader.signal() }
        return added
    }

    /// What is newer than `cursor`.
    public func read(after cursor: Int) -> Read {
        state.withLock { state in
            guard cursor < state.latest else { return state.closed ? .closed : .upToDate }
            let oldest = state.latest - state.entries.count + 1
            guard cursor + 1 >= oldest else { return .behind(latest: state.latest) }
            return .entries(Array(state.entries[(cursor + 1 - oldest)...]), through: state.latest)
        }
    }

    /// Wakes `reader` on every append and on close, until ``unregister(_:)``.
    public func register(_ reader: Wakeup) {
        let closed = state.withLock { state in
            state.readers[ObjectIdentifier(reader)] = reader
            return state.closed
        }
        if closed { reader.signal() }
    }

    /// Stops waking `reader`.
    public func unregister(_ reader: Wakeup) {
        _ = state.withLock { $0.readers.removeValue(forKey: ObjectIdentifier(reader)) }
    }

    /// Ends the log: readers read what is left, then ``Read/closed``.
    public func close() {
        let readers = state.withLock { state -> [Wakeup] in
            state.closed = true
            isClosedFlag.store(true, ordering: .releasing)
            return Array(state.readers.values)
        }
        for reader in readers { reader.signal() }
    }
}
