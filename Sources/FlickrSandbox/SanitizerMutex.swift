#if SPOT_TSAN_LOCKS
import Flickr
/// A lock ThreadSanitizer sees in sanitizer builds (see Flickr.SanitizerMutex); it shadows
/// `Synchronization.Mutex` in this module only when built with `-Xswiftc -DSPOT_TSAN_LOCKS`.
typealias Mutex<Value> = Flickr.SanitizerMutex<Value>
#endif
