import Foundation
import Hummingbird

/// The CSS, scripts and icon, loaded from SPoTWeb's bundle once at start and served from
/// memory with ETags (revalidated on each load, so a new version shows at once).
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        /// The file's bytes, shared by every response (a `ByteBuffer` is copied on write only).
        let body: ByteBuffer
        let contentType: String
        let etag: String

        init(bytes: [UInt8], contentType: String) {
            body = ByteBuffer(bytes: bytes)
            self.contentType = contentType
            etag = "\"\(String(StaticAssets.fnv1a(bytes), radix: 16))\""
        }
    }

    let files: [String: Asset]

    /// Every file in the bundle's `static` folder.
    /// - Throws: ``SPoTWebError`` when the folder is missing or unreadable.
    static func bundled() throws -> StaticAssets {
        guard let directory = Bundle.module.url(forResource: "static", withExtension: nil) else {
            throw SPoTWebError("SPoTWeb's static assets are missing from its resource bundle")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw SPoTWebError("Could not list the static assets in \(directory.path): \(error)")
        }
        var files: [String: Asset] = [:]
        for name in names {
            let url = directory.appendingPathComponent(name)
            guard let type = contentType(forExtension: url.pathExtension) else { continue }
            do {
                let bytes = [UInt8](try Data(contentsOf: url))
                files[name] = Asset(bytes: bytes, contentType: type)
            } catch {
                throw SPoTWebError("Could not read the static asset \(url.path): \(error)")
            }
        }
        return StaticAssets(files: files)
    }

    /// These assets and `more` (name → bytes and content type); `more` wins on a name in both.
    func adding(_ more: [String: (bytes: [UInt8], contentType: String)]) -> StaticAssets {
        var files = files
        for (name, file) in more {
            files[name] = Asset(bytes: file.bytes, contentType: file.contentType)
        }
        return StaticAssets(files: files)
    }

    private static func contentType(forExtension ext: String) -> String? {
        switch ext {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        default: nil
        }
    }

    /// A 64-bit FNV-1a hash: a stable content tag for ETags.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// `GET /static/NAME`, and `/favicon.ico` (the icon, for browsers that ask there whatever the
/// page's `<link rel="icon">` says).
struct AssetRoutes: Sendable {
    let assets: StaticAssets

    func register(on router: Router<BasicRequestContext>) {
        router.get("/static/:name") { request, context in
            try serve(context.parameters.get("name") ?? "", request)
        }
        router.get("/favicon.ico") { request, _ in try serve("icon.svg", request) }
    }

    private func serve(_ name: String, _ request: Request) throws -> Response {
        guard let asset = assets.files[name] else { throw WebError(.notFound, "There is no asset called “\(name.prefix(60))”") }
        var headers: HTTPFields = [.contentType: asset.contentType, .cacheControl: "no-cache", .eTag: asset.etag]
        if request.headers[.ifNoneMatch] == asset.etag {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: asset.body))
    }
}
