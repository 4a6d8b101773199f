import Flickr
import Foundation
import Hummingbird
import SPoTKit

/// Thumbnails (`/thumbnails/ID.jpg`, from the database or downloaded once) and large images
/// (`/images/ID/large.jpg`, `/images/ID/original.jpg`, from the image file cache).
///
/// A photo's images never change under the same id, so they are cacheable for a year; the
/// ETag lets a browser revalidate without the bytes.
struct ImageRoutes: Sendable {
    let web: SPoTWebApp

    func register(on router: Router<BasicRequestContext>) {
        router.get("/thumbnails/:file") { request, context in
            let file = try Input.text(context, "file", what: "thumbnail")
            guard file.hasSuffix(".jpg") else { throw WebError(.notFound, "Thumbnails are JPEG files: /thumbnails/ID.jpg") }
            let id = try Input.photoID(name: String(file.dropLast(4)))
            web.counters.count(.thumbnail, id)
            return try await image(request, etag: "t-\(id)") { try await Array(web.spot.thumbnails.thumbnail(for: id)) }
        }
        router.get("/images/:id/:size") { request, context in
            let id = try Input.photoID(context)
            let format: FlickrPhotoFormat
            switch try Input.text(context, "size", what: "size") {
            case "large.jpg": format = .large1024
            case "original.jpg": format = .original
            default: throw WebError(.notFound, "Sizes are large.jpg and original.jpg")
            }
            return try await image(request, etag: "\(format.suffix.isEmpty ? "m" : format.suffix)-\(id)") {
                try await web.spot.image(for: id, format: format)
            }
        }
    }

    private func image(_ request: Request, etag tag: String, bytes: () async throws -> [UInt8]) async throws -> Response {
        let etag = "\"\(tag)\""
        var headers: HTTPFields = [.cacheControl: "public, max-age=31536000, immutable", .eTag: etag]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            return Response(status: .notModified, headers: headers)
        }
        let data = try await bytes()
        headers[.contentType] = "image/jpeg"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
