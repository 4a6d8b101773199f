public import Foundation
public import ObjectGraph

/// A Swift type ObjectGraph stores as an attribute of its own — `Int64`, `Int32`, `Int16`,
/// `Double`, `Float`, `String`, `Bool`, `Date` and their optionals, and `Int` (as integer 64) —
/// which `@Model`'s accessors read and write typed, as `@Managed`'s do: no lookup by name, no
/// `Any` box and cast. Not used directly.
///
/// The requirements call ObjectGraph's non-generic typed accessors, so a read is one witness
/// call into code already specialized for the type (a generic call into ObjectGraph from
/// here would run unspecialized, with metatype comparisons on every read).
public protocol _ModelAttributeValue {
    /// The value in `slot` of `object`.
    static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self
    /// Stores the value in `slot` of `object`.
    func _write(to object: ManagedObject, _ slot: ManagedPropertySlot)
    /// The optional value in `slot` of `object` (for `Optional`'s conformance).
    static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self?
    /// Stores an optional value in `slot` of `object` (for `Optional`'s conformance).
    static func _writeOptional(_ value: Self?, to object: ManagedObject, _ slot: ManagedPropertySlot)
}

extension Optional: _ModelAttributeValue where Wrapped: _ModelAttributeValue {
    /// The optional value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self {
        Wrapped._readOptional(object, slot)
    }
    /// Stores the optional value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) {
        Wrapped._writeOptional(self, to: object, slot)
    }
    /// A doubly optional value: ObjectGraph stores one level of `nil`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self? {
        .some(_read(object, slot))
    }
    /// Stores a doubly optional value, `nil` at either level as `nil`.
    public static func _writeOptional(_ value: Self?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        Wrapped._writeOptional(value ?? nil, to: object, slot)
    }
}

extension Int: _ModelAttributeValue {
    /// The value in `slot` of `object`, stored as integer 64.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int {
        let stored: Int64 = object._managedValue(slot)
        return Int(truncatingIfNeeded: stored)
    }
    /// Stores the value as integer 64.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(Int64(self), slot)
    }
    /// The optional value in `slot` of `object`, stored as integer 64.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int? {
        let stored: Int64? = object._managedValue(slot)
        return stored.map { Int(truncatingIfNeeded: $0) }
    }
    /// Stores an optional value as integer 64.
    public static func _writeOptional(_ value: Int?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value.map { Int64($0) }, slot)
    }
}

extension Int64: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int64 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int64? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Int64?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Int32: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int32 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int32? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Int32?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Int16: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int16 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int16? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Int16?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Double: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Double { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Double? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Double?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Float: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Float { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Float? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Float?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension String: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> String { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> String? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: String?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Bool: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Bool { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Bool? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Bool?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

extension Date: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Date { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Date? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    public static func _writeOptional(_ value: Date?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
}

/// A value set on a model not yet inserted, stored when the model is inserted.
struct PendingValue {
    /// The property's name.
    let key: String
    let storage: Storage

    enum Storage {
        /// A value of an attribute's own Swift type, stored typed through the property's slot.
        case typed(any _ModelAttributeValue, _PropertySlot)
        /// Any other value, stored through ``ModelValue/store(_:forKey:in:context:)``.
        case general(Any)
    }

    init(key: String, typed value: some _ModelAttributeValue, slot: _PropertySlot) {
        self.key = key
        storage = .typed(value, slot)
    }

    init(key: String, general value: Any) {
        self.key = key
        storage = .general(value)
    }

    /// The value.
    var value: Any {
        switch storage {
        case .typed(let value, _): value
        case .general(let value): value
        }
    }
}
