import Hummingbird

/// A request the entity browser answers with an error status and a reason for people.
struct BrowserFailure: Error, Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let reason: String

    init(_ status: HTTPResponse.Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    var description: String { "\(status.code) \(reason)" }
}
