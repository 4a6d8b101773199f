import Foundation

extension FlickrPhoto: Decodable {
    private enum CodingKeys: String, CodingKey {
        case id, owner, secret, server, farm, title, description, ownername, tags, dateupload
        case latitude, longitude, accuracy, originalsecret, originalformat
        case urlH = "url_h"
        case urlK = "url_k"
    }

    /// Decodes one element of a standard photos response's `photo` array, surviving Flickr's
    /// quirks: numbers as strings and strings as numbers, `dateupload` as a string of epoch
    /// seconds, `description._content`, `tags` as one space-separated string, `0,0` for
    /// photos without a place, and any extra missing.
    ///
    /// - Throws: `DecodingError` only when `id`, `secret` or `server` is missing.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func required(_ key: CodingKeys) throws -> String {
            guard let value = c.lossyString(forKey: key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: c.codingPath, debugDescription: "missing \(key.stringValue)"))
            }
            return value
        }
        self.init(
            id: try required(.id),
            owner: c.lossyString(forKey: .owner) ?? "",
            secret: try required(.secret),
            server: try required(.server),
            farm: c.lossyInt(forKey: .farm),
            title: c.lossyString(forKey: .title) ?? "",
            descriptionHTML: c.contentString(forKey: .description),
            ownerName: c.lossyString(forKey: .ownername),
            tags: (c.lossyString(forKey: .tags) ?? "").split(whereSeparator: \.isWhitespace).map(String.init),
            uploadDate: c.lossyInt(forKey: .dateupload).map { Date(timeIntervalSince1970: TimeInterval($0)) },
            coordinate: Self.coordinate(in: c),
            originalSecret: c.lossyString(forKey: .originalsecret).flatMap { $0.isEmpty ? nil : $0 },
            originalFormat: c.lossyString(forKey: .originalformat).flatMap { $0.isEmpty ? nil : $0 },
            sizeSecrets: Self.sizeSecrets(in: c)
        )
    }

    private static func coordinate(in c: KeyedDecodingContainer<CodingKeys>) -> FlickrCoordinate? {
        guard let latitude = c.lossyDouble(forKey: .latitude), let longitude = c.lossyDouble(forKey: .longitude),
            latitude != 0 || longitude != 0,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        let accuracy = c.lossyInt(forKey: .accuracy)
        return FlickrCoordinate(latitude: latitude, longitude: longitude, accuracy: accuracy == 0 ? nil : accuracy)
    }

    /// Secrets of `h`/`k` taken from `url_h`/`url_k`: `…/{id}_{secret}_h.jpg`.
    private static func sizeSecrets(in c: KeyedDecodingContainer<CodingKeys>) -> [FlickrPhotoFormat: String] {
        var secrets: [FlickrPhotoFormat: String] = [:]
        for (key, format) in [(CodingKeys.urlH, FlickrPhotoFormat.large1600), (.urlK, .large2048)] {
            guard let url = c.lossyString(forKey: key), let name = url.split(separator: "/").last else { continue }
            let parts = name.split(separator: "_")
            if parts.count == 3 { secrets[format] = String(parts[1]) }
        }
        return secrets
    }
}
