import Foundation

/// Colour arithmetic for painting: mixing, shading, lighting, and the measures used to pick inks.
extension RGB {
    /// This colour moved towards `other` by `t` (0 keeps it, 1 gives `other`).
    func mixed(with other: RGB, _ t: Float) -> RGB {
        let t = min(max(t, 0), 1)
        // Spelled out with typed steps: as one expression this took the type checker 3.7 s.
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let from = Float(a)
            let step: Float = (Float(b) - from) * t
            return UInt8(from + step + 0.5)
        }
        return RGB(channel(r, other.r), channel(g, other.g), channel(b, other.b))
    }

    /// This colour with every channel multiplied by `factor` (clamped), to shade or brighten it.
    func scaled(_ factor: Float) -> RGB {
        func channel(_ a: UInt8) -> UInt8 { UInt8(min(255, max(0, Float(a) * factor + 0.5))) }
        return RGB(channel(r), channel(g), channel(b))
    }

    /// This colour lit by `light`, channel by channel, as sunlight of that colour would show it.
    func lit(by light: RGB) -> RGB {
        // One typed helper instead of three inline products: 0.2 s less type checking.
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let product: Int = Int(a) * Int(b)
            return UInt8(product / 255)
        }
        return RGB(channel(r, light.r), channel(g, light.g), channel(b, light.b))
    }

    /// Relative brightness 0…1 (Rec. 601 weights, the ones JPEG's luma uses too).
    var luminance: Float {
        (0.299 * Float(r) + 0.587 * Float(g) + 0.114 * Float(b)) / 255
    }

    /// How colourful this is, 0 (grey) … 1 (pure hue).
    var saturation: Float {
        let high = max(r, g, b)
        let low = min(r, g, b)
        return high == 0 ? 0 : Float(high - low) / Float(high)
    }
}
