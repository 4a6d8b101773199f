public import Foundation

// Fast paths for the accessors `@Managed` generates: when the property's Swift type is the
// attribute's own (`Int64` for `.integer64`, `String?` for `.string`, …), values move between
// the caller and the slot without `Any` boxing or dynamic casts. Every other case takes the
// general path (`value(forKey:)` / `setValue(_:forKey:)`) with identical results.

extension ManagedObject {
    /// Whether the attribute in `slot` can be read as `Result` by ``TypedValue/read(_:as:)``:
    /// `Result` is the attribute's own Swift type (or its optional) and the slot holds a value.
    ///
    /// (A check and a separate read, not one `Result?`: an optional of a generic type costs a
    /// metadata lookup per call.)
    @inline(__always)
    func canReadTypedAttribute<Result>(at slot: Int, as _: Result.Type) -> Bool {
        guard let type = entity.attributeType(atSlot: slot) else { return false }
        return TypedValue.canRead(storage.values[slot], type: type, as: Result.self)
    }

    /// Stores `value` in the attribute `property` when its Swift type is the attribute's own;
    /// returns `false` (having changed nothing) when the general path must handle it.
    @inline(__always)
    func setTypedAttributeValue<Input>(_ value: Input, _ property: ManagedPropertySlot) -> Bool {
        guard let slot = property.slot(in: entity), let type = entity.attributeType(atSlot: slot),
            !storage.flags.contains(.gone), let stored = TypedValue.stored(value, type: type)
        else { return false }
        assertOnContextQueue()
        fulfillIfNeeded()
        // A fault the store could not read: the general path reports it.
        if storage.flags.contains(.fault) { return false }
        setStored(stored, at: slot)
        return true
    }
}

/// Conversions between `Value` and the Swift types of attributes, chosen by metatype
/// comparison (no protocol-conformance lookups).
enum TypedValue {
    /// Whether ``read(_:as:)`` gives `stored` as `Result` exactly as
    /// `AttributeDescription.publicValue(from:)` followed by `as? Result` would.
    ///
    /// Types are compared with concrete metatypes (`Int64?.self`): their metadata is cached, where
    /// a generic `T?.self` would be looked up on every call.
    @inline(__always)
    static func canRead<Result>(_ stored: Value, type: AttributeType, as _: Result.Type) -> Bool {
        switch (type, stored) {
        case (.integer64, .int): return Result.self == Int64.self || Result.self == Int64?.self
        case (.integer32, .int): return Result.self == Int32.self || Result.self == Int32?.self
        case (.integer16, .int): return Result.self == Int16.self || Result.self == Int16?.self
        case (.double, .double): return Result.self == Double.self || Result.self == Double?.self
        case (.float, .double): return Result.self == Float.self || Result.self == Float?.self
        case (.string, .string): return Result.self == String.self || Result.self == String?.self
        case (.boolean, .bool): return Result.self == Bool.self || Result.self == Bool?.self
        case (.date, .date): return Result.self == Date.self || Result.self == Date?.self
        default: return false
        }
    }

    /// `stored` as `Result`; only after ``canRead(_:type:as:)`` said yes.
    @inline(__always)
    static func read<Result>(_ stored: Value, as _: Result.Type) -> Result {
        switch stored {
        case .int(let int):
            if Result.self == Int64.self { return unsafeBitCast(int, to: Result.self) }
            if Result.self == Int64?.self { return unsafeBitCast(Optional(int), to: Result.self) }
            if Result.self == Int32.self { return unsafeBitCast(Int32(truncatingIfNeeded: int), to: Result.self) }
            if Result.self == Int32?.self { return unsafeBitCast(Optional(Int32(truncatingIfNeeded: int)), to: Result.self) }
            if Result.self == Int16.self { return unsafeBitCast(Int16(truncatingIfNeeded: int), to: Result.self) }
            if Result.self == Int16?.self { return unsafeBitCast(Optional(Int16(truncatingIfNeeded: int)), to: Result.self) }
        case .double(let double):
            if Result.self == Double.self { return unsafeBitCast(double, to: Result.self) }
            if Result.self == Double?.self { return unsafeBitCast(Optional(double), to: Result.self) }
            if Result.self == Float.self { return unsafeBitCast(Float(double), to: Result.self) }
            if Result.self == Float?.self { return unsafeBitCast(Optional(Float(double)), to: Result.self) }
        case .string(let string):
            if Result.self == String.self { return unsafeBitCast(string, to: Result.self) }
            if Result.self == String?.self { return unsafeBitCast(Optional(string), to: Result.self) }
        case .bool(let bool):
            if Result.self == Bool.self { return unsafeBitCast(bool, to: Result.self) }
            if Result.self == Bool?.self { return unsafeBitCast(Optional(bool), to: Result.self) }
        case .date(let date):
            if Result.self == Date.self { return unsafeBitCast(date, to: Result.self) }
            if Result.self == Date?.self { return unsafeBitCast(Optional(date), to: Result.self) }
        default:
            break
        }
        preconditionFailure("ObjectGraph: TypedValue.read called without canRead")
    }

