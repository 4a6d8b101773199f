#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The process's limit on open files: every browser's event stream holds a descriptor, and
/// the usual soft limit (1,024) refuses visitors long before memory or CPU run out.
public enum OpenFilesLimit {
    /// The soft and hard limits now in force (0 when they cannot be read).
    public static var current: (soft: UInt64, hard: UInt64) {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return (0, 0) }
        return (UInt64(limit.rlim_cur), UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard limit (child processes inherit it).
    /// - Returns: the soft limit now in force; the earlier one when it could not be raised.
    @discardableResult
    public static func raiseToHardLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(resource, &limit)
        }
        return current.soft
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
