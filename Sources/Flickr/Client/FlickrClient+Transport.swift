import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging

/// An HTTP answer read to the end (or to the size cap).
struct FlickrHTTPResponse: Sendable {
    var status: Int
    var contentType: String?
    var body: [UInt8]
}

extension FlickrClient {
    /// The most a REST body may weigh (a 500-photo page with descriptions is well under this).
    static let maxRESTBodyBytes = 16 * 1024 * 1024

    /// One REST call: rate limited, retried, decoded by `decode` (whose `stat: fail` errors
    /// take part in retrying, so code 105 is retried).
    func callREST<Value>(
        url: URL,
        method: String,
        page: Int?,
        decode: ([UInt8]) throws -> Value
    ) async throws -> Value {
        try await withRetries(request: method, page: page) {
            if let rateLimiter { try await rateLimiter.acquire() }
            let response = try await send(url: url, request: method, maxBytes: Self.maxRESTBodyBytes, expectImage: false)
            guard (200..<300).contains(response.status) else {
                // Flickr may put a `stat: fail` body on an HTTP error; keep its code if so.
                do {
                    _ = try decoder.checkedJSON(response.body, method: method, httpStatus: response.status)
                } catch let error as FlickrError where error.kind == .api {
                    throw error
                } catch {}
                throw FlickrError(
                    kind: .httpStatus,
                    httpStatus: response.status,
                    body: String(decoding: response.body, as: UTF8.self),
                    request: method,
                    redacting: configuration.apiKey
                )
            }
            return try decode(response.body)
        }
    }

    /// Runs `attempt` until it succeeds, fails for good, or the policy's attempts run out,
    /// sleeping the backoff delay (on the configured clock) between attempts.
    func withRetries<Value>(
        request: String,
        page: Int?,
        _ attempt: () async throws -> Value
    ) async throws -> Value {
        let policy = configuration.retryPolicy
        var attemptNumber = 1
        while true {
            logger.debug(
                "Flickr request",
                metadata: ["flickr.request": "\(request)", "flickr.page": "\(page.map(String.init) ?? "-")", "flickr.attempt": "\(attemptNumber)"]
            )
            do {
                return try await attempt()
            } catch var error as FlickrError {
                error.attempts = attemptNumber
                guard error.isRetryable, attemptNumber < policy.maxAttempts else {
                    logger.info("Flickr request failed", metadata: ["flickr.error": "\(error)"])
                    throw error
                }
                let delay = policy.delay(beforeRetry: attemptNumber, using: &randomNumberGenerator)
                logger.notice(
                    "Flickr request will be retried",
                    metadata: ["flickr.error": "\(error)", "flickr.retry.delay": "\(delay)"]
                )
                try await clock.sleep(for: delay)
                attemptNumber += 1
            }
        }
    }

    /// Sends one GET and reads the answer, racing it against the configured timeout.
    func send(url: URL, request: String, maxBytes: Int, expectImage: Bool) async throws -> FlickrHTTPResponse {
        let session = self.session
        let key = configuration.apiKey
        let exchange: @Sendable () async throws -> FlickrHTTPResponse = {
            try await Self.exchange(
                session: session,
                url: url,
                request: request,
                maxBytes: maxBytes,
                expectImage: expectImage,
                key: key
            )
        }
        guard let timeout = configuration.requestTimeout else { return try await exchange() }
        let clock = self.clock
        return try await withThrowingTaskGroup(of: FlickrHTTPResponse?.self) { group in
            group.addTask { try await exchange() }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw FlickrError(kind: .timeout, request: request, detail: "no answer within \(timeout)", redacting: key)
            }
            return response
        }
    }

    private static func exchange(
        session: FlickrHTTPSession,
        url: URL,
        request: String,
        maxBytes: Int,
        expectImage: Bool,
        key: FlickrAPIKey
    ) async throws -> FlickrHTTPResponse {
        do {
            var status = 0
            var contentType: String?
            var limit = maxBytes
            var success = false
            var body: [UInt8] = []
            reading: for try await event in session.get(url, userAgent: "SPoT-Flickr/1.0") {
                switch event {
                case .head(let code, let headers):
                    status = code
                    contentType = headers["content-type"]
                    success = (200..<300).contains(status)
                    if expectImage && success {
                        guard let contentType, contentType.lowercased().hasPrefix("image/") else {
                            throw FlickrError(
                                kind: .unexpectedContentType,
                                httpStatus: status,
                                request: request,
                                detail: "content type \(contentType ?? "none")",
                                redacting: key
                            )
                        }
                    }
                    limit = success ? maxBytes : 4096
                    if success, let length = headers["content-length"].flatMap(Int.init), length > limit {
                        throw FlickrError(
                            kind: .tooLarge,
                            httpStatus: status,
                            request: request,
                            detail: "\(length) bytes announced, limit \(limit)",
                            redacting: key
                        )
                    }
                case .body(let data):
                    if body.count + data.count > limit {
                        if !success { break reading }
                        throw FlickrError(
                            kind: .tooLarge,
                            httpStatus: status,
                            request: request,
                            detail: "more than \(limit) bytes",
                            redacting: key
                        )
                    }
                    body.append(contentsOf: data)
                }
            }
            // A cancelled caller's stream ends early: what it read is not the answer.
            try Task.checkCancellation()
            guard status != 0 else {
                throw FlickrError(kind: .connection, request: request, detail: "the connection closed before an answer", redacting: key)
            }
            return FlickrHTTPResponse(status: status, contentType: contentType, body: body)
        } catch let error as FlickrError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as URLError {
            if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
            let timedOut = error.code == .timedOut
            throw FlickrError(kind: timedOut ? .timeout : .connection, request: request, detail: Self.describe(error), redacting: key)
        } catch {
            throw FlickrError(kind: .connection, request: request, detail: "\(error)", redacting: key)
        }
    }

    /// A transport failure in words: Foundation's description and its code, without the URL
    /// (which carries the API key; the error redacts it anyway).
    private static func describe(_ error: URLError) -> String {
        "\(error.localizedDescription) (URLError \(error.code.rawValue))"
    }
}
