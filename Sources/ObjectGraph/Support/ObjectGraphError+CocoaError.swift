public import Foundation

extension ObjectGraphError: CustomNSError {
    /// Core Data's error domain, `NSCocoaErrorDomain` (`"NSCocoaErrorDomain"`): bridged to
    /// `NSError`, an ObjectGraph error has the domain and code Core Data's would.
    public static var errorDomain: String { NSCocoaErrorDomain }

    /// Core Data's code for the error (``Code/coreDataCode``); 134060, Core Data's
    /// `NSCoreDataError` ("general Core Data error"), for the kinds Core Data has no code for.
    public var errorCode: Int { code.coreDataCode ?? 134_060 }

    /// The message as `NSLocalizedDescriptionKey`, so `localizedDescription` reads it.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}
