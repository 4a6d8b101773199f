import Foundation
import ObjectGraph

/// One model's change in a ``HistoryTransaction``, as SwiftData's `HistoryChange`.
///
/// ```swift
/// for change in transaction.changes {
///     switch change {
///     case .insert(let insert as DefaultHistoryInsert<Book>): print("new", insert.changedPersistentIdentifier)
///     case .update(let update as DefaultHistoryUpdate<Book>): print("changed", update.updatedAttributes)
///     case .delete(let delete as DefaultHistoryDelete<Book>): print("deleted", delete.tombstone[\.isbn] ?? "?")
///     default: break
///     }
/// }
/// ```
public enum HistoryChange: Sendable {
    /// A model was inserted.
    case insert(any HistoryInsert)
    /// A model's attributes or relationships changed.
    case update(any HistoryUpdate)
    /// A model was deleted.
    case delete(any HistoryDelete)

    /// The identifier of the changed model.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}

/// An insertion recorded in history, as SwiftData's `HistoryInsert`.
public protocol HistoryInsert<Model>: Sendable {
    /// The inserted model's class.
    associatedtype Model: PersistentModel
    /// The change identifier's type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier's type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's number in its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the inserted model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The number of the change's transaction.
    var transactionIdentifier: TransactionIdentifier { get }
}

/// An update recorded in history, as SwiftData's `HistoryUpdate`.
public protocol HistoryUpdate<Model>: Sendable {
    /// The updated model's class.
    associatedtype Model: PersistentModel
    /// The change identifier's type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier's type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's number in its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the updated model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The number of the change's transaction.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The properties the save changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}

/// A deletion recorded in history, as SwiftData's `HistoryDelete`.
public protocol HistoryDelete<Model>: Sendable {
    /// The deleted model's class.
    associatedtype Model: PersistentModel
    /// The change identifier's type.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The transaction identifier's type.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// The change's number in its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the deleted model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The number of the change's transaction.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The values of the model's `.preserveValueOnDeletion` attributes at its deletion.
    var tombstone: HistoryTombstone<Model> { get }
}

/// An insertion in the history of ObjectGraph's stores.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert {
    /// The change's number in its store.
    public let changeIdentifier: Int64
    /// The identifier of the inserted model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The number of the change's transaction.
    public let transactionIdentifier: Int64
}

/// An update in the history of ObjectGraph's stores.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate {
    /// The change's number in its store.
    public let changeIdentifier: Int64
    /// The identifier of the updated model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The number of the change's transaction.
    public let transactionIdentifier: Int64
    /// The properties the save changed, in the order the model declares them.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]
}

/// A deletion in the history of ObjectGraph's stores.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete {
    /// The change's number in its store.
    public let changeIdentifier: Int64
    /// The identifier of the deleted model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The number of the change's transaction.
    public let transactionIdentifier: Int64
    /// The values of the model's `.preserveValueOnDeletion` attributes at its deletion.
    public let tombstone: HistoryTombstone<Model>
}

/// The values a deleted model left in history, as SwiftData's `HistoryTombstone`: those of
/// its attributes marked `@Attribute(.preserveValueOnDeletion)`.
///
/// ```swift
/// let isbn = delete.tombstone[\.isbn] as? String
/// ```
public struct HistoryTombstone<Model: PersistentModel>: Sendable, Sequence {
    /// The preserved values, in the order the model declares its properties.
    let entries: [(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)]

    /// The value preserved for `keyPath`, or `nil` when it was not preserved (or was `nil`).
    public subscript(_ keyPath: PartialKeyPath<Model>) -> (any Sendable)? {
        entries.first { $0.keyPath == keyPath }?.value
    }

    /// Each preserved key path with its value.
    public func makeIterator() -> IndexingIterator<[(keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)]> {
        entries.makeIterator()
    }
}

/// Builds SwiftData's history values from ObjectGraph's, for a schema's model classes.
enum HistoryConversion {
    /// `change` as a ``HistoryChange`` of its model class; `nil` for an entity the schema lacks.
    static func change(_ change: PersistentHistoryChange, transaction: Int64, schema: Schema) -> HistoryChange? {
        guard let type = schema.typesByEntityName[change.changedObjectID.entityName] else { return nil }
        return make(type, change, transaction)
    }

