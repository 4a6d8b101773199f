/// Makes a class a SwiftData model stored by ObjectGraph: its stored properties become
/// attributes, properties of model types (and arrays of them) relationships.
///
/// ```swift
/// @Model final class Book {
///     @Attribute(.unique) var isbn: String
///     var title: String
///     var author: Author?
///     @Relationship(deleteRule: .cascade, inverse: \Loan.book) var loans: [Loan] = []
///     @Transient var isSelected = false
///
///     init(isbn: String, title: String) {
///         self.isbn = isbn
///         self.title = title
///     }
/// }
/// ```
///
/// Every persisted property needs an explicit type. Initializers are checked as for stored
/// properties: each must set every persisted property that has no default value (an optional
/// one is `nil` unless set), and the values they set go straight into the new model. A model
/// is a plain object until it is inserted into a ``ModelContext``; from then on its
/// properties read and write the context's managed object.
@attached(member, names: named(_$backingData), named(_$observationRegistrar), named(init(backingData:)), named(schemaMetadata))
@attached(memberAttribute)
@attached(extension, conformances: PersistentModel)
public macro Model() = #externalMacro(module: "ObjectGraphDataMacros", type: "ModelMacro")

/// Options for a persisted attribute: `@Attribute(.unique) var isbn: String`.
///
/// - Parameters:
///   - options: ``Schema/Attribute/Option``s such as `.unique` or `.externalStorage`.
///   - originalName: the property's name in the previous schema version, for migration.
///   - hashModifier: a string that changes the property's version hash.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option...,
    originalName: String? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "ObjectGraphDataMacros", type: "SchemaMarkerMacro")

/// Options for a relationship: its delete rule, bounds and inverse.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \Loan.book) var loans: [Loan] = []
/// ```
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "ObjectGraphDataMacros", type: "SchemaMarkerMacro")

/// Leaves a property of a `@Model` class out of the store: it keeps its value in memory only.
/// It needs a default value.
@attached(peer)
public macro Transient() = #externalMacro(module: "ObjectGraphDataMacros", type: "SchemaMarkerMacro")

/// The accessors `@Model` gives each persisted property (not written by hand).
@attached(accessor, names: named(init), named(get), named(set))
@attached(peer, names: prefixed(`_$`), prefixed(`_$slot_`), prefixed(`_$keyPath_`))
public macro _PersistedProperty() = #externalMacro(module: "ObjectGraphDataMacros", type: "PersistedPropertyMacro")

/// Makes an actor own a ``ModelContext`` of its own, as SwiftData's `@ModelActor`:
///
/// ```swift
/// @ModelActor actor Importer {
///     func importBooks(_ titles: [String]) throws {
///         for title in titles { modelContext.insert(Book(isbn: title, title: title)) }
///         try modelContext.save()
///     }
/// }
/// let importer = Importer(modelContainer: container)
/// ```
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "ObjectGraphDataMacros", type: "ModelActorMacro")

/// Makes groups of a model's properties unique together, as SwiftData's `#Unique`; written in
/// the `@Model` class's body:
///
/// ```swift
/// @Model final class Edition {
///     #Unique<Edition>([\.isbn], [\.title, \.year])
///     var isbn: String
///     var title: String
///     var year: Int
///     …
/// }
/// ```
///
/// Inserting a model whose values of a group are already stored updates the stored model.
@freestanding(declaration, names: named(_$uniqueConstraints))
public macro Unique<T>(_ constraints: [PartialKeyPath<T>]...) = #externalMacro(module: "ObjectGraphDataMacros", type: "ConstraintMacro")

/// Indexes groups of a model's properties in the store, as SwiftData's `#Index`:
/// `#Index<Edition>([\.title], [\.year, \.title])` in the `@Model` class's body.
@freestanding(declaration, names: named(_$indexes))
public macro Index<T>(_ indices: [PartialKeyPath<T>]...) = #externalMacro(module: "ObjectGraphDataMacros", type: "ConstraintMacro")
