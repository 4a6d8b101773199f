/// A relationship's identity in a model: its entity's code and its slot, as a context hands it
/// to the store.
package struct RelationshipKey: Sendable, Hashable {
    /// The code of the entity that declares the relationship.
    let entity: Int
    /// The relationship's slot in its entity's properties.
    let slot: Int

    init(_ relationship: RelationshipDescription) {
        entity = relationship.entity?.entityCode ?? 0
        slot = relationship.slot
    }
}
