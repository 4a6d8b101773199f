import Foundation
import Hummingbird

/// The OpenAPI 3.1 description of the JSON API, served at `GET /api/openapi.json`.
///
/// Written by hand (`Resources/api/openapi.json`) and checked against the running server by
/// schemathesis in the test suite: every route, status and body it names is what the server
/// answers.
struct OpenAPIDocument: Sendable {
    let bytes: [UInt8]
    let etag: String

    /// The document bundled with SPoTWeb.
    /// - Throws: ``SPoTWebError`` when it is missing or not JSON.
    static func bundled() throws -> OpenAPIDocument {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json", subdirectory: "api") else {
            throw SPoTWebError("SPoTWeb's OpenAPI document is missing from its resource bundle")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw SPoTWebError("Could not read the OpenAPI document \(url.path): \(error)")
        }
        let bytes = [UInt8](data)
        return OpenAPIDocument(bytes: bytes, etag: "\"\(String(StaticAssets.fnv1a(bytes), radix: 16))\"")
    }

    /// The document, or 304 when the browser has this version.
    func response(to request: Request) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache", .eTag: etag]
        if request.headers[.ifNoneMatch] == etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
