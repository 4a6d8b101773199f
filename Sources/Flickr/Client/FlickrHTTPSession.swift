import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// HTTP GETs on Foundation's `URLSession` (libcurl on Linux, part of the toolchain), so the
/// Flickr client builds no TLS stack of its own; the answer is read as a stream, so a size cap
/// holds while it arrives.
///
/// One session serves every exchange of the process; its delegate routes each task's events
/// to the exchange that started it.
final class FlickrHTTPSession: Sendable {
    /// What one exchange sees: the response's head, then its body in pieces.
    enum Event: Sendable {
        case head(status: Int, headers: [String: String])
        case body(Data)
    }

    /// The session every ``FlickrClient`` uses.
    static let shared = FlickrHTTPSession()

    private let session: URLSession
    private let router: Router

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        // Nothing kept between exchanges but connections: no cache, no cookies.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        // The client races each exchange against its own timeout, on its own clock.
        configuration.timeoutIntervalForRequest = 3_600
        configuration.timeoutIntervalForResource = 3_600
        configuration.httpMaximumConnectionsPerHost = 16
        let router = Router()
        self.router = router
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    /// Starts a GET of `url`; the stream yields its head, then its body, and ends with the
    /// answer (or throws the transport's `URLError`). Ending the iteration early (a cap
    /// reached, the caller cancelled) cancels the transfer.
    func get(_ url: URL, userAgent: String) -> AsyncThrowingStream<Event, any Error> {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Event.self, throwing: (any Error).self)
        router.add(continuation, for: identifier)
        let box = TaskBox(task)
        let router = self.router
        continuation.onTermination = { termination in
            router.remove(identifier)
            if case .cancelled = termination { box.task.cancel() }
        }
        task.resume()
        return stream
    }
}

extension FlickrHTTPSession {
    /// The session's delegate: hands each task's events to its exchange's continuation.
    /// Continuations are taken out under the lock and yielded to after it is released.
    private final class Router: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // state only in `exchanges`, a Mutex
        private let exchanges = Mutex<[Int: AsyncThrowingStream<Event, any Error>.Continuation]>([:])

        func add(_ continuation: AsyncThrowingStream<Event, any Error>.Continuation, for identifier: Int) {
            exchanges.withLock { $0[identifier] = continuation }
        }

        func remove(_ identifier: Int) {
            let removed = exchanges.withLock { $0.removeValue(forKey: identifier) }
            withExtendedLifetime(removed) {}  // released after the lock is
        }

        private func continuation(for task: URLSessionTask) -> AsyncThrowingStream<Event, any Error>.Continuation? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            completionHandler(.allow)
            guard let continuation = continuation(for: dataTask) else { return }
            guard let http = response as? HTTPURLResponse else {
                continuation.finish(throwing: URLError(.badServerResponse))
                return
            }
            var headers: [String: String] = [:]
            for case let (name as String, value as String) in http.allHeaderFields {
                headers[name.lowercased()] = value
            }
            continuation.yield(.head(status: http.statusCode, headers: headers))
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation(for: dataTask)?.yield(.body(data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let continuation = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            if let error {
                continuation?.finish(throwing: error)
            } else {
                continuation?.finish()
            }
        }
    }

    /// A task handed to the stream's termination handler, which must be `Sendable`.
    private struct TaskBox: @unchecked Sendable {  // URLSessionTask's cancel() is thread-safe
        let task: URLSessionTask
        init(_ task: URLSessionTask) { self.task = task }
    }
}
