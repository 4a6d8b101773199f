import Foundation

extension ManagedObject {
    /// The value of the property named `key`, as the Swift type its attribute type names
    /// (see ``AttributeType``); a to-one relationship gives `ManagedObject?`, a to-many one
    /// `Set<ManagedObject>` (ordered: `[ManagedObject]`).
    ///
    /// Returns `nil` for an unknown key, a `nil` value, and an object whose deletion was saved.
    public func value(forKey key: String) -> Any? {
        guard let slot = prepareForRead(key: key) else { return nil }
        return readValue(at: slot)
    }

    /// ``value(forKey:)``'s answer for `slot`, once ``prepareForRead(key:)`` found it readable.
    func readValue(at slot: Int) -> Any? {
        if let type = entity.attributeType(atSlot: slot), type != .transformable {
            return AttributeDescription.publicValue(of: type, from: storage.values[slot])
        }
        return publicValue(at: slot)
    }

    /// Sets the property named `key`, as Core Data's `setValue(_:forKey:)` — no `try`.
    ///
    /// A value of the wrong type, or an unknown key, is never stored and never crashes: the next
    /// `save()` throws an error naming the entity, the key and the expected type. Use
    /// ``setCheckedValue(_:forKey:)`` to find out at once. Any Swift integer or floating-point
    /// value that converts exactly is accepted; `nil` clears the value.
    public func setValue(_ value: Any?, forKey key: String) {
        do {
            try setCheckedValue(value, forKey: key)
        } catch let error as ObjectGraphError {
            storage.pendingFailures += error.failures
            managedObjectContext?.noteChanged(self)
        } catch {
            storage.pendingFailures.append(failure(key: key, "\(error)"))
            managedObjectContext?.noteChanged(self)
        }
    }

    /// Sets the property named `key`, throwing at once for an unknown key or a wrong type.
    ///
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/unknownKey`` or
    ///   ``ObjectGraphError/Code/typeMismatch``, naming entity, key and expected type.
    public func setCheckedValue(_ value: Any?, forKey key: String) throws {
        assertOnContextQueue()
        guard let slot = entity.slot(forKey: key) else {
            let failure = failure(key: key, "the entity has no property '\(key)'")
            throw ObjectGraphError(.unknownKey, "\(entity.name) has no property '\(key)'", failures: [failure])
        }
        if storage.flags.contains(.gone) {
            throw ObjectGraphError(.objectNotFound, "\(entity.name) \(objectID) was deleted; its '\(key)' cannot be set")
        }
        try fulfillForWrite(key: key)
        switch entity.allProperties[slot] {
        case let attribute as AttributeDescription:
            guard let stored = attribute.storedValue(from: value) else {
                let got = flattenOptional(value).map { "\(type(of: $0))" } ?? "nil"
                let failure = failure(key: key, "expected \(attribute.expectedValueDescription), got \(got)")
                throw ObjectGraphError(
                    .typeMismatch,
                    "\(entity.name).\(key) expects \(attribute.expectedValueDescription), not \(got)",
                    failures: [failure]
                )
            }
            fulfillIfNeeded()
            setStored(stored, at: slot)
        case let relationship as RelationshipDescription:
            try setRelationship(relationship, slot: slot, to: flattenOptional(value))
        default:
            break
        }
    }

    /// The value at the end of a key path: through to-one relationships, and with `@count`,
    /// `@sum`, `@avg`, `@min`, `@max` on to-many ones (`"tags.@count"`, `"photos.@sum.views"`),
    /// and key-value coding's unions, which give arrays (`"photos.@distinctUnionOfObjects.title"`).
    ///
    /// A key through a to-many relationship gives the set of the members' values.
    public func value(forKeyPath keyPath: String) -> Any? {
        var current: [Any] = [self]
        var isCollection = false
        var components = keyPath.split(separator: ".").map(String.init)[...]
        while let key = components.popFirst() {
            if key.hasPrefix("@") {
                let rest = components.isEmpty ? nil : components.joined(separator: ".")
                return KeyPathAggregate(rawValue: key).flatMap { $0.apply(to: current, key: rest) }
            }
            var next: [Any] = []
            for element in current {
                guard let object = element as? ManagedObject else { continue }
                switch object.value(forKey: key) {
                case let set as Set<ManagedObject>:
                    next += set.map { $0 as Any }
                    isCollection = true
                case let array as [ManagedObject]:
                    next += array.map { $0 as Any }
                    isCollection = true
                case let value?: next.append(value)
                case nil: if !isCollection { return nil }
                }
            }
            current = next
        }
        if isCollection {
            if let objects = current as? [ManagedObject] { return Set(objects) }
            return current
        }
        return current.first
    }

