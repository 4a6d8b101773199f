import Foundation

extension AttributeDescription {
    /// Converts a caller's value into this attribute's stored form; `nil` when it does not
    /// convert exactly (a type mismatch the caller reports).
    ///
    /// Any Swift integer or floating-point value converts when it fits exactly; `nil`,
    /// `NSNull` and `Optional.none` become `.null`; strings are NFC-normalized.
    func storedValue(from input: Any?) -> Value? {
        if let input, let fast = exactTypeStoredValue(input) { return fast }
        guard let value = flattenOptional(input), !(value is NSNull) else { return .null }
        switch attributeType {
        case .string:
            if let string = value as? String { return .string(string.precomposed) }
            if let string = value as? Substring { return .string(String(string).precomposed) }
            return nil
        case .boolean:
            if let bool = value as? Bool { return .bool(bool) }
            if let int = exactInteger(value), int == 0 || int == 1 { return .bool(int == 1) }
            return nil
        case .integer16:
            return exactInteger(value).flatMap { Int16(exactly: $0) }.map { .int(Int64($0)) }
        case .integer32:
            return exactInteger(value).flatMap { Int32(exactly: $0) }.map { .int(Int64($0)) }
        case .integer64:
            return exactInteger(value).map { .int($0) }
        case .double:
            return exactDouble(value).map { .double($0) }
        case .float:
            guard let double = exactDouble(value), Double(Float(double)) == double || double.isNaN else { return nil }
            return .double(double)
        case .decimal:
            if let decimal = value as? Decimal { return .decimal(decimal) }
            if let int = exactInteger(value) { return .decimal(Decimal(int)) }
            if let double = exactDouble(value), double.isFinite { return Decimal(string: "\(double)").map { .decimal($0) } }
            return nil
        case .date:
            return (value as? Date).map { .date($0) }
        case .binaryData:
            if let data = value as? Data { return .data(data) }
            if let bytes = value as? [UInt8] { return .data(Data(bytes)) }
            return nil
        case .uuid:
            return (value as? UUID).map { .uuid($0) }
        case .uri:
            return (value as? URL).map { .url($0) }
        case .transformable:
            if let expected = transformableType {
                guard let encodable = value as? any Encodable, type(of: value) == expected else { return nil }
                return (try? JSONEncoder.sortedKeys.encode(encodable)).map { .data($0) }
            }
            if let transformer = valueTransformer {
                return (try? transformer.transformedValue(value)).map { .data($0) }
            }
            if let data = value as? Data { return .data(data) }
            if let bytes = value as? [UInt8] { return .data(Data(bytes)) }
            return nil
        }
    }

    /// The stored form of a value whose dynamic type is exactly this attribute's common Swift
    /// type (`Int64`, `Int`, `Double`, `String`, `Bool`, `Date`), found by comparing metatypes
    /// instead of the protocol casts of the general path; `nil` for anything else.
    @inline(__always)
    private func exactTypeStoredValue(_ value: Any) -> Value? {
        let type = Swift.type(of: value)
        switch attributeType {
        case .integer64:
            if type == Int64.self { return .int(value as! Int64) }
            if type == Int.self { return .int(Int64(value as! Int)) }
        case .integer32:
            if type == Int32.self { return .int(Int64(value as! Int32)) }
        case .integer16:
            if type == Int16.self { return .int(Int64(value as! Int16)) }
        case .double:
            if type == Double.self { return .double(value as! Double) }
        case .string:
            if type == String.self { return .string((value as! String).precomposed) }
        case .boolean:
            if type == Bool.self { return .bool(value as! Bool) }
        case .date:
            if type == Date.self { return .date(value as! Date) }
        default:
            break
        }
        return nil
    }

    /// Converts a stored value into the Swift type callers get for this attribute; throws when
    /// a transformable value does not decode (JSON of another shape, data its transformer
    /// refuses).
    func decodedValue(from stored: Value) throws -> Any? {
        if attributeType == .transformable, case .data(let data) = stored {
            do {
                if let type = transformableType { return try decodeTransformable(type, from: data) }
                if let transformer = valueTransformer { return try transformer.reverseTransformedValue(data) }
            } catch {
                let target = transformableType.map { "\($0)" } ?? "its transformer '\(valueTransformerName ?? "")'"
                throw ObjectGraphError(
                    .typeMismatch,
                    "the stored value of \(entity?.name ?? "?").\(name) (\(data.count) bytes) does not decode with \(target)",
                    underlying: error
                )
            }
            return data
        }
        return Self.publicValue(of: attributeType, from: stored)
    }

