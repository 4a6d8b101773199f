import Dispatch
import Foundation

/// The queue a context's work runs on: the main queue, or a private serial queue.
final class ContextQueue: Sendable {
    let isMain: Bool
    private let queue: DispatchQueue

    /// The private queue whose work the calling thread runs: set around each work item (and
    /// restored after, for a synchronous call from another queue's work), so that
    /// ``isCurrent`` reads one thread-specific word — libdispatch's queue-specific lookup
    /// and its Swift wrapper cost more than an ObjectGraphData model's whole property read.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

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
        }
    }

    /// What the main thread's word of ``currentKey`` holds outside any private queue's work
    /// (set the first time the main thread asks whether it holds the main queue): one, never
    /// an object's address, so no private queue's marker.
    private static var mainMarker: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }

    /// The thread-specific word ``marker`` is compared with: for a caller that asks "am I on
    /// this queue?" so often (an ObjectGraphData model's every property read) that it keeps the
    /// key and the marker and compares the word itself.
    package static var markerKey: pthread_key_t { currentKey }

    /// What the word of ``markerKey`` holds while the calling code runs on this queue: for a
    /// private queue, its work (``running(_:)``); for the main queue, the main thread once it
    /// has asked (not work the main queue runs on another thread, nor a synchronous call onto a
    /// private queue made from the main thread). A word that holds it means ``isCurrent``; one
    /// that does not says nothing — ask ``isCurrent``.
    package var marker: UnsafeMutableRawPointer {
        isMain ? Self.mainMarker : Unmanaged.passUnretained(self).toOpaque()
    }

    /// Whether the calling code runs on this queue (or inside a synchronous call onto it).
    var isCurrent: Bool {
        isMain ? Self.holdsMain : pthread_getspecific(Self.currentKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Runs `work`, a work item of this private queue, marked as running on it.
    private func running<T>(_ work: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(Self.currentKey)
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.currentKey, previous) }
        return try work()
    }

    /// Whether the calling code runs on the main queue (see ``holdsMain``): on the main thread,
    /// or in a main-queue block — which `dispatchMain()` runs on another thread.
    static var isMainQueue: Bool {
        _ = mainKey
        return holdsMain
    }

    /// Whether the calling thread runs main-queue work: on the main thread, in a main-queue
    /// block, or in a synchronous call onto a private queue made from either (a child context
    /// used from the main thread, reading through its main-queue parent).
    private static var holdsMain: Bool {
        let state = ThreadState.current
        if state.contains(.mainThread) {
            // Outside any private queue's work (only there: a private queue's work compares
            // the word with its own marker), the main thread's word says so from now on.
            if pthread_getspecific(currentKey) == nil { pthread_setspecific(currentKey, mainMarker) }
            return true
        }
        return state.contains(.holdsMain) || DispatchQueue.getSpecific(key: mainKey) != nil
    }

    func async(_ work: @escaping @Sendable () -> Void) {
        if isMain {
            queue.async(execute: work)
        } else {
            queue.async { [self] in running(work) }
        }
    }

    /// Runs `work` on the queue and waits; runs it in place when already on the queue.
    func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrent { return try work() }
        if isMain { return try queue.sync(execute: work) }
        guard Self.holdsMain else { return try queue.sync { try running(work) } }
        // Called with the main queue held: the work (which runs on this thread) may call back
        // into a main-queue context, which must run in place, not wait for the main queue.
        return try queue.sync {
            let previous = ThreadState.current
            ThreadState.current = previous.union(.holdsMain)
            defer { ThreadState.current = previous }
            return try running(work)
        }
    }
}

/// What a context queue needs to know about the calling thread, kept in one thread-specific
/// word: every synchronous call asks, and `Thread.isMainThread` (two system calls on Linux) or
/// a `threadDictionary` entry (an NSString-keyed lookup) cost more than the work of a call that
/// reads one value.
private struct ThreadState: OptionSet {
    let rawValue: Int

    /// Whether `mainThread` was worked out for this thread.
    static let known = ThreadState(rawValue: 1)
    /// The thread is the main thread.
    static let mainThread = ThreadState(rawValue: 2)
    /// The thread runs main-queue work inside a synchronous call onto a private queue.
    static let holdsMain = ThreadState(rawValue: 4)

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's state (whether it is the main thread is worked out on first use).
    static var current: ThreadState {
        get {
            let state = ThreadState(rawValue: Int(bitPattern: pthread_getspecific(key)))
            if state.contains(.known) { return state }
            let worked = state.union(Thread.isMainThread ? [.known, .mainThread] : [.known])
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: worked.rawValue))
            return worked
        }
        set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue.rawValue)) }
    }
}

extension ManagedObjectContext {
    /// The key (a `pthread_key_t`) and marker of the context's queue (see
    /// ``ContextQueue/marker``): the calling code runs on the queue when
    /// `pthread_getspecific(key) == marker`; when not, ask ``isOnQueue``.
    package var queueMarker: (key: UInt32, marker: UnsafeMutableRawPointer) {
        (ContextQueue.markerKey, queue.marker)
    }
}
