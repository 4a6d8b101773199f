import Foundation

/// Colour arithmetic for painting: mixing, shading, lighting, and the measures used to pick inks.
extension RGB {
    /// This colour moved towards `other` by `t` (0 keeps it, 1 gives `other`).
    func mixed(with other: RGB, _ t: Float) -> RGB {
        let t = min(max(t, 0), 1)
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(Float(a) + (Float(b) - Float(a)) * t + 0.5)
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
        RGB(
            UInt8(Int(r) * Int(light.r) / 255),
            UInt8(Int(g) * Int(light.g) / 255),
            UInt8(Int(b) * Int(light.b) / 255)
        )
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