    /// `value` in the stored form of an attribute of `type`, exactly as
    /// `AttributeDescription.storedValue(from:)` would give it; `nil` for a case this fast path
    /// does not cover (the general path then decides, and reports mismatches).
    @inline(__always)
    static func stored<Input>(_ value: Input, type: AttributeType) -> Value? {
        switch type {
        case .integer64:
            if Input.self == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
            if Input.self == Int64?.self { return unsafeBitCast(value, to: Int64?.self).map { .int($0) } ?? .null }
            if Input.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
            if Input.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map { .int(Int64($0)) } ?? .null }
        case .integer32:
            if Input.self == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
            if Input.self == Int32?.self { return unsafeBitCast(value, to: Int32?.self).map { .int(Int64($0)) } ?? .null }
        case .integer16:
            if Input.self == Int16.self { return .int(Int64(unsafeBitCast(value, to: Int16.self))) }
            if Input.self == Int16?.self { return unsafeBitCast(value, to: Int16?.self).map { .int(Int64($0)) } ?? .null }
        case .double:
            if Input.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
            if Input.self == Double?.self { return unsafeBitCast(value, to: Double?.self).map { .double($0) } ?? .null }
        case .string:
            if Input.self == String.self { return .string(unsafeBitCast(value, to: String.self).precomposed) }
            if Input.self == String?.self {
                return unsafeBitCast(value, to: String?.self).map { .string($0.precomposed) } ?? .null
            }
        case .boolean:
            if Input.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
            if Input.self == Bool?.self { return unsafeBitCast(value, to: Bool?.self).map { .bool($0) } ?? .null }
        case .date:
            if Input.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
            if Input.self == Date?.self { return unsafeBitCast(value, to: Date?.self).map { .date($0) } ?? .null }
        default:
            break
        }
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

// MARK: Non-generic accessors for `@Managed` properties of attribute types

// `@Managed` expands to `_managedValue(_:)` / `_setManagedValue(_:_:)`; for a
// property whose Swift type is an attribute's own, Swift picks one of these non-generic
// overloads over the generic one. Called from another module, the generic accessors run
// unspecialized (metatype comparisons and value-witness copies on every call, ~300
// instructions); these run the same code specialized for their type.
extension ManagedObject {
    @inline(__always)
    func typedManagedValue<Result>(_ property: ManagedPropertySlot, as _: Result.Type) -> Result {
        assertOnContextQueue()
        // The fast path, inline in the getter: a loaded object (no fault to fire, no probe, not
        // gone), the property's slot cached for its frozen entity, and the slot holding a value
        // of the attribute's own Swift type. No call, and the values are indexed once.
        if storage.flags.isDisjoint(with: .readsNeedCare), let slot = property.cachedSlot(in: entity), slot < storage.values.count {
            let stored = storage.values[slot]
            if let type = entity.frozenAttributeTypes[slot], TypedValue.canRead(stored, type: type, as: Result.self) {
                return TypedValue.read(stored, as: Result.self)
            }
        }
        return typedManagedValueSlowly(property, as: Result.self)
    }

    /// ``typedManagedValue(_:as:)`` for a fault, a probe, an object not loaded or gone, or a
    /// value of another Swift type: out of line, so the fast path stays small.
    @inline(never)
    func typedManagedValueSlowly<Result>(_ property: ManagedPropertySlot, as _: Result.Type) -> Result {
        if !storage.flags.contains(.probe), let slot = prepareForRead(property), canReadTypedAttribute(at: slot, as: Result.self) {
            return TypedValue.read(storage.values[slot], as: Result.self)
        }
        return generalManagedValue(forKey: property.key)
    }

    @inline(__always)
    func setTypedManagedValue<Input>(_ value: Input, _ property: ManagedPropertySlot) {
        if setTypedAttributeValue(value, property) { return }
        setValue(value, forKey: property.key)
    }

    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int64 { typedManagedValue(property, as: Int64.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int64, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int64? { typedManagedValue(property, as: Int64?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int64?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int32 { typedManagedValue(property, as: Int32.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int32, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int32? { typedManagedValue(property, as: Int32?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int32?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int16 { typedManagedValue(property, as: Int16.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int16, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Int16? { typedManagedValue(property, as: Int16?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Int16?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Double { typedManagedValue(property, as: Double.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Double, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Double? { typedManagedValue(property, as: Double?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Double?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Float { typedManagedValue(property, as: Float.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Float, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Float? { typedManagedValue(property, as: Float?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Float?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> String { typedManagedValue(property, as: String.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: String, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> String? { typedManagedValue(property, as: String?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: String?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Bool { typedManagedValue(property, as: Bool.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Bool, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Bool? { typedManagedValue(property, as: Bool?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Bool?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Date { typedManagedValue(property, as: Date.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Date, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue(_ property: ManagedPropertySlot) -> Date? { typedManagedValue(property, as: Date?.self) }
    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue(_ value: Date?, _ property: ManagedPropertySlot) { setTypedManagedValue(value, property) }
}
