import Dispatch
import Foundation

/// The queue a context's work runs on: the main queue, or a private serial queue.
final class ContextQueue: Sendable {
    let isMain: Bool
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    /// Marks the main queue, so code running on it through `DispatchQueue.main.sync` from
    /// another thread (which libdispatch may run on the calling thread) counts as on it.
    private static let mainKey: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// A private queue runs its work at `qos` (libdispatch on Linux runs lower classes at a
    /// higher nice value); the main queue keeps its own.
    init(main: Bool, label: String, qos: DispatchQoS = .unspecified) {
        isMain = main
        if main {
            _ = Self.mainKey
            queue = .main
        } else {
            queue = DispatchQueue(label: label, qos: qos)
            queue.setSpecific(key: key, value: 1)
        }
    }

    /// Whether the calling code runs on this queue (or inside a synchronous call onto it).
    var isCurrent: Bool {
        isMain ? Self.holdsMain : DispatchQueue.getSpecific(key: key) != nil
    }

    /// Whether the calling thread runs main-queue work: on the main thread, in a main-queue
    /// block, or in a synchronous call onto a private queue made from either (a child context
    /// used from the main thread, reading through its main-queue parent).
    private static var holdsMain: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainKey) != nil
            || Thread.current.threadDictionary[holdsMainKey] != nil
    }

    private static let holdsMainKey = "ObjectGraph.ContextQueue.holdsMain"

    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` on the queue and waits; runs it in place when already on the queue.
    func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrent { return try work() }
        guard !isMain, Self.holdsMain else { return try queue.sync(execute: work) }
        // Called with the main queue held: the work (which runs on this thread) may call back
        // into a main-queue context, which must run in place, not wait for the main queue.
        return try queue.sync {
            let dictionary = Thread.current.threadDictionary
            let previous = dictionary[Self.holdsMainKey]
            dictionary[Self.holdsMainKey] = true
            defer { dictionary[Self.holdsMainKey] = previous }
            return try work()
        }
    }
}
