public import Foundation

// `value(forKey:as:)`: dynamic access by name for a caller that knows the Swift type it wants.
// `value(forKey:) as? T` boxes the value in `Any` and casts it back, a dynamic cast per read;
// here a value of the attribute's own Swift type moves out of the slot unboxed. The non-generic
// overloads exist because a generic function called from another module runs unspecialized
// (metatype comparisons and value-witness calls on every read); each overload runs the same
// code specialized for its type, as `@Managed`'s accessors do.
extension ManagedObject {
    /// The value of the property named `key` as `Result`: exactly `value(forKey: key) as? Result`,
    /// without boxing the value in `Any` when `Result` is the attribute's own Swift type.
    ///
    /// Returns `nil` for an unknown key, a `nil` value, a value of another type, and an object
    /// whose deletion was saved. A fault fires, as for ``value(forKey:)``. Keys of relationships
    /// and transformable attributes work too, through the general path:
    /// `value(forKey: "tags", as: Set<ManagedObject>.self)`.
    public func value<Result>(forKey key: String, as _: Result.Type) -> Result? {
        typedValue(forKey: key, as: Result.self)
    }

    /// ``value(forKey:as:)`` for a 64-bit integer attribute, specialized.
    public func value(forKey key: String, as _: Int64.Type) -> Int64? { typedValue(forKey: key, as: Int64.self) }

    /// ``value(forKey:as:)`` for a 32-bit integer attribute, specialized.
    public func value(forKey key: String, as _: Int32.Type) -> Int32? { typedValue(forKey: key, as: Int32.self) }

    /// ``value(forKey:as:)`` for a 16-bit integer attribute, specialized.
    public func value(forKey key: String, as _: Int16.Type) -> Int16? { typedValue(forKey: key, as: Int16.self) }

    /// ``value(forKey:as:)`` for a double attribute, specialized.
    public func value(forKey key: String, as _: Double.Type) -> Double? { typedValue(forKey: key, as: Double.self) }

    /// ``value(forKey:as:)`` for a float attribute, specialized.
    public func value(forKey key: String, as _: Float.Type) -> Float? { typedValue(forKey: key, as: Float.self) }

    /// ``value(forKey:as:)`` for a string attribute, specialized.
    public func value(forKey key: String, as _: String.Type) -> String? { typedValue(forKey: key, as: String.self) }

    /// ``value(forKey:as:)`` for a boolean attribute, specialized.
    public func value(forKey key: String, as _: Bool.Type) -> Bool? { typedValue(forKey: key, as: Bool.self) }

    /// ``value(forKey:as:)`` for a date attribute, specialized.
    public func value(forKey key: String, as _: Date.Type) -> Date? { typedValue(forKey: key, as: Date.self) }

    @inline(__always)
    private func typedValue<Result>(forKey key: String, as _: Result.Type) -> Result? {
        // As `value(forKey:) as? Result` answers: for an optional `Result`, `.some(nil)`.
        guard let slot = prepareForRead(key: key) else { return Any?.none as? Result }
        if canReadTypedAttribute(at: slot, as: Result.self) {
            return TypedValue.read(storage.values[slot], as: Result.self)
        }
        return readValue(at: slot) as? Result
    }
}
