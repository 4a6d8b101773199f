#if SPOT_TSAN_LOCKS
import Foundation

// A copy of ObjectGraph's `SanitizerMutex` (see there): with member import visibility, a
// typealias to another module's type would need that module imported in every file using
// `Mutex`. It shadows `Synchronization.Mutex` in this module when built with
// `-Xswiftc -DSPOT_TSAN_LOCKS`, as ThreadSanitizer cannot see that Mutex's futex waits.
typealias Mutex<Value> = ModuleSanitizerMutex<Value>

final class ModuleSanitizerMutex<Value>: @unchecked Sendable {  // every access to `value` holds `lock`
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
#endif
