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
    /// The value as a new model keeps it until it is inserted.
    var _pending: _PendingAttributeValue { get }
    /// `nil` of this type, as a new model keeps it (for `Optional`'s conformance).
    static var _pendingNil: _PendingAttributeValue { get }
    /// The value a new model keeps, `nil` when `pending` is not a value of this type.
    static func _fromPending(_ pending: _PendingAttributeValue) -> Self?
}

extension Optional: _ModelAttributeValue where Wrapped: _ModelAttributeValue {
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self {
        Wrapped._readOptional(object, slot)
    }
    /// Stores the optional value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) {
        Wrapped._writeOptional(self, to: object, slot)
    }
    /// A doubly optional value: ObjectGraph stores one level of `nil`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Self? {
        .some(_read(object, slot))
    }
    /// Stores a doubly optional value, `nil` at either level as `nil`.
    @inlinable
    public static func _writeOptional(_ value: Self?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        Wrapped._writeOptional(value ?? nil, to: object, slot)
    }
    /// The value as a new model keeps it: `nil` as `nil` of the wrapped type.
    @inlinable
    public var _pending: _PendingAttributeValue { map(\._pending) ?? Wrapped._pendingNil }
    /// `nil` of the wrapped type (ObjectGraph stores one level of `nil`).
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { Wrapped._pendingNil }
    /// `nil` for a kept `nil`, the wrapped value for a kept value of its type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Self? {
        if pending.isNil { return .some(nil) }
        return Wrapped._fromPending(pending).map { .some($0) }
    }
}

