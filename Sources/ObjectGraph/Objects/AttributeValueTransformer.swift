public import Foundation
import Synchronization

/// Turns the values of a transformable attribute into the `Data` a store keeps, and back —
/// ObjectGraph's counterpart of a Core Data `ValueTransformer` (which Foundation on Linux does
/// not have).
///
/// A transformable attribute stores its values through, in order of preference:
/// 1. its ``AttributeDescription/transformableType``: a `Codable` type, stored as JSON;
/// 2. the transformer registered under its ``AttributeDescription/valueTransformerName`` in
///    ``ValueTransformerRegistry``;
/// 3. nothing: with no name, or a name nobody registered (as `NSSecureUnarchiveFromData` is,
///    until an app registers one), values are `Data`, stored and returned as they are.
///
/// ```swift
/// struct ColourTransformer: AttributeValueTransformer {
///     func transformedValue(_ value: Any) throws -> Data {
///         guard let colour = value as? Colour else { throw ColourError.notAColour }
///         return Data(colour.hex.utf8)
///     }
///     func reverseTransformedValue(_ data: Data) throws -> Any {
///         try Colour(hex: String(decoding: data, as: UTF8.self))
///     }
/// }
/// ValueTransformerRegistry.setValueTransformer(ColourTransformer(), forName: "ColourTransformer")
/// ```
public protocol AttributeValueTransformer: Sendable {
    /// The stored form of `value` (never `nil`: a `nil` attribute value is stored as NULL
    /// without calling the transformer). Throw to refuse a value: the attribute keeps its old
    /// value and the next `save()` throws, naming entity and key.
    func transformedValue(_ value: Any) throws -> Data
    /// The value `data` stores, as callers get it from ``ManagedObject/value(forKey:)``.
    func reverseTransformedValue(_ data: Data) throws -> Any
}

/// The transformers of transformable attributes, by name, as Core Data's
/// `ValueTransformer.setValueTransformer(_:forName:)`.
///
/// A transformer is looked up each time a value is converted, so one registered after the
/// model is loaded is used from then on. Register before the first fetch or save of objects
/// whose attributes name it: values read before are `Data`.
public enum ValueTransformerRegistry {
    private static let transformers = Mutex<[String: any AttributeValueTransformer]>([:])

    /// Registers `transformer` under `name`; `nil` removes the one registered.
    public static func setValueTransformer(_ transformer: (any AttributeValueTransformer)?, forName name: String) {
        // The transformer replaced is released after the lock is (its deinit is user code).
        let replaced = transformers.withLock { transformers in
            defer { transformers[name] = transformer }
            return transformers[name]
        }
        withExtendedLifetime(replaced) {}
    }

    /// The transformer registered under `name`, if any.
    public static func valueTransformer(forName name: String) -> (any AttributeValueTransformer)? {
        transformers.withLock { $0[name] }
    }

    /// The names transformers are registered under, sorted.
    public static func valueTransformerNames() -> [String] {
        transformers.withLock { $0.keys.sorted() }
    }
}
