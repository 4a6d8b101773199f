@_spi(Reflection) import Swift
import Foundation
import ObjectGraph
import Synchronization

/// How a `Codable` struct property is stored, as SwiftData stores it: a composite attribute
/// (Core Data's `NSCompositeAttributeDescription`), one column per stored property of the
/// struct — here one ObjectGraph attribute per leaf, named `<property>_<leaf>` (so its column
/// is `Z<PROPERTY>_<LEAF>`).
///
/// A struct qualifies when each of its stored properties is an attribute type (String,
/// integers, Double, Float, Bool, Date, Data, UUID, URL, Decimal) or an optional of one. As
/// SwiftData, leaves are found by reflection under the struct's property names, not its
/// `CodingKeys`; values are rebuilt through the struct's `Decodable` conformance, so its coding
/// keys must be its property names.
struct CompositeLayout: @unchecked Sendable {
    // @unchecked Sendable: key paths are immutable values.

    /// One stored property of the struct.
    struct Leaf {
        /// The struct's property name.
        let name: String
        /// The attribute type it is stored as.
        let type: AttributeType
        /// Whether the struct declares it optional.
        let isOptional: Bool
        /// Its key path on the struct.
        let keyPath: AnyKeyPath
    }

    /// The struct's stored properties, in declaration order.
    let leaves: [Leaf]
    /// The struct type.
    let type: any Decodable.Type

    /// The attribute name of `leaf` of the composite property `property`.
    static func attributeName(_ property: String, _ leaf: String) -> String { "\(property)_\(leaf)" }

    private static let cache = Mutex<[ObjectIdentifier: CompositeLayout?]>([:])

    /// The layout of `type` when it is a struct stored as a composite attribute, else `nil`.
    static func of(_ type: Any.Type) -> CompositeLayout? {
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known }
        let layout = make(type)
        cache.withLock { $0[key] = layout }
        return layout
    }

    private static func make(_ type: Any.Type) -> CompositeLayout? {
        guard !(type is AnyClass), let decodable = type as? any Codable.Type,
            SchemaBuilder.attributeType(of: type) == nil, !(type is any RawRepresentable.Type),
            !(type is any _ModelArray.Type)
        else { return nil }
        var types: [String: Any.Type] = [:]
        let walked = _forEachField(of: type) { name, _, fieldType, _ in
            types[String(cString: name)] = fieldType
            return true
        }
        guard walked, !types.isEmpty else { return nil }
        guard let keyPaths = keyPaths(of: decodable) else { return nil }
        var leaves: [Leaf] = []
        for (name, keyPath) in keyPaths {
            guard var fieldType = types[name] else { return nil }
            var isOptional = false
            if let optional = fieldType as? any _ModelOptional.Type {
                fieldType = optional._wrappedType
                isOptional = true
            }
            guard let attributeType = SchemaBuilder.attributeType(of: fieldType) else { return nil }
            leaves.append(Leaf(name: name, type: attributeType, isOptional: isOptional, keyPath: keyPath))
        }
        return CompositeLayout(leaves: leaves, type: decodable)
    }

    private static func keyPaths<Root>(of type: Root.Type) -> [(String, AnyKeyPath)]? {
        var result: [(String, AnyKeyPath)] = []
        let walked = _forEachFieldWithKeyPath(of: type) { name, keyPath in
            result.append((String(cString: name), keyPath))
            return true
        }
        return walked ? result : nil
    }

    /// The leaf a key path on the struct reads, if it is one of its stored properties.
    func leaf(for keyPath: AnyKeyPath) -> Leaf? {
        leaves.first { $0.keyPath == keyPath }
    }

    /// The values of `value`'s leaves (`nil` for a `nil` optional), by leaf name.
    func leafValues(of value: Any) -> [String: Any?] {
        var result: [String: Any?] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            if let optional = child.value as? any _ModelOptional {
                result[label] = optional._wrapped
            } else {
                result[label] = child.value
            }
        }
        return result
    }

    /// The struct rebuilt from its stored leaves (read by `read`); `nil` when every leaf is
    /// `nil` and some leaf is not optional (an optional composite property holding `nil`).
    func value(reading read: (Leaf) -> Any?) throws -> Any? {
        var object: [String: Any] = [:]
        var isEmpty = true
        for leaf in leaves {
            guard let raw = read(leaf) else { continue }
            isEmpty = false
            object[leaf.name] = Self.jsonValue(raw)
        }
        if isEmpty && leaves.contains(where: { !$0.isOptional }) { return nil }
        let data = try JSONSerialization.data(withJSONObject: object)
        return try Self.decode(self.type, from: data)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> Any {
        try JSONDecoder().decode(type, from: data)
    }

    /// A stored value as `JSONDecoder`'s default strategies read it back.
    private static func jsonValue(_ raw: Any) -> Any {
        switch raw {
        case let date as Date: date.timeIntervalSinceReferenceDate
        case let data as Data: data.base64EncodedString()
        case let uuid as UUID: uuid.uuidString
        case let url as URL: url.absoluteString
        case let decimal as Decimal: NSDecimalNumber(decimal: decimal)
        default: raw
        }
    }
}
