#if SPOT_TSAN_LOCKS
import ObjectGraph
/// A lock ThreadSanitizer sees in sanitizer builds (see ObjectGraph.SanitizerMutex); it shadows
/// `Synchronization.Mutex` in this module only when built with `-Xswiftc -DSPOT_TSAN_LOCKS`.
typealias Mutex<Value> = ObjectGraph.SanitizerMutex<Value>
#endif
