public import Foundation

extension FlickrPhoto {
    /// The default image host, `https://live.staticflickr.com`.
    public static let defaultPhotoHost = URL(string: "https://live.staticflickr.com")!

    /// The URL of this photo at `format` on `host`, in Flickr's path form
    /// `/{server}/{id}_{secret}_{suffix}.jpg`, or `nil` when the photo lacks the secret the
    /// format needs (``FlickrPhotoFormat/original`` without `originalsecret`, `h`/`k` without
    /// their own secrets): no URL rather than a broken one.
    ///
    /// ```swift
    /// photo.url(for: .square150)  // https://live.staticflickr.com/65535/53325959773_a1b2c3d4e5_q.jpg
    /// ```
    public func url(for format: FlickrPhotoFormat, host: URL = FlickrPhoto.defaultPhotoHost) -> URL? {
        guard let name = fileName(for: format) else { return nil }
        return host.appendingPathComponent(server, isDirectory: true).appendingPathComponent(name)
    }

    /// The file name part of ``url(for:host:)``, e.g. `53325959773_a1b2c3d4e5_q.jpg`.
    package func fileName(for format: FlickrPhotoFormat) -> String? {
        guard !server.isEmpty, !id.isEmpty else { return nil }
        switch format.secretSource {
        case .photo:
            guard !secret.isEmpty else { return nil }
            return format.suffix.isEmpty ? "\(id)_\(secret).jpg" : "\(id)_\(secret)_\(format.suffix).jpg"
        case .sizeSpecific:
            guard let sizeSecret = sizeSecrets[format], !sizeSecret.isEmpty else { return nil }
            return "\(id)_\(sizeSecret)_\(format.suffix).jpg"
        case .original:
            guard let originalSecret, !originalSecret.isEmpty,
                let originalFormat, !originalFormat.isEmpty
            else { return nil }
            return "\(id)_\(originalSecret)_o.\(originalFormat)"
        }
    }
}
