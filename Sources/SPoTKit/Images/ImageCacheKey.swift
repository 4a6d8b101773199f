public import Flickr

/// Which image: a Flickr photo id and a size.
///
/// The photo id is untrusted input (it comes from Flickr, or from a URL), so the cache never
/// uses it as a path: a file is named after a hash of the photo id and the size.
public struct ImageCacheKey: Hashable, Sendable {
    /// The Flickr photo id, e.g. `"53412345678"`.
    public var photoID: String
    /// The size of the image, e.g. ``FlickrPhotoFormat/large1024``.
    public var format: FlickrPhotoFormat

    /// A key for one photo at one size.
    public init(photoID: String, format: FlickrPhotoFormat) {
        self.photoID = photoID
        self.format = format
    }
}

extension ImageCacheKey {
    /// The extension every cache file carries; anything else in the directory is not ours.
    static let fileExtension = "img"

    /// The name of this key's file: 32 hex digits of two FNV-1a 64 hashes of the key, then
    /// ``fileExtension``. Only `[0-9a-f]` and one dot, so no key can name a path outside the
    /// directory, whatever its photo id holds.
    var fileName: String {
        let bytes = ImageFileCache.FileFormat.keyBytes(self)
        // A second hash over the reversed bytes widens the name to 128 bits, so an accidental
        // collision is not a practical concern; a contrived one costs a refetch, never a wrong
        // image, because every file also records its key.
        return hex(FNV1a64.hash(bytes)) + hex(FNV1a64.hash(bytes.reversed())) + "." + Self.fileExtension
    }

    /// Whether `name` has the shape of a cache file's name (see ``fileName``).
    static func isCacheFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[1] == fileExtension && parts[0].utf8.count == 32
            && parts[0].utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The 64-bit FNV-1a hash: small, fast and dependency-free. Not cryptographic: the cache uses
/// it to name files and to detect torn or damaged files, not to resist a forger.
enum FNV1a64 {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }
}