    // MARK: Typed access (used by @Managed)

    /// Reads a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _managedValue<Result>(_ property: ManagedPropertySlot) -> Result {
        // Fast path: an attribute read as its own Swift type. It declares no `Result?` local,
        // whose metadata would be looked up on every call. (Properties of an attribute's own
        // Swift type call the non-generic overloads in ManagedObject+TypedAccess.swift.)
        typedManagedValue(property, as: Result.self)
    }

    /// `_managedValue(forKey:)` for key-path probes, relationships, `nil` values and Swift types
    /// other than the attribute's own.
    @inline(never)
    func generalManagedValue<Result>(forKey key: String) -> Result {
        if storage.flags.contains(.probe), let recorder = KeyPathRecorder.current, recorder.isRecording(self) {
            recorder.record(key)
            if let type = Result.self as? any OptionalManagedObject.Type,
                let probe = recorder.probe(of: type.wrappedObjectType) as? Result
            {
                return probe
            }
            return zeroValue(of: Result.self, key: key)
        }
        if let slot = prepareForRead(key: key), let value = publicValue(at: slot) as? Result { return value }
        return zeroValue(of: Result.self, key: key)
    }

    /// Writes a typed property; `@Managed` expands to calls of this. Not for direct use.
    public func _setManagedValue<Input>(_ value: Input, _ property: ManagedPropertySlot) {
        setTypedManagedValue(value, property)
    }

    private func zeroValue<Result>(of type: Result.Type, key: String) -> Result {
        let none: Any? = nil
        if let result = none as? Result { return result }
        let zeros: [Any] = [
            "", false, Int64(0), Int32(0), Int16(0), Int(0), Double(0), Float(0), Decimal(0),
            Date(timeIntervalSinceReferenceDate: 0), Data(), Set<ManagedObject>(), [ManagedObject](),
        ]
        for zero in zeros { if let result = zero as? Result { return result } }
        preconditionFailure("ObjectGraph: \(entity.name).\(key) has no value and its Swift type \(Result.self) has no zero; declare it optional")
    }

    // MARK: Internals shared by the accessors

    /// Checks the queue, loads a fault, and finds `key`'s slot; `nil` when there is nothing to read.
    func prepareForRead(key: String) -> Int? {
        assertOnContextQueue()
        if storage.flags.contains(.gone) { return nil }
        guard let slot = entity.slot(forKey: key) else { return nil }
        fulfillIfNeeded()
        return storage.flags.contains(.gone) ? nil : slot
    }

    /// `prepareForRead(key:)` for a `@Managed` property, its slot found through its cache.
    @inline(__always)
    func prepareForRead(_ property: ManagedPropertySlot) -> Int? {
        assertOnContextQueue()
        if storage.flags.contains(.gone) { return nil }
        guard let slot = property.slot(in: entity) else { return nil }
        fulfillIfNeeded()
        return storage.flags.contains(.gone) ? nil : slot
    }

    /// The public form of the value in `slot` (objects for relationships).
    func publicValue(at slot: Int) -> Any? {
        switch entity.allProperties[slot] {
        case let attribute as AttributeDescription:
            return reportingDecodeErrors(attribute, storage.values[slot])
        case let relationship as RelationshipDescription:
            guard let context = managedObjectContext else {
                return relationship.isToMany ? (relationship.isOrdered ? [ManagedObject]() as Any : Set<ManagedObject>() as Any) : nil
            }
            if relationship.isToMany {
                let objects = toManyMembers(at: slot).map { context.object(with: $0) }
                storage.holdRelated(objects, at: slot)
                return relationship.isOrdered ? objects as Any : Set(objects) as Any
            }
            guard case .objectID(let id) = storage.values[slot] else { return nil }
            let object = context.object(with: id)
            storage.holdRelated([object], at: slot)
            return object
        default:
            return nil
        }
    }

    /// Loads the object's values if it is a fault, or gives a new detached object its defaults.
    ///
    /// Inlined where it runs, every property access: the common case, an object with values,
    /// is two loads and a branch (a call cost a tenth of each typed set).
    @inline(__always)
    func fulfillIfNeeded() {
        if storage.flags.contains(.fault) || storage.values.isEmpty { fulfill() }
    }

    /// ``fulfillIfNeeded()``'s rare case, out of line.
    @inline(never)
    private func fulfill() {
        if storage.flags.contains(.fault) {
            managedObjectContext?.fulfillFault(of: self)
        } else if storage.values.isEmpty {
            storage.showPlaceholders(entity.defaultValues)
        }
    }

    /// The public form of `stored` for accessors that cannot throw: a transformable value that
    /// does not decode reads as `nil`, and the context keeps the error for its next save or
    /// fetch and names the object in objects-did-change.
    func reportingDecodeErrors(_ attribute: AttributeDescription, _ stored: Value) -> Any? {
        do {
            return try attribute.decodedValue(from: stored)
        } catch {
            managedObjectContext?.recordStoreError(error, for: self, while: "decode \(entity.name).\(attribute.name)")
            return nil
        }
    }

    /// Loads a fault before a change to `key`; throws when its row could not be read, since a
    /// change made on top of placeholder values would be lost when the row is read at last.
    func fulfillForWrite(key: String) throws {
        fulfillIfNeeded()
        if storage.flags.contains(.fault) && managedObjectContext != nil {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "\(entity.name) \(objectID) could not be read from the store; its '\(key)' was not changed"
            )
        }
    }

    /// Stores an attribute value and records the change against the committed snapshot.
    func setStored(_ value: Value, at slot: Int) {
        storage.values[slot] = value
        if !storage.flags.contains(.inserted), let committed = storage.committed, committed[slot] == value {
            storage.markUnchanged(slot)
        } else {
            storage.markChanged(slot)
        }
        // `noteChanged` does nothing for a tracked deleted object, or a tracked inserted one whose
        // insert is not yet reported: skip loading the (weak) context reference on every set of
        // a new object's values.
        let flags = storage.flags
        if flags.contains(.tracked) && (flags.contains(.deleted) || flags.contains(.inserted) && !flags.contains(.insertAnnounced)) { return }
        managedObjectContext?.noteChanged(self)
    }

    func failure(key: String?, _ message: String) -> ValidationFailure {
        ValidationFailure(objectID: objectID, entityName: entity.name, key: key, message: message)
    }

    /// Traps when the object's context is used off its queue (debug builds).
    @inline(__always)
    func assertOnContextQueue() {
        #if DEBUG
        managedObjectContext?.assertOnQueue()
        #endif
    }
}

extension EntityDescription {
    /// A new object's values: each attribute's default, relationships empty (computed once
    /// the model is frozen, since every insert needs them).
    var defaultValues: ContiguousArray<Value> {
        if isFrozen, let cached = frozenDefaultValues { return cached }
        return ContiguousArray(allProperties.map { ($0 as? AttributeDescription)?.defaultStoredValue ?? .null })
    }

    /// The attribute slots whose default is not nil, which a new object counts as changed
    /// (computed once the model is frozen).
    var defaultChanges: SlotMask {
        if isFrozen { return frozenDefaultChanges }
        let values = defaultValues
        var changes = SlotMask()
        for slot in attributeSlots where !values[slot].isNull { changes.insert(slot) }
        return changes
    }
}
