import Foundation

// Fast paths for the accessors `@Managed` generates: when the property's Swift type is the
// attribute's own (`Int64` for `.integer64`, `String?` for `.string`, …), values move between
// the caller and the slot without `Any` boxing or dynamic casts. Every other case takes the
// general path (`value(forKey:)` / `setValue(_:forKey:)`) with identical results.

extension ManagedObject {
    /// The value of the attribute in `slot` as `Result`, when `Result` is the attribute's own
    /// Swift type (or its optional) and the slot holds a value; `nil` means "use the general path".
    @inline(__always)
    func typedAttributeValue<Result>(at slot: Int, as _: Result.Type) -> Result? {
        guard let type = entity.attributeType(atSlot: slot) else { return nil }
        return TypedValue.public(storage.values[slot], type: type)
    }

    /// Stores `value` in the attribute `key` when its Swift type is the attribute's own; returns
    /// `false` (having changed nothing) when the general path must handle it.
    @inline(__always)
    func setTypedAttributeValue<Input>(_ value: Input, forKey key: String) -> Bool {
        guard let slot = entity.slotByName[key], let type = entity.attributeType(atSlot: slot),
              !storage.flags.contains(.gone), let stored = TypedValue.stored(value, type: type)
        else { return false }
        assertOnContextQueue()
        fulfillIfNeeded()
        setStored(stored, at: slot)
        return true
    }
}

/// Conversions between `Value` and the Swift types of attributes, chosen by metatype
/// comparison (no protocol-conformance lookups).
enum TypedValue {
    /// `stored` as `Result`, exactly as `AttributeDescription.publicValue(from:)` followed by
    /// `as? Result` would give it; `nil` for a case this fast path does not cover.
    @inline(__always)
    static func `public`<Result>(_ stored: Value, type: AttributeType) -> Result? {
        switch (type, stored) {
        case (.integer64, .int(let int)):
            return cast(int, to: Result.self)
        case (.integer32, .int(let int)):
            return cast(Int32(truncatingIfNeeded: int), to: Result.self)
        case (.integer16, .int(let int)):
            return cast(Int16(truncatingIfNeeded: int), to: Result.self)
        case (.double, .double(let double)):
            return cast(double, to: Result.self)
        case (.float, .double(let double)):
            return cast(Float(double), to: Result.self)
        case (.string, .string(let string)):
            return cast(string, to: Result.self)
        case (.boolean, .bool(let bool)):
            return cast(bool, to: Result.self)
        case (.date, .date(let date)):
            return cast(date, to: Result.self)
        default:
            return nil
        }
    }

    /// `value` in the stored form of an attribute of `type`, exactly as
    /// `AttributeDescription.storedValue(from:)` would give it; `nil` for a case this fast path
    /// does not cover (the general path then decides, and reports mismatches).
    @inline(__always)
    static func stored<Input>(_ value: Input, type: AttributeType) -> Value? {
        switch type {
        case .integer64:
            if let int = uncast(value, as: Int64.self) { return int.map { .int($0) } ?? .null }
            if let int = uncast(value, as: Int.self) { return int.map { .int(Int64($0)) } ?? .null }
        case .integer32:
            if let int = uncast(value, as: Int32.self) { return int.map { .int(Int64($0)) } ?? .null }
        case .integer16:
            if let int = uncast(value, as: Int16.self) { return int.map { .int(Int64($0)) } ?? .null }
        case .double:
            if let double = uncast(value, as: Double.self) { return double.map { .double($0) } ?? .null }
        case .string:
            if let string = uncast(value, as: String.self) { return string.map { .string($0.precomposedStringWithCanonicalMapping) } ?? .null }
        case .boolean:
            if let bool = uncast(value, as: Bool.self) { return bool.map { .bool($0) } ?? .null }
        case .date:
            if let date = uncast(value, as: Date.self) { return date.map { .date($0) } ?? .null }
        default:
            break
        }
        return nil
    }

    /// `value` as `Result` when `Result` is `T` or `T?`.
    @inline(__always)
    private static func cast<T, Result>(_ value: T, to _: Result.Type) -> Result? {
        if Result.self == T.self { return unsafeBitCast(value, to: Result.self) }
        if Result.self == T?.self { return unsafeBitCast(Optional(value), to: Result.self) }
        return nil
    }

    /// `.some(wrapped)` when `Input` is `T` or `T?` (the wrapped value may be `nil`); `nil` for
    /// any other type.
    @inline(__always)
    private static func uncast<Input, T>(_ value: Input, as _: T.Type) -> T?? {
        if Input.self == T.self { return .some(unsafeBitCast(value, to: T.self)) }
        if Input.self == T?.self { return .some(unsafeBitCast(value, to: T?.self)) }
        return nil
    }
}

extension EntityDescription {
    /// The attribute type of `slot`, `nil` for a relationship.
    @inline(__always)
    func attributeType(atSlot slot: Int) -> AttributeType? {
        if isFrozen { return frozenAttributeTypes[slot] }
        return (allProperties[slot] as? AttributeDescription)?.attributeType
    }
}