    private static func make<Model: PersistentModel>(_ type: Model.Type, _ change: PersistentHistoryChange, _ transaction: Int64) -> HistoryChange {
        let id = PersistentIdentifier(change.changedObjectID)
        switch change.changeType {
        case .insert:
            return .insert(DefaultHistoryInsert<Model>(changeIdentifier: change.changeID, changedPersistentIdentifier: id, transactionIdentifier: transaction))
        case .update:
            let names = Set((change.updatedProperties ?? []).map(\.name))
            return .update(
                DefaultHistoryUpdate<Model>(
                    changeIdentifier: change.changeID,
                    changedPersistentIdentifier: id,
                    transactionIdentifier: transaction,
                    // A composite's leaves (`address_city`) are changes of the property.
                    updatedAttributes: Model.schemaMetadata.filter { property in
                        names.contains(property.name) || names.contains { $0.hasPrefix(property.name + "_") }
                    }.compactMap { keyPath($0.keypath, of: Model.self) }
                )
            )
        case .delete:
            let values = change.tombstone ?? [:]
            let entries = Model.schemaMetadata.compactMap { property -> (keyPath: any PartialKeyPath<Model> & Sendable, value: any Sendable)? in
                guard let raw = values[property.name], let value = sendable(raw, as: property.valueType),
                    let keyPath = keyPath(property.keypath, of: Model.self)
                else {
                    return nil
                }
                return (keyPath, value)
            }
            return .delete(
                DefaultHistoryDelete<Model>(
                    changeIdentifier: change.changeID,
                    changedPersistentIdentifier: id,
                    transactionIdentifier: transaction,
                    tombstone: HistoryTombstone(entries: entries)
                )
            )
        }
    }

    /// `keyPath` as SwiftData types updated attributes.
    private static func keyPath<Model>(_ keyPath: AnyKeyPath, of type: Model.Type) -> (any PartialKeyPath<Model> & Sendable)? {
        guard let partial = keyPath as? PartialKeyPath<Model> else { return nil }
        // A key path is an immutable object, so it is safe to share; `Sendable` is a marker
        // protocol with no runtime representation, which a cast (`as?`) cannot add.
        return unsafeBitCast(partial, to: (any PartialKeyPath<Model> & Sendable).self)
    }

    /// A stored attribute value as `Sendable`, in the property's Swift type where the store
    /// keeps another (integers of another width, `Float` as `Double`).
    private static func sendable(_ value: Any, as declared: Any.Type) -> (any Sendable)? {
        let type = (declared as? any _ModelOptional.Type)?._wrappedType ?? declared
        if let integer = value as? any BinaryInteger, let converted = convert(integer, to: type) { return converted }
        if type == Float.self, let double = value as? Double { return Float(double) }
        return switch value {
        case let value as String: value
        case let value as Int: value
        case let value as Int64: value
        case let value as Int32: value
        case let value as Int16: value
        case let value as Double: value
        case let value as Float: value
        case let value as Bool: value
        case let value as Decimal: value
        case let value as Date: value
        case let value as Data: value
        case let value as UUID: value
        case let value as URL: value
        default: nil
        }
    }

    /// `integer` as the integer type `type`, if it is one and the value fits.
    private static func convert(_ integer: some BinaryInteger, to type: Any.Type) -> (any Sendable)? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): Int(exactly: integer)
        case ObjectIdentifier(Int64.self): Int64(exactly: integer)
        case ObjectIdentifier(Int32.self): Int32(exactly: integer)
        case ObjectIdentifier(Int16.self): Int16(exactly: integer)
        case ObjectIdentifier(Int8.self): Int8(exactly: integer)
        case ObjectIdentifier(UInt.self): UInt(exactly: integer)
        case ObjectIdentifier(UInt64.self): UInt64(exactly: integer)
        case ObjectIdentifier(UInt32.self): UInt32(exactly: integer)
        case ObjectIdentifier(UInt16.self): UInt16(exactly: integer)
        case ObjectIdentifier(UInt8.self): UInt8(exactly: integer)
        default: nil
        }
    }
}