    /// ``decodedValue(from:)`` for descriptions and logs, where a value that does not decode
    /// is shown as `nil` (every data path reports the error instead).
    func publicValue(from stored: Value) -> Any? {
        (try? decodedValue(from: stored)) ?? nil
    }

    /// ``publicValue(from:)`` for an attribute of `attributeType`; a transformable value is
    /// returned as its data (the instance method decodes it).
    static func publicValue(of attributeType: AttributeType, from stored: Value) -> Any? {
        switch (attributeType, stored) {
        case (_, .null): return nil
        case (.string, .string(let string)): return string
        case (.boolean, .bool(let bool)): return bool
        case (.boolean, .int(let int)): return int != 0
        case (.integer16, .int(let int)): return Int16(truncatingIfNeeded: int)
        case (.integer32, .int(let int)): return Int32(truncatingIfNeeded: int)
        case (.integer64, .int(let int)): return int
        case (.double, .double(let double)): return double
        case (.double, .int(let int)): return Double(int)
        case (.float, .double(let double)): return Float(double)
        case (.float, .int(let int)): return Float(int)
        case (.decimal, .decimal(let decimal)): return decimal
        case (.date, .date(let date)): return date
        case (.binaryData, .data(let data)): return data
        case (.uuid, .uuid(let uuid)): return uuid
        case (.uri, .url(let url)): return url
        case (.transformable, .data(let data)): return data
        default: return nil
        }
    }

    /// The registered transformer this transformable attribute names, if any (looked up on
    /// each use, so a transformer registered after the model loaded is used).
    var valueTransformer: (any AttributeValueTransformer)? {
        valueTransformerName.flatMap { ValueTransformerRegistry.valueTransformer(forName: $0) }
    }

    /// The Swift type values of this attribute must have, for error messages ("String",
    /// "Data", the Codable type, …).
    var expectedValueDescription: String {
        guard attributeType == .transformable else { return attributeType.swiftTypeName }
        if let transformableType { return "\(transformableType)" }
        if let name = valueTransformerName, valueTransformer != nil { return "a value the transformer '\(name)' accepts" }
        return "Data"
    }

    private func decodeTransformable<T: Decodable>(_ type: T.Type, from data: Data) throws -> Any {
        try JSONDecoder().decode(type, from: data)
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, so equal values encode to equal bytes.
    static var sortedKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// Unwraps any depth of `Optional` hidden in an `Any`; `nil` when the innermost is `none`.
func flattenOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if let optional = value as? any OptionalProtocol { return optional.flattenedValue }
    return value
}

protocol OptionalProtocol {
    var flattenedValue: Any? { get }
}

extension Optional: OptionalProtocol {
    var flattenedValue: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): flattenOptional(wrapped)
        }
    }
}

/// The value as an `Int64` if it is an integer, or a floating-point or decimal number with an
/// exact integer value.
func exactInteger(_ value: Any) -> Int64? {
    switch value {
    case let int as any BinaryInteger: return Int64(exactly: int)
    case let double as Double: return Int64(exactly: double)
    case let float as Float: return Int64(exactly: float)
    case let decimal as Decimal:
        guard decimal.isFinite, decimal == decimal.rounded(0) else { return nil }
        return Int64(exactly: NSDecimalNumber(decimal: decimal).int64Value).flatMap {
            Decimal($0) == decimal ? $0 : nil
        }
    default: return nil
    }
}

/// The value as a `Double` if it converts exactly.
func exactDouble(_ value: Any) -> Double? {
    switch value {
    case let double as Double: return double
    case let float as Float: return Double(float)
    case let int as any BinaryInteger: return Double(exactly: int)
    default: return nil
    }
}

extension Decimal {
    /// The decimal rounded to `scale` digits after the point.
    func rounded(_ scale: Int) -> Decimal {
        var input = self
        var result = Decimal()
        NSDecimalRound(&result, &input, scale, .plain)
        return result
    }
}
