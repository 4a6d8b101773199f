import Foundation

extension ManagedObjectContext {
    /// Resolves a save's uniqueness-constraint conflicts with ``mergePolicy``: throws for
    /// ``MergePolicy/error``; otherwise each conflicting inserted object is merged into the
    /// object that stays — the stored one, or the first inserted one when the conflict is among
    /// this context's inserts — and deleted, so the save can run again (see ``MergePolicy``).
    ///
    /// - Throws: ``ObjectGraphError/Code/constraintConflict`` with every
    ///   ``ConstraintConflict`` (policy `.error`, a conflicting object that is not an insert,
    ///   or conflicts still coming after ``conflictAttempts`` tries). The context keeps its
    ///   changes.
    func resolveUniquenessConflicts(_ failure: UniquenessConflictFailure, in store: any ObjectStore, attempt: Int) throws {
        let storedIDs = failure.conflicts.compactMap(\.databaseObjectID)
        let rows: [ManagedObjectID: StoredRow]
        do {
            rows = try store.rows(for: storedIDs)
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "the save found uniqueness conflicts but could not read the stored objects; nothing was saved",
                underlying: error
            )
        }
        let conflicts = failure.conflicts.map { describe($0, rows: rows) }
        let type = mergePolicy.type
        let notInserted = failure.conflicts.flatMap(\.conflictingObjectIDs).filter { registry[$0]?.isInserted != true }
        if type == .errorMergePolicyType || attempt > Self.conflictAttempts || !notInserted.isEmpty {
            let why =
                type == .errorMergePolicyType
                ? "the merge policy is .error"
                : !notInserted.isEmpty
                    ? "merge policies resolve conflicts of inserted objects only, and \(notInserted.count) object(s) are updates"
                    : "other saves kept adding conflicting objects (\(Self.conflictAttempts) attempts)"
            let names = conflicts.map { conflict in
                conflict.constraint.map { "\(conflict.entityName).\($0)" }.joined(separator: "+")
            }.joined(separator: ", ")
            throw ObjectGraphError(
                .constraintConflict,
                "the save of context '\(name ?? "unnamed")' breaks \(conflicts.count) uniqueness constraint(s) (\(names)), and \(why); nothing was saved",
                constraintConflicts: conflicts
            )
        }
        for conflict in failure.conflicts {
            var objects = conflict.conflictingObjectIDs.compactMap { registry[$0] }.filter { !$0.isDeleted }
            let survivor: ManagedObject
            if let stored = conflict.databaseObjectID {
                guard rows[stored] != nil else { continue }  // deleted meanwhile: the retry inserts
                survivor = object(with: stored)
            } else {
                guard !objects.isEmpty else { continue }
                survivor = objects.removeFirst()
            }
            for object in objects where object !== survivor {
                try merge(object, into: survivor, with: type)
            }
        }
        try validateAfterMerging()
    }

    /// Validates the changed objects again after conflicting inserts were merged (a survivor's
    /// one-to-one partner may have lost its required counterpart).
    private func validateAfterMerging() throws {
        var failures: [ValidationFailure] = []
        for object in registry.changed.values where !object.isDeleted && object.hasChanges {
            do {
                if object.isInserted { try object.validateForInsert() } else { try object.validateForUpdate() }
            } catch let error as ObjectGraphError {
                failures.append(contentsOf: error.failures.isEmpty ? [object.failure(key: nil, error.message)] : error.failures)
            } catch let failure as ValidationFailure {
                failures.append(failure)
            } catch {
                failures.append(object.failure(key: nil, "\(error)"))
            }
        }
        if !failures.isEmpty {
            throw ObjectGraphError(
                .validationMultipleErrors,
                "The save failed validation after its uniqueness conflicts were merged (\(failures.count) problem\(failures.count == 1 ? "" : "s"))",
                failures: failures
            )
        }
    }

    /// The public description of a conflict, with snapshots.
    private func describe(_ conflict: UniquenessConflictFailure.Conflict, rows: [ManagedObjectID: StoredRow]) -> ConstraintConflict {
        let objects = conflict.conflictingObjectIDs.compactMap { registry[$0] }
        let row = conflict.databaseObjectID.flatMap { rows[$0] }
        var values: [String: any Sendable] = [:]
        if let first = objects.first {
            let snapshot = MergeConflict.snapshot(first.storage.values, of: first.entity)
            for key in conflict.constraint { values[key] = snapshot[key] }
        }
        return ConstraintConflict(
            entityName: conflict.entityName,
            constraint: conflict.constraint,
            constraintValues: values,
            databaseObjectID: conflict.databaseObjectID,
            databaseSnapshot: row.flatMap { row in model?.entity(named: row.id.entityName).map { MergeConflict.snapshot(row.values, of: $0) } },
            conflictingObjectIDs: conflict.conflictingObjectIDs,
            conflictingSnapshots: objects.map { MergeConflict.snapshot($0.storage.values, of: $0.entity) }
        )
    }

    /// Merges the inserted `object` into `survivor` as `type` says, moves every relationship
    /// that points at `object` to `survivor`, and deletes `object` (an unsaved insert, so it
    /// is simply dropped).
    ///
    /// Attributes and to-one relationships: object trump takes the values `object` set;
    /// overwrite takes all of `object`'s values; store trump takes `object`'s values only where
    /// `survivor` has none; rollback keeps `survivor`'s attributes and takes `object`'s to-one
    /// relationships only where `survivor` has none. To-many relationships: overwrite
    /// replaces `survivor`'s members with `object`'s; every other policy adds `object`'s
    /// members to `survivor`'s.
    private func merge(_ object: ManagedObject, into survivor: ManagedObject, with type: MergePolicyType) throws {
        let entity = object.entity
        let target = survivor.entity
        for (slot, property) in entity.allProperties.enumerated() where !property.isTransient {
            guard target.slot(forKey: property.name) != nil else { continue }
            if let relationship = property as? RelationshipDescription, relationship.isToMany {
                let members = object.toManyMembers(at: slot).map { self.object(with: $0) }
                if type == .overwriteMergePolicyType { survivor.setValue(Set(members), forKey: property.name) }
                for member in members {
                    try object.removeObject(member, fromRelationship: property.name)
                    if type != .overwriteMergePolicyType { try survivor.addObject(member, toRelationship: property.name) }
                }
                continue
            }
            let mine = object.value(forKey: property.name)
            let takesMine: Bool
            switch type {
            case .mergeByPropertyObjectTrumpMergePolicyType, .errorMergePolicyType: takesMine = object.storage.isChanged(slot)
            case .overwriteMergePolicyType: takesMine = true
            case .mergeByPropertyStoreTrumpMergePolicyType: takesMine = mine != nil && survivor.value(forKey: property.name) == nil
            case .rollbackMergePolicyType:
                // The insert's values are discarded, but what pointed at it moves to the survivor.
                takesMine = property is RelationshipDescription && mine != nil && survivor.value(forKey: property.name) == nil
            }
            if property is RelationshipDescription {
                // Detach first: a one-to-one inverse must not see two owners.
                object.setValue(nil, forKey: property.name)
                if takesMine { survivor.setValue(mine, forKey: property.name) }
            } else if takesMine {
                survivor.setValue(mine, forKey: property.name)
            }
        }
        // References without an inverse (only changed objects can point at an unsaved insert).
        let replaced = [object.objectID: survivor.objectID]
        for other in registry.changed.values where other !== object { other.storage.replaceReferences(replaced) }
        delete(object)
    }
}