extension Int: _ModelAttributeValue {
    /// The value in `slot` of `object`, stored as integer 64.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int {
        let stored: Int64 = object._managedValue(slot)
        return Int(truncatingIfNeeded: stored)
    }
    /// Stores the value as integer 64.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(Int64(self), slot)
    }
    /// The optional value in `slot` of `object`, stored as integer 64.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int? {
        let stored: Int64? = object._managedValue(slot)
        return stored.map { Int(truncatingIfNeeded: $0) }
    }
    /// Stores an optional value as integer 64.
    @inlinable
    public static func _writeOptional(_ value: Int?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value.map { Int64($0) }, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .int(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .int(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Int? {
        if case .int(let value?) = pending { return value }
        return nil
    }
}

extension Int64: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int64 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int64? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Int64?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .int64(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .int64(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Int64? {
        if case .int64(let value?) = pending { return value }
        return nil
    }
}

extension Int32: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int32 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int32? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Int32?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .int32(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .int32(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Int32? {
        if case .int32(let value?) = pending { return value }
        return nil
    }
}

extension Int16: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int16 { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Int16? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Int16?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .int16(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .int16(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Int16? {
        if case .int16(let value?) = pending { return value }
        return nil
    }
}

extension Double: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Double { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Double? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Double?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .double(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .double(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Double? {
        if case .double(let value?) = pending { return value }
        return nil
    }
}

extension Float: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Float { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Float? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Float?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .float(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .float(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Float? {
        if case .float(let value?) = pending { return value }
        return nil
    }
}

extension String: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> String { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> String? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: String?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .string(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .string(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> String? {
        if case .string(let value?) = pending { return value }
        return nil
    }
}

extension Bool: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Bool { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Bool? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Bool?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .bool(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .bool(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Bool? {
        if case .bool(let value?) = pending { return value }
        return nil
    }
}

extension Date: _ModelAttributeValue {
    /// The value in `slot` of `object`.
    @inlinable
    public static func _read(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Date { object._managedValue(slot) }
    /// Stores the value in `slot` of `object`.
    @inlinable
    public func _write(to object: ManagedObject, _ slot: ManagedPropertySlot) { object._setManagedValue(self, slot) }
    /// The optional value in `slot` of `object`.
    @inlinable
    public static func _readOptional(_ object: ManagedObject, _ slot: ManagedPropertySlot) -> Date? { object._managedValue(slot) }
    /// Stores an optional value in `slot` of `object`.
    @inlinable
    public static func _writeOptional(_ value: Date?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        object._setManagedValue(value, slot)
    }
    /// The value as a new model keeps it.
    @inlinable
    public var _pending: _PendingAttributeValue { .date(self) }
    /// `nil` of this type, as a new model keeps it.
    @inlinable
    public static var _pendingNil: _PendingAttributeValue { .date(nil) }
    /// The kept value, if it is one of this type.
    public static func _fromPending(_ pending: _PendingAttributeValue) -> Date? {
        if case .date(let value?) = pending { return value }
        return nil
    }
}

/// A value of an attribute's own Swift type that a new model keeps until it is inserted: a
/// plain enum, so that keeping, copying and storing it needs no existential or value witness.
/// Not used directly.
public enum _PendingAttributeValue {
    /// An `Int` or an optional one.
    case int(Int?)
    /// An `Int64` or an optional one.
    case int64(Int64?)
    /// An `Int32` or an optional one.
    case int32(Int32?)
    /// An `Int16` or an optional one.
    case int16(Int16?)
    /// An `Double` or an optional one.
    case double(Double?)
    /// An `Float` or an optional one.
    case float(Float?)
    /// An `String` or an optional one.
    case string(String?)
    /// An `Bool` or an optional one.
    case bool(Bool?)
    /// An `Date` or an optional one.
    case date(Date?)

    /// Whether the value is `nil`.
    var isNil: Bool {
        switch self {
        case .int(let value): value == nil
        case .int64(let value): value == nil
        case .int32(let value): value == nil
        case .int16(let value): value == nil
        case .double(let value): value == nil
        case .float(let value): value == nil
        case .string(let value): value == nil
        case .bool(let value): value == nil
        case .date(let value): value == nil
        }
    }

    /// The value, as the property's Swift type would give it (`nil` of that type for `nil`).
    var value: Any {
        switch self {
        case .int(let value): value.map { $0 as Any } ?? value as Any
        case .int64(let value): value.map { $0 as Any } ?? value as Any
        case .int32(let value): value.map { $0 as Any } ?? value as Any
        case .int16(let value): value.map { $0 as Any } ?? value as Any
        case .double(let value): value.map { $0 as Any } ?? value as Any
        case .float(let value): value.map { $0 as Any } ?? value as Any
        case .string(let value): value.map { $0 as Any } ?? value as Any
        case .bool(let value): value.map { $0 as Any } ?? value as Any
        case .date(let value): value.map { $0 as Any } ?? value as Any
        }
    }

    /// Stores the value in `slot` of `object`, typed (a value through the non-optional
    /// accessor, which does less than the optional one).
    func write(to object: ManagedObject, _ slot: ManagedPropertySlot) {
        switch self {
        case .int(let value): Self.write(value, to: object, slot)
        case .int64(let value): Self.write(value, to: object, slot)
        case .int32(let value): Self.write(value, to: object, slot)
        case .int16(let value): Self.write(value, to: object, slot)
        case .double(let value): Self.write(value, to: object, slot)
        case .float(let value): Self.write(value, to: object, slot)
        case .string(let value): Self.write(value, to: object, slot)
        case .bool(let value): Self.write(value, to: object, slot)
        case .date(let value): Self.write(value, to: object, slot)
        }
    }

    @inline(__always)
    private static func write<Value: _ModelAttributeValue>(_ value: Value?, to object: ManagedObject, _ slot: ManagedPropertySlot) {
        if let value { value._write(to: object, slot) } else { Value._writeOptional(nil, to: object, slot) }
    }
}

/// A value set on a model not yet inserted, stored when the model is inserted.
///
/// Plain data (an enum of concrete values, a box for any other value): a new model's
/// initializer sets each property once, and an existential here made every copy of a value
/// a call through its value witnesses.
struct PendingValue {
    /// The property's name.
    let key: String
    /// The property's slot, when set through `@Model`'s accessors. Unowned: a slot is a
    /// static of its model class (see ``_PropertySlot``) and lives as long as the program, and
    /// retaining and releasing it was a tenth of keeping a value.
    unowned(unsafe) let slot: _PropertySlot?
    /// The slot's identity, compared before the name (a plain word: finding a property among
    /// a new model's values then copies no value).
    let slotID: ObjectIdentifier?
    let storage: Storage

    enum Storage {
        /// A value of an attribute's own Swift type, stored typed through the property's slot.
        case typed(_PendingAttributeValue)
        /// Any other value, stored through ``ModelValue/store(_:forKey:in:context:)``.
        case general(GeneralValue)
    }

    /// A value of any other type, boxed so that ``Storage`` stays plain data.
    final class GeneralValue {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    init(key: String, typed value: some _ModelAttributeValue, slot: _PropertySlot) {
        self.init(key: key, pending: value._pending, slot: slot)
    }

    init(key: String, pending value: _PendingAttributeValue, slot: _PropertySlot) {
        self.key = key
        self.slot = slot
        slotID = ObjectIdentifier(slot)
        storage = .typed(value)
    }

    init(key: String, general value: Any, slot: _PropertySlot? = nil) {
        self.key = key
        self.slot = slot
        slotID = slot.map(ObjectIdentifier.init)
        storage = .general(GeneralValue(value))
    }

    /// Whether this value is of the property `key` whose slot is `slotID`.
    @inline(__always)
    func isOf(key other: String, slotID otherSlotID: ObjectIdentifier?) -> Bool {
        if let slotID, let otherSlotID { return slotID == otherSlotID }
        return key == other
    }

    /// The value.
    var value: Any {
        switch storage {
        case .typed(let value): value.value
        case .general(let box): box.value
        }
    }
}
