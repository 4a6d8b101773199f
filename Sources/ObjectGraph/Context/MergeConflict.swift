import Foundation

/// One object a save found changed in the store since its context read it, as Core Data's
/// `NSMergeConflict`; a merge policy resolves it, and the ``MergePolicy/error`` policy throws
/// it in ``ObjectGraphError/conflicts``.
///
/// Snapshots hold attributes (as their Swift values: `String`, `Int64`, `Date`, …; a
/// transformable one as its `Data`) and to-one relationships (as ``ManagedObjectID``s), by
/// property name; a `nil` value is absent. To-many relationships are not in snapshots (as in
/// Core Data). A context has no row cache between it and the store, so the context's own
/// snapshot — the values it last read — is the ``cachedSnapshot``.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The conflicting object (registered in the saving context).
    public let sourceObjectID: ManagedObjectID
    /// Its entity's name.
    public let entityName: String
    /// The object's values in the saving context, unsaved changes included.
    public let objectSnapshot: [String: any Sendable]
    /// The values the saving context last read from the store for it.
    public let cachedSnapshot: [String: any Sendable]
    /// The values in the store now; `nil` when another save deleted the object.
    public let persistedSnapshot: [String: any Sendable]?
    /// The row version (`Z_OPT`) the saving context read.
    public let oldVersionNumber: Int64
    /// The row version in the store now; `0` when the object was deleted there.
    public let newVersionNumber: Int64
    /// Whether the saving context deletes the object.
    public let isDeletedInContext: Bool
    /// The properties the other save changed (cached and persisted values differ), with the
    /// three values of each, by name.
    public let changedKeys: [KeyChange]

    /// One property another save changed.
    public struct KeyChange: Sendable, CustomStringConvertible {
        /// The property's name.
        public let key: String
        /// The value the saving context last read (`nil` for no value).
        public let oldValue: (any Sendable)?
        /// The value in the store now.
        public let newValue: (any Sendable)?
        /// The value in the saving context, its unsaved change included.
        public let objectValue: (any Sendable)?
        /// Whether the saving context changed this property too.
        public let isChangedInContext: Bool

        /// "title: 'a' → 'b' (context: 'c')".
        public var description: String {
            func show(_ value: (any Sendable)?) -> String { value.map { "'\($0)'" } ?? "nil" }
            let mine = isChangedInContext ? ", this context changed it to \(show(objectValue))" : ""
            return "\(key): \(show(oldValue)) → \(show(newValue)) in the store\(mine)"
        }
    }

    /// A readable summary, for errors and logs.
    public var description: String {
        let what = "\(entityName) \(sourceObjectID.uriRepresentation().absoluteString)"
        guard persistedSnapshot != nil else {
            return "\(what) was deleted by another save (this context read version \(oldVersionNumber))"
        }
        let keys = changedKeys.isEmpty ? "only to-many relationships" : changedKeys.map(\.description).joined(separator: "; ")
        let deleted = isDeletedInContext ? " (this context deletes it)" : ""
        return "\(what) changed from version \(oldVersionNumber) to \(newVersionNumber)\(deleted): \(keys)"
    }

    init(object: ManagedObject, row: StoredRow?) {
        let entity = object.entity
        let committed = object.storage.committed ?? object.storage.values
        sourceObjectID = object.objectID
        entityName = entity.name
        oldVersionNumber = object.storage.version
        newVersionNumber = row?.version ?? 0
        isDeletedInContext = object.isDeleted
        objectSnapshot = Self.snapshot(object.storage.values, of: entity)
        cachedSnapshot = Self.snapshot(committed, of: entity)
        persistedSnapshot = row.map { Self.snapshot($0.values, of: entity) }
        var keys: [KeyChange] = []
        if let row {
            for slot in Self.storedSlots(of: entity) where committed[slot] != row.values[slot] {
                let property = entity.allProperties[slot]
                keys.append(
                    KeyChange(
                        key: property.name,
                        oldValue: Self.snapshotValue(property, committed[slot]),
                        newValue: Self.snapshotValue(property, row.values[slot]),
                        objectValue: Self.snapshotValue(property, object.storage.values[slot]),
                        isChangedInContext: object.storage.isChanged(slot)
                    )
                )
            }
        }
        changedKeys = keys
    }

    /// The slots a snapshot holds: stored attributes and to-one relationships.
    static func storedSlots(of entity: EntityDescription) -> [Int] {
        entity.allProperties.indices.filter { slot in
            let property = entity.allProperties[slot]
            if property.isTransient { return false }
            if let relationship = property as? RelationshipDescription { return !relationship.isToMany }
            return true
        }
    }

    static func snapshot(_ values: ContiguousArray<Value>, of entity: EntityDescription) -> [String: any Sendable] {
        var result: [String: any Sendable] = [:]
        guard values.count == entity.allProperties.count else { return result }
        for slot in storedSlots(of: entity) {
            let property = entity.allProperties[slot]
            if let value = snapshotValue(property, values[slot]) { result[property.name] = value }
        }
        return result
    }

    /// A stored value as the Swift value a snapshot shows.
    private static func snapshotValue(_ property: PropertyDescription, _ value: Value) -> (any Sendable)? {
        if property is RelationshipDescription {
            if case .objectID(let id) = value { return id }
            return nil
        }
        guard let attribute = property as? AttributeDescription else { return nil }
        switch (attribute.attributeType, value) {
        case (_, .null): return nil
        case (.boolean, .int(let int)): return int != 0
        case (.integer16, .int(let int)): return Int16(truncatingIfNeeded: int)
        case (.integer32, .int(let int)): return Int32(truncatingIfNeeded: int)
        case (.double, .int(let int)): return Double(int)
        case (.float, .double(let double)): return Float(double)
        case (.float, .int(let int)): return Float(int)
        case (_, .string(let string)): return string
        case (_, .bool(let bool)): return bool
        case (_, .int(let int)): return int
        case (_, .double(let double)): return double
        case (_, .decimal(let decimal)): return decimal
        case (_, .date(let date)): return date
        case (_, .data(let data)): return data
        case (_, .uuid(let uuid)): return uuid
        case (_, .url(let url)): return url
        case (_, .objectID(let id)): return id
        case (_, .array): return nil
        }
    }
}
