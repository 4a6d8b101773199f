import GRDB
import Synchronization

/// What Core Data's derived-attribute triggers report while a context's save is written.
///
/// A store Core Data wrote keeps a derived attribute (`count:(pages)`) with triggers that,
/// after updating the column, call `NSCoreDataDATriggerUpdatedAffectedObjectValue` (or its
/// insert variant) with the row and the new value, so that the saving context's objects show
/// it, as Core Data's do. The store records the calls of its own saves only (batch requests
/// and other processes' writes are not a context's save), and the context takes them once the
/// save has committed.
///
/// Invariants it keeps: entries are recorded only between ``startRecording()`` and
/// ``stopRecording()``; each save starts from none.
final class DerivedAttributeLog: Sendable {
    /// One trigger call: the row's entity code and key, the property, the value it now holds.
    struct Entry: Sendable {
        let entityCode: Int
        let primaryKey: Int64
        let property: String
        let value: DatabaseValue
    }

    private let state = Mutex<(recording: Bool, entries: [Entry])>((false, []))

    /// Records the calls from now on, forgetting any kept.
    func startRecording() {
        state.withLock { $0 = (true, []) }
    }

    /// Records one call (ignored unless recording).
    func record(_ arguments: [DatabaseValue]) {
        guard arguments.count == 5, case .int64(let code) = arguments[1].storage, case .int64(let key) = arguments[2].storage,
            case .string(let property) = arguments[3].storage
        else { return }
        state.withLock { state in
            guard state.recording else { return }
            state.entries.append(Entry(entityCode: Int(code), primaryKey: key, property: property, value: arguments[4]))
        }
    }

    /// The calls recorded since ``startRecording()``, and stops recording.
    func stopRecording() -> [Entry] {
        state.withLock { state in
            defer { state = (false, []) }
            return state.entries
        }
    }
}
