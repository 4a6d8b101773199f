/// One of Flickr's image sizes, named by its URL suffix.
///
/// The squares (`s`, `q`) are cropped; the others are scaled so their longest edge is
/// ``longestEdge``. `h` and `k` carry a secret of their own, which a search only returns
/// through `url_h`/`url_k` extras, and `o` needs the photo's `originalsecret` and
/// `originalformat`: without them ``FlickrPhoto/url(for:host:)`` gives no URL.
public enum FlickrPhotoFormat: String, Sendable, Hashable, CaseIterable, Codable {
    /// `s`: 75×75 square.
    case square75 = "s"
    /// `q`: 150×150 square.
    case square150 = "q"
    /// `t`: 100 on the longest edge.
    case thumbnail100 = "t"
    /// `m`: 240 on the longest edge.
    case small240 = "m"
    /// `n`: 320 on the longest edge.
    case small320 = "n"
    /// `w`: 400 on the longest edge.
    case small400 = "w"
    /// No suffix: 500 on the longest edge.
    case medium500 = ""
    /// `z`: 640 on the longest edge.
    case medium640 = "z"
    /// `c`: 800 on the longest edge.
    case medium800 = "c"
    /// `b`: 1024 on the longest edge.
    case large1024 = "b"
    /// `h`: 1600 on the longest edge; needs its own secret.
    case large1600 = "h"
    /// `k`: 2048 on the longest edge; needs its own secret.
    case large2048 = "k"
    /// `o`: the original upload, in its own format and size; needs `originalsecret`.
    case original = "o"

    /// The URL suffix, e.g. `"q"`; empty for ``medium500``.
    public var suffix: String { rawValue }

    /// The format for a URL suffix (`""` is ``medium500``), or `nil` if Flickr has none.
    public init?(suffix: String) {
        self.init(rawValue: suffix)
    }

    /// Whether Flickr crops this size to a square.
    public var isSquare: Bool { self == .square75 || self == .square150 }

    /// The length of the longest edge in pixels (the side, for squares); `nil` for
    /// ``original``, whose size is the upload's.
    public var longestEdge: Int? {
        switch self {
        case .square75: 75
        case .square150: 150
        case .thumbnail100: 100
        case .small240: 240
        case .small320: 320
        case .small400: 400
        case .medium500: 500
        case .medium640: 640
        case .medium800: 800
        case .large1024: 1024
        case .large1600: 1600
        case .large2048: 2048
        case .original: nil
        }
    }

    /// The pixel size of this format for an original of `width`×`height`: squares are
    /// square, other sizes keep the aspect ratio with the longest edge at ``longestEdge``
    /// (never enlarging), ``original`` is the original.
    public func pixelSize(forOriginalWidth width: Int, height: Int) -> (width: Int, height: Int) {
        guard let edge = longestEdge else { return (width, height) }
        if isSquare { return (edge, edge) }
        let longest = max(width, height)
        guard longest > edge else { return (width, height) }
        let scale = Double(edge) / Double(longest)
        let w = max(1, Int((Double(width) * scale).rounded()))
        let h = max(1, Int((Double(height) * scale).rounded()))
        return (w, h)
    }

    /// Which secret a URL of this size is built with.
    package enum SecretSource: Sendable { case photo, sizeSpecific, original }

    package var secretSource: SecretSource {
        switch self {
        case .large1600, .large2048: .sizeSpecific
        case .original: .original
        default: .photo
        }
    }
}
