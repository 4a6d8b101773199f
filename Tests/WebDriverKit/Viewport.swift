/// The size a ``WebDriverSession``'s page is laid out at.
///
/// * ``window(width:height:)`` is a desktop browser whose *inner* viewport
///   (`window.innerWidth` × `window.innerHeight`) is resized to exactly that size.
/// * ``device(width:height:pixelRatio:touch:)`` uses chromedriver's `mobileEmulation`
///   `deviceMetrics` — the only reliable way to get phone widths in headless chromium
///   (`--window-size` has a minimum width of about 500 px there). Mobile emulation lays out
///   pages without `<meta name="viewport" content="width=device-width">` at 980 px, as a
///   phone does, so the pages under test need that tag for `innerWidth` to match.
public enum Viewport: Sendable, Hashable, CustomStringConvertible {
    /// A desktop window whose inner viewport is `width` × `height` CSS pixels.
    case window(width: Int, height: Int)
    /// An emulated device: CSS-pixel size, device pixel ratio, and whether touch is on.
    case device(width: Int, height: Int, pixelRatio: Double, touch: Bool)

    /// 375 × 667 phone, pixel ratio 2, touch.
    public static let phonePortrait = Viewport.device(width: 375, height: 667, pixelRatio: 2, touch: true)
    /// 667 × 375 phone, pixel ratio 2, touch.
    public static let phoneLandscape = Viewport.device(width: 667, height: 375, pixelRatio: 2, touch: true)
    /// 768 × 1024 tablet, pixel ratio 2, touch.
    public static let tabletPortrait = Viewport.device(width: 768, height: 1024, pixelRatio: 2, touch: true)
    /// 1024 × 768 tablet, pixel ratio 2, touch.
    public static let tabletLandscape = Viewport.device(width: 1024, height: 768, pixelRatio: 2, touch: true)
    /// 1280 × 800 desktop window, no touch.
    public static let desktop = Viewport.window(width: 1280, height: 800)

    /// The CSS-pixel width pages see.
    public var width: Int {
        switch self {
        case .window(let width, _), .device(let width, _, _, _): width
        }
    }

    /// The CSS-pixel height pages see.
    public var height: Int {
        switch self {
        case .window(_, let height), .device(_, let height, _, _): height
        }
    }

    /// E.g. `"375×667 device @2x touch"`.
    public var description: String {
        switch self {
        case .window(let width, let height):
            "\(width)×\(height) window"
        case .device(let width, let height, let ratio, let touch):
            "\(width)×\(height) device @\(ratio.formatted())x\(touch ? " touch" : "")"
        }
    }
}

extension Double {
    fileprivate func formatted() -> String {
        rounded() == self ? String(Int(self)) : String(self)
    }
}
