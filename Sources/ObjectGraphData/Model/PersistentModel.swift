import Foundation
public import Observation

/// A class stored by a ``ModelContainer``: what `@Model` makes of a class, as SwiftData's
/// `PersistentModel`.
///
/// Models are `Observable`, as SwiftData's: reading a property inside
/// `withObservationTracking` registers it, and setting it (through the model) reports the
/// change. Values that change underneath — a merge of another context's or process's save, a
/// rollback — are not reported; observe ``ModelContext/didSave`` for those.
///
/// Models are not `Sendable`: pass ``persistentModelID`` between contexts and actors, and ask
/// the other context for its own instance with ``ModelContext/model(for:)``.
public protocol PersistentModel: AnyObject, Hashable, Identifiable, Observable {
    /// Where the model's values live: a stored property of the model (written by `@Model`).
    var _$backingData: _ModelBacking { get set }
    /// The model's observers (written by `@Model`, as `@Observable` writes its registrar).
    var _$observationRegistrar: _ModelObservationRegistrar { get }
    /// A model over existing backing data, for fetched objects (written by `@Model`).
    init(backingData: _ModelBacking)
    /// The persisted properties, their key paths and options (written by `@Model`).
    static var schemaMetadata: [Schema.PropertyMetadata] { get }
    /// Groups of properties unique together (written by `#Unique`).
    static var _$uniqueConstraints: [[AnyKeyPath]] { get }
    /// Groups of properties indexed together (written by `#Index`).
    static var _$indexes: [[AnyKeyPath]] { get }
}

/// Observation's `ObservationRegistrar`, as `@Model` names it in the classes it expands (whose
/// files need not import Observation).
public typealias _ModelObservationRegistrar = ObservationRegistrar

extension PersistentModel {
    /// No `#Unique` groups.
    public static var _$uniqueConstraints: [[AnyKeyPath]] { [] }
    /// No `#Index` groups.
    public static var _$indexes: [[AnyKeyPath]] { [] }

    /// The model's identity in its store; temporary until the model's first save.
    public var persistentModelID: PersistentIdentifier { _$backingData.persistentIdentifier(of: Self.self) }

    /// The model's identity: its ``persistentModelID``.
    public var id: PersistentIdentifier { persistentModelID }

    /// The context the model was inserted into or fetched from; `nil` before insertion.
    public var modelContext: ModelContext? { _$backingData.context }

    /// Whether the model was deleted from its context (and its deletion not yet undone).
    public var isDeleted: Bool { _$backingData.isDeleted }

    /// Whether the model has unsaved changes (including a pending insertion).
    public var hasChanges: Bool { _$backingData.hasChanges }

    /// Models are equal when they are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The entity name the model is stored under: the class's name, as SwiftData names it.
    static var entityName: String { String(describing: Self.self) }
}
