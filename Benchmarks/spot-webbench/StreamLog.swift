import NIOCore
import Synchronization

/// What every event-stream connection of a run reports: each `change` event's arrival, and
/// counts of snapshots, drops and failures. Shared by the client's event loops and the
/// driver; one lock, taken once per event.
final class StreamLog: Sendable {
    /// One `change` event received.
    struct Arrival: Sendable {
        let connection: Int32
        /// The index of the list the connection follows (the driver's numbering).
        let list: Int32
        let version: Int
        /// `NIODeadline.now().uptimeNanoseconds` when the event's last byte was read.
        let at: UInt64
    }

    struct Counts: Sendable {
        var connected = 0
        var snapshots = 0
        /// `change` events received in all (``Arrival``s are kept only while recording).
        var changes = 0
        /// Streams the server ended (or reset) while the client still read them.
        var endedByServer = 0
        /// Streams the client dropped on purpose.
        var dropped = 0
        /// A `change` whose version was not above the connection's previous one.
        var outOfOrder = 0
        var keepAlives = 0
        /// Connect errors and non-200 answers, by description.
        var failures: [String: Int] = [:]
        /// Bytes of event-stream bodies received.
        var bytes = 0
    }

    private struct State {
        var counts = Counts()
        var recording = true
        var arrivals: [Arrival] = []
    }

    private let state = Mutex(State())

    init(recording: Bool = true) {
        state.withLock { $0.recording = recording }
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// The arrivals recorded so far, and forgets them.
    func takeArrivals() -> [Arrival] {
        state.withLock { state in
            defer { state.arrivals.removeAll(keepingCapacity: true) }
            return state.arrivals
        }
    }

    /// How many arrivals are held (not yet taken).
    var arrivalCount: Int { state.withLock { $0.arrivals.count } }

    func connected() { state.withLock { $0.counts.connected += 1 } }
    func snapshot() { state.withLock { $0.counts.snapshots += 1 } }
    func keepAlive() { state.withLock { $0.counts.keepAlives += 1 } }
    func received(bytes: Int) { state.withLock { $0.counts.bytes += bytes } }
    func endedByServer() { state.withLock { $0.counts.endedByServer += 1 } }
    func dropped() { state.withLock { $0.counts.dropped += 1 } }
    func failed(_ description: String) { state.withLock { $0.counts.failures[description, default: 0] += 1 } }

    func change(_ arrival: Arrival, inOrder: Bool) {
        state.withLock { state in
            state.counts.changes += 1
            if !inOrder { state.counts.outOfOrder += 1 }
            if state.recording { state.arrivals.append(arrival) }
        }
    }
}

/// The monotonic clock every timestamp of the run is read from, in nanoseconds.
@inline(__always)
func now() -> UInt64 { NIODeadline.now().uptimeNanoseconds }
