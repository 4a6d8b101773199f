import Foundation

// A batch request's input as every store takes it: a caller's dictionaries or the objects a
// handler sets up, turned into values by slot and checked before anything is written — so a
// bad key or value is refused alike by the SQLite and the PostgreSQL store.
extension EntityDescription {
    /// Throws unless objects of this entity can be batch inserted (it is not abstract).
    func checkBatchInsertable() throws {
        if isAbstract {
            throw ObjectGraphError(.invalidRequest, "cannot batch insert into \(name): the entity is abstract")
        }
    }

    /// One object's values by slot (defaults where not given) and the slots it gave.
    func batchRow(_ object: [String: Any], index: Int) throws -> (values: ContiguousArray<Value>, given: [Int]) {
        var values = defaultValues
        var given: [Int] = []
        let place = "object \(index) of the batch insert into \(name)"
        for (key, input) in object {
            let attribute = try batchAttribute(key, where: place)
            values[attribute.slot] = try attribute.batchValue(input, where: place)
            given.append(attribute.slot)
        }
        try checkBatchRequired(values, index: index)
        return (values, given)
    }

    /// The objects `handler` sets up (each a new object of no context), one per call, until it
    /// returns `true`: their values by slot, and the stored attribute slots (all given).
    func batchRows(objectsFrom handler: (ManagedObject) -> Bool) throws -> [(values: ContiguousArray<Value>, given: [Int])] {
        let slots = attributeSlots.filter { !allProperties[$0].isTransient }
        var rows: [(values: ContiguousArray<Value>, given: [Int])] = []
        while true {
            let object = managedObjectClass.init(entity: self, insertInto: nil)
            object.storage.becomeInserted(as: self)
            if handler(object) { break }
            let place = "object \(rows.count) of the batch insert into \(name)"
            if let failure = object.storage.pendingFailures.first {
                throw ObjectGraphError(.typeMismatch, "\(place): \(failure.key ?? "?"): \(failure.message); nothing was written")
            }
            for slot in relationshipSlots {
                let isSet: Bool
                if case .objectID = object.storage.values[slot] {
                    isSet = true
                } else {
                    isSet = object.storage.toMany[slot].map { !$0.added.isEmpty } ?? false
                }
                if isSet {
                    throw ObjectGraphError(
                        .invalidRequest,
                        "\(place): '\(allProperties[slot].name)' is a relationship of \(name), and batch requests set attributes only (as in Core Data); set relationships in a context. Nothing was written"
                    )
                }
            }
            try checkBatchRequired(object.storage.values, index: rows.count)
            rows.append((object.storage.values, slots))
        }
        return rows
    }

    /// Throws when a required attribute of object `index` has no value.
    func checkBatchRequired(_ values: ContiguousArray<Value>, index: Int) throws {
        for slot in attributeSlots {
            guard let attribute = allProperties[slot] as? AttributeDescription, !attribute.isTransient else { continue }
            if !attribute.isOptional, values[slot].isNull {
                throw ObjectGraphError(
                    .validationMultipleErrors,
                    "object \(index) of the batch insert into \(name) has no value for required attribute '\(attribute.name)'; nothing was inserted"
                )
            }
        }
    }

    /// The stored attribute `key` names; relationships, transient and unknown keys throw.
    func batchAttribute(_ key: String, where place: String) throws -> AttributeDescription {
        guard let slot = slotByName[key] else {
            throw ObjectGraphError(.unknownKey, "\(place): \(name) has no property '\(key)'; nothing was written")
        }
        switch allProperties[slot] {
        case let attribute as AttributeDescription where !attribute.isTransient:
            return attribute
        case is RelationshipDescription:
            throw ObjectGraphError(
                .invalidRequest,
                "\(place): '\(key)' is a relationship of \(name), and batch requests set attributes only (as in Core Data); set relationships in a context. Nothing was written"
            )
        default:
            throw ObjectGraphError(.invalidRequest, "\(place): \(name).\(key) is transient, not stored; nothing was written")
        }
    }
}

extension AttributeDescription {
    /// A caller's value converted as `setValue(_:forKey:)` converts it (Foundation's bridged
    /// `NSNumber` and `NSString` too, as a dictionary handler's values come).
    func batchValue(_ input: Any?, where place: String) throws -> Value {
        let entityName = entity?.name ?? "?"
        if let stored = storedValue(from: input) ?? bridgedValue(input) {
            if stored.isNull && !isOptional {
                throw ObjectGraphError(
                    .validationMultipleErrors,
                    "\(place): \(entityName).\(name) is required and cannot be set to nil; nothing was written"
                )
            }
            return stored
        }
        let got = flattenOptional(input).map { "\(type(of: $0))" } ?? "nil"
        throw ObjectGraphError(
            .typeMismatch,
            "\(place): \(entityName).\(name) expects \(expectedValueDescription), not \(got); nothing was written"
        )
    }

    /// Converts an `NSNumber` or `NSString` the plain conversion did not take.
    private func bridgedValue(_ input: Any?) -> Value? {
        guard let input = flattenOptional(input) else { return nil }
        if let string = input as? NSString { return storedValue(from: String(describing: string)) }
        guard let number = input as? NSNumber else { return nil }
        switch attributeType {
        case .boolean, .integer16, .integer32, .integer64, .decimal:
            let int = number.int64Value
            return NSNumber(value: int) == number ? storedValue(from: int) : storedValue(from: number.doubleValue)
        case .double, .float:
            return storedValue(from: number.doubleValue)
        default:
            return nil
        }
    }
}
