extension ManagedObject {
    /// Reads a to-many relationship as a set of its destination's class; `@Managed` expands to
    /// calls of this for `Set<Member>` properties of a managed object class. Not for direct use.
    ///
    /// Builds the `Set<Member>` directly, specialized in the caller's module: through `Any`,
    /// every read cast each member into a new set (about 5,000 instructions for five members).
    /// Key-path probes, ordered or to-one relationships, objects without a context and members
    /// of another class take the general path, as before.
    @inlinable
    public func _managedSet<Member: ManagedObject>(_ property: ManagedPropertySlot, of _: Member.Type) -> Set<Member> {
        guard let objects = _toManyObjects(property) else { return _generalManagedValue(property) }
        var members = Set<Member>(minimumCapacity: objects.count)
        for object in objects {
            guard let member = object as? Member else { return _generalManagedValue(property) }
            members.insert(member)
        }
        return members
    }

    /// Reads a `Set` property of other elements (a transformable attribute, say) as any typed
    /// property is read; `@Managed` expands to calls of this. Not for direct use.
    public func _managedSet<Element: Hashable>(_ property: ManagedPropertySlot, of _: Element.Type) -> Set<Element> {
        _managedValue(property)
    }

    /// The members of the unordered to-many relationship `property`, held as the related
    /// objects its getter last returned; `nil` where the general path must answer.
    @usableFromInline
    func _toManyObjects(_ property: ManagedPropertySlot) -> [ManagedObject]? {
        guard !storage.flags.contains(.probe), let slot = prepareForRead(property),
            let relationship = entity.allProperties[slot] as? RelationshipDescription,
            relationship.isToMany, !relationship.isOrdered,
            let context = managedObjectContext
        else { return nil }
        let objects = toManyMembers(at: slot).map { context.object(with: $0) }
        storage.holdRelated(objects, at: slot)
        return objects
    }

    /// `property` read through the general, dynamically typed path.
    @usableFromInline
    func _generalManagedValue<Result>(_ property: ManagedPropertySlot) -> Result {
        generalManagedValue(forKey: property.key)
    }
}
