import Flickr
import Foundation

/// An answer before it becomes an HTTP response.
struct SandboxAnswer: Sendable {
    var status: Int
    var contentType: String
    var body: [UInt8]
}

/// Answers `GET /services/rest/` the way Flickr does, for the methods SPoT uses.
///
/// Checks, in Flickr's order: the format (`json` only, else error 111), the API key (100),
/// the method (112). Supports `flickr.photos.search` (`user_id`, `tags`, `tag_mode`,
/// `has_geo`, `min_upload_date`, `sort`, `extras`, `page`, `per_page`),
/// `flickr.photos.getRecent` and `flickr.test.echo`. Answers are plain JSON with
/// `nojsoncallback=1`, else wrapped in `jsonFlickrApi(…)` (or the `jsoncallback` name).
struct SandboxRESTAnswerer: Sendable {
    var acceptedAPIKeys: Set<String>?
    /// Where image URLs in `url_h`/`url_k` extras point.
    var photoHost: String

    /// Encodes `json` as the request asked: plain with `nojsoncallback=1`, else JSONP.
    func wrap(_ json: FlickrJSON, parameters: [(String, String)]) -> SandboxAnswer {
        let query = Dictionary(parameters, uniquingKeysWith: { first, _ in first })
        let text = json.encoded
        if query["nojsoncallback"] == "1" {
            return SandboxAnswer(status: 200, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
        }
        let callback = query["jsoncallback"].flatMap { $0.isEmpty ? nil : $0 } ?? "jsonFlickrApi"
        return SandboxAnswer(
            status: 200,
            contentType: "text/javascript; charset=utf-8",
            body: Array("\(callback)(\(text))".utf8)
        )
    }

    /// Flickr's error answer: `{"stat":"fail","code":…,"message":"…"}`.
    func failure(_ code: Int, _ message: String, parameters: [(String, String)]) -> SandboxAnswer {
        wrap(.object([("stat", .string("fail")), ("code", .int(code)), ("message", .string(message))]), parameters: parameters)
    }

    func answer(_ parameters: [(String, String)], photos: [SandboxPhoto]) -> SandboxAnswer {
        let query = Dictionary(parameters, uniquingKeysWith: { first, _ in first })
        let format = query["format"] ?? "rest"
        func respond(_ json: FlickrJSON) -> SandboxAnswer { wrap(json, parameters: parameters) }
        func fail(_ code: Int, _ message: String) -> SandboxAnswer { failure(code, message, parameters: parameters) }

        guard format == "json" else { return fail(111, "Format \"\(format)\" not found") }
        guard let key = query["api_key"], !key.isEmpty else {
            return fail(100, "Invalid API Key (Key has invalid format)")
        }
        if let acceptedAPIKeys, !acceptedAPIKeys.contains(key) {
            return fail(100, "Invalid API Key (Key not found)")
        }
        let method = query["method"] ?? ""
        switch method {
        case "flickr.test.echo":
            return respond(.object(parameters.map { ($0.0, FlickrJSON.content($0.1)) } + [("stat", .string("ok"))]))
        case "flickr.photos.search":
            let limiting = ["user_id", "tags", "text", "has_geo", "min_upload_date", "bbox", "lat"]
            guard limiting.contains(where: { !(query[$0] ?? "").isEmpty }) else {
                return fail(3, "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead.")
            }
            return respond(page(of: search(photos, query), query))
        case "flickr.photos.getRecent":
            return respond(page(of: photos.sorted { $0.uploaded > $1.uploaded }, query))
        case "":
            return fail(112, "Method \"\" not found")
        default:
            return fail(112, "Method \"\(method)\" not found")
        }
    }

    private func search(_ photos: [SandboxPhoto], _ query: [String: String]) -> [SandboxPhoto] {
        var result = photos
        if let user = query["user_id"], !user.isEmpty {
            result = result.filter { $0.owner.nsid == user }
        }
        if let tags = query["tags"], !tags.isEmpty {
            let wanted = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let all = query["tag_mode"] == "all"
            result = result.filter { photo in
                all ? wanted.allSatisfy(photo.hasTag) : wanted.contains(where: photo.hasTag)
            }
        }
        if query["has_geo"] == "1" {
            result = result.filter { $0.latitude != nil }
        }
        if let minimum = query["min_upload_date"].flatMap(Int.init) {
            result = result.filter { $0.uploaded >= minimum }
        }
        switch query["sort"] {
        case "date-posted-asc": result.sort { $0.uploaded < $1.uploaded }
        default: result.sort { $0.uploaded > $1.uploaded }
        }
        return result
    }

    /// A standard photos response for one page of `photos`.
    private func page(of photos: [SandboxPhoto], _ query: [String: String]) -> FlickrJSON {
        let perPage = min(max(1, Int(query["per_page"] ?? "") ?? 100), 500)
        let page = max(1, Int(query["page"] ?? "") ?? 1)
        let pages = (photos.count + perPage - 1) / perPage
        let start = min((page - 1) * perPage, photos.count)
        let slice = photos[start..<min(start + perPage, photos.count)]
        let extras = Set((query["extras"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return .object([
            (
                "photos",
                .object([
                    ("page", .int(page)), ("pages", .int(pages)), ("perpage", .int(perPage)),
                    ("total", .string(String(photos.count))),
                    ("photo", .array(slice.map { json(for: $0, extras: extras) })),
                ])
            ),
            ("stat", .string("ok")),
        ])
    }

    /// One photo with the `extras` asked for, typed as Flickr types them.
    private func json(for photo: SandboxPhoto, extras: Set<String>) -> FlickrJSON {
        var members: [(String, FlickrJSON)] = [
            ("id", .string(photo.id)), ("owner", .string(photo.owner.nsid)), ("secret", .string(photo.secret)),
            ("server", .string(photo.server)), ("farm", .int(photo.farm)), ("title", .string(photo.title)),
            ("ispublic", .int(1)), ("isfriend", .int(0)), ("isfamily", .int(0)),
        ]
        if extras.contains("license") { members.append(("license", .string("4"))) }
        if extras.contains("description") { members.append(("description", .content(photo.descriptionHTML))) }
        if extras.contains("date_upload") { members.append(("dateupload", .string(String(photo.uploaded)))) }
        if extras.contains("owner_name") { members.append(("ownername", .string(photo.owner.name))) }
        if extras.contains("original_format"), let secret = photo.originalSecret, let format = photo.originalFormat {
            members.append(("originalsecret", .string(secret)))
            members.append(("originalformat", .string(format)))
        }
        if extras.contains("tags") { members.append(("tags", .string(photo.tags.joined(separator: " ")))) }
        if extras.contains("geo") {
            if let latitude = photo.latitude, let longitude = photo.longitude {
                members += [
                    ("latitude", .string(Self.degrees(latitude))), ("longitude", .string(Self.degrees(longitude))),
                    ("accuracy", .string("16")), ("context", .int(0)),
                    ("geo_is_public", .int(1)), ("geo_is_contact", .int(0)), ("geo_is_friend", .int(0)), ("geo_is_family", .int(0)),
                ]
            } else {
                members += [("latitude", .int(0)), ("longitude", .int(0)), ("accuracy", .int(0)), ("context", .int(0))]
            }
        }
        for (extra, format) in [("url_h", FlickrPhotoFormat.large1600), ("url_k", .large2048)] where extras.contains(extra) {
            guard let secret = photo.sizeSecrets[format] else { continue }
            let size = format.pixelSize(forOriginalWidth: photo.originalSize.width, height: photo.originalSize.height)
            members.append((extra, .string("\(photoHost)/\(photo.server)/\(photo.id)_\(secret)_\(format.suffix).jpg")))
            members.append(("height_\(format.suffix)", .int(size.height)))
            members.append(("width_\(format.suffix)", .int(size.width)))
        }
        return .object(members)
    }

    /// Six decimals, as Flickr prints coordinates.
    static func degrees(_ value: Double) -> String {
        let scaled = Int((abs(value) * 1_000_000).rounded())
        let fraction = String(scaled % 1_000_000)
        return (value < 0 ? "-" : "") + "\(scaled / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
