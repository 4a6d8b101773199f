import Hummingbird
import SPoTKit

/// A request the server answers with an error status and a reason for people.
struct WebError: Error, Sendable, CustomStringConvertible {
    let status: HTTPResponse.Status
    let reason: String

    init(_ status: HTTPResponse.Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    var description: String { "\(status.code) \(reason)" }

    /// Any error as the status and reason the client sees. Internal details of unexpected
    /// errors stay in the log.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as WebError:
            self = error
        case let error as SPoTError:
            switch error.kind {
            case .photoNotFound, .spotNotFound, .photographerNotFound, .objectNotFound: self.init(.notFound, error.description)
            case .invalidInput: self.init(.badRequest, error.description)
            case .image, .flickr: self.init(.badGateway, error.description)
            case .store: self.init(.serviceUnavailable, "The database is not available right now; try again shortly")
            // The database cannot be reached or is locked: the reason names it, and says why.
            case .unavailable: self.init(.serviceUnavailable, error.description)
            }
        case let error as HTTPError:
            switch error.status {
            case .notFound: self.init(.notFound, "There is no page at \(path)")
            case .methodNotAllowed: self.init(.methodNotAllowed, "\(path) does not accept this method")
            default: self.init(error.status, error.body ?? error.status.reasonPhrase)
            }
        case let error as SPoTWebError:
            self.init(.serviceUnavailable, error.description)
        default:
            self.init(.internalServerError, "Something went wrong on the server")
        }
    }

    /// A short heading for the error page.
    var heading: String {
        switch status {
        case .notFound: "Not found"
        case .badRequest: "That request was not understood"
        case .forbidden: "Not allowed"
        case .badGateway: "Flickr did not answer"
        case .serviceUnavailable: "Try again shortly"
        default: status.reasonPhrase
        }
    }
}
