import Foundation

/// `Synchronization.Mutex`'s interface on a lock ThreadSanitizer sees, for sanitizer builds.
///
/// On Linux, `Mutex` waits with a raw `futex` system call and takes its fast path in the
/// (uninstrumented) standard library, so ThreadSanitizer sees no order between two critical
/// sections of one `Mutex` and reports the state it guards as raced ("Swift access race" on
/// `ObjectIDScope.table` read and written inside `withLock`). `NSLock` is a `pthread_mutex_t`,
/// whose lock and unlock ThreadSanitizer intercepts.
///
/// Built with `-Xswiftc -DSPOT_TSAN_LOCKS` (the README's ThreadSanitizer command), this module
/// declares `typealias Mutex<Value> = SanitizerMutex<Value>`, which shadows the imported one,
/// so no call site changes; each other module of the package that uses `Mutex` keeps its own
/// copy of this type (`ModuleSanitizerMutex`), since with member import visibility an alias to
/// this one would need `import ObjectGraph` in every file using `Mutex`. Other builds use
/// `Synchronization.Mutex` and never touch this type.
final class SanitizerMutex<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
    private let lock = NSLock()
    private var value: Value

    init(_ initialValue: consuming sending Value) {
        value = initialValue
    }

    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

#if SPOT_TSAN_LOCKS
typealias Mutex<Value> = SanitizerMutex<Value>
#endif
