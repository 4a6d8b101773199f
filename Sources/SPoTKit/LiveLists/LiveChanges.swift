/// A live list's change sets after a version, in order: what a subscriber reads.
///
/// Subscribers share the list's last ``LiveList/keptChangeSets`` change sets; an iterator
/// holds only its cursor. One that falls further behind (its reader stopped for a while)
/// gets, instead of the change sets it missed, one change set with ``LiveChangeSet/reload``
/// set to the list's content at its latest version — a slow reader costs nothing while it is
/// away. The sequence ends when the list closes or the reading task is cancelled.
public struct LiveChanges<Row: LiveRow>: AsyncSequence, Sendable {
    /// A change set.
    public typealias Element = LiveChangeSet<Row>

    let list: LiveList<Row>
    let cursor: Int

    /// Starts reading after the version the sequence was made from.
    public func makeAsyncIterator() -> Iterator {
        Iterator(list: list, cursor: cursor)
    }

    /// Reads change sets one by one, waiting when there is none yet.
    public struct Iterator: AsyncIteratorProtocol {
        private let reader: Reader
        private var cursor: Int
        private var pending: ArraySlice<LiveChangeSet<Row>> = []

        init(list: LiveList<Row>, cursor: Int) {
            reader = Reader(list: list)
            self.cursor = cursor
        }

        /// The next change set; `nil` once the list is closed or the task is cancelled.
        public mutating func next() async -> LiveChangeSet<Row>? {
            while true {
                if let next = pending.popFirst() { return next }
                if Task.isCancelled { return nil }
                switch reader.list.changeLog.read(after: cursor) {
                case .entries(let entries, let through):
                    pending = entries[...]
                    cursor = through
                case .behind:
                    let snapshot = reader.list.current
                    var reload = LiveChangeSet<Row>(version: snapshot.version)
                    reload.reload = snapshot.sections
                    reload.problem = snapshot.problem
                    cursor = snapshot.version
                    return reload
                case .closed:
                    return nil
                case .upToDate:
                    await reader.wakeup.wait()
                }
            }
        }
    }

    /// An iterator's registration with the list's change log, for as long as it exists.
    private final class Reader: Sendable {
        let list: LiveList<Row>
        let wakeup = Wakeup()

        init(list: LiveList<Row>) {
            self.list = list
            list.changeLog.register(wakeup)
        }

        deinit {
            list.changeLog.unregister(wakeup)
        }
    }
}
