import Foundation

// A batch delete, written once for every SQL store: the delete rules of an entity as SQL over
// a set of keys (``BatchDeleteRule``), and the walk through them (``BatchDeleteWalk``) — which
// rows go, which `.deny` refuses, which references `.nullify` clears. A store only answers the
// walk's questions on its connection and runs the deletes; how keys are bound is the
// dialect's (``SQLDialect/keyMembership(count:)``: one array, or chunks of placeholders).
extension SQLStoreLayout {
    /// A delete rule a batch delete applies to the rows of one entity.
    package struct BatchDeleteRule: Sendable {
        /// What the rule does with the rows the relationship reaches.
        package enum Kind: Sendable {
            case cascade, deny, nullify
        }
        package let kind: Kind
        /// "Entity" and "relationship", for a refusal.
        package let entityName: String
        package let relationshipName: String
        /// `SELECT "Z_PK", "Z_ENT"` of the rows the relationship of the rows whose keys are
        /// bound points at.
        package let destinations: KeyedSQL
        /// For `nullify`: the UPDATE clearing the reference back (and giving a new version) on
        /// the rows whose keys are bound.
        package let nullify: KeyedSQL?
    }

    /// The delete rules (cascade, deny, nullify) of the entity named `entityName`, in slot order.
    package func batchDeleteRules(ofEntity entityName: String, model: ManagedObjectModel) -> [BatchDeleteRule] {
        guard let entity = model.entity(named: entityName), let source = plan.entity(named: entityName) else { return [] }
        let q = dialect.quoted
        var rules: [BatchDeleteRule] = []
        for slot in entity.relationshipSlots {
            guard let relationship = entity.allProperties[slot] as? RelationshipDescription, !relationship.isTransient,
                let destination = relationship.destinationEntity, let destinationPlan = plan.entity(named: destination.name)
            else { continue }
            let kind: BatchDeleteRule.Kind
            switch relationship.deleteRule {
            case .cascade: kind = .cascade
            case .deny: kind = .deny
            case .nullify: kind = .nullify
            case .noAction: continue
            }
            let destinationTable = q(destinationPlan.mapping.table)
            let destinations: KeyedSQL
            if !relationship.isToMany {
                guard let column = source.mapping.columns[relationship.slot] else { continue }
                destinations = KeyedSQL(
                    head:
                        "SELECT \(q("Z_PK")), \(q("Z_ENT")) FROM \(destinationTable) WHERE \(q("Z_PK")) IN (SELECT \(q(column)) FROM \(q(source.mapping.table)) WHERE \(q("Z_PK")) ",
                    tail: ")"
                )
            } else {
                switch schema.storage(of: relationship) {
                case .foreignKey(let table, let column, _):
                    destinations = KeyedSQL(head: "SELECT \(q("Z_PK")), \(q("Z_ENT")) FROM \(q(table)) WHERE \(q(column)) ", tail: "")
                case .joinTable(let joinTable, let isOwner):
                    let (mine, theirs, _) = joinTable.columns(isOwner: isOwner)
                    destinations = KeyedSQL(
                        head:
                            "SELECT d.\(q("Z_PK")), d.\(q("Z_ENT")) FROM \(destinationTable) d JOIN \(q(joinTable.name)) j ON j.\(q(theirs)) = d.\(q("Z_PK")) WHERE j.\(q(mine)) ",
                        tail: ""
                    )
                case nil:
                    continue
                }
            }
            var nullify: KeyedSQL?
            if kind == .nullify {
                // A to-one inverse is a foreign key in the destination's row (with its entity
                // column, and the order column of an ordered to-many side): cleared. A to-many
                // inverse loses its member when the source row or its join rows go.
                var assignments = ["\(q("Z_OPT")) = \(q("Z_OPT")) + 1"]
                if let inverse = relationship.inverseRelationship, !inverse.isToMany,
                    let column = destinationPlan.mapping.columns[inverse.slot]
                {
                    assignments.append("\(q(column)) = NULL")
                    if let entityColumn = destinationPlan.mapping.entityColumns[inverse.slot] { assignments.append("\(q(entityColumn)) = NULL") }
                    if relationship.isToMany, case .foreignKey(_, _, let orderColumn?) = schema.storage(of: relationship) {
                        assignments.append("\(q(orderColumn)) = NULL")
                    }
                }
                nullify = KeyedSQL(head: "UPDATE \(destinationTable) SET \(assignments.joined(separator: ", ")) WHERE \(q("Z_PK")) ", tail: "")
            }
            rules.append(
                BatchDeleteRule(
                    kind: kind,
                    entityName: entity.name,
                    relationshipName: relationship.name,
                    destinations: destinations,
                    nullify: nullify
                )
            )
        }
        return rules
    }

    /// The walk of a batch delete that starts from `direct` (the rows it matched).
    package func batchDeleteWalk(from direct: [ManagedObjectID], model: ManagedObjectModel) -> BatchDeleteWalk {
        BatchDeleteWalk(direct: direct, layout: self, model: model)
    }
}

/// A batch delete's walk through the delete rules, for every SQL store: the matched rows, then
/// the rows their `.cascade` relationships reach (to any depth), `.deny` relationships checked
/// against the whole set, `.nullify` inverses to clear.
///
/// The walk asks; the store answers on its own connection, in its transaction:
///
/// ```swift
/// var walk = layout.batchDeleteWalk(from: matched, model: model)
/// while let questions = walk.nextQuestions() {
///     walk.answer(try questions.map { try destinations($0.rule.destinations, of: $0.sources) })
/// }
/// try walk.checkDenials()
/// for nullification in walk.nullifications { … walk.noteUpdated(cleared) }
/// ```
///
/// Nothing is written while it walks, so every answer reads the rows as they were before the
/// delete, and the order of questions within one step does not change the outcome.
package struct BatchDeleteWalk {
    /// The rows `rule`'s relationship of `sources` (all of one entity) reaches.
    package struct Question: Sendable {
        package let rule: SQLStoreLayout.BatchDeleteRule
        package let sources: [ManagedObjectID]
    }

    private let layout: SQLStoreLayout
    private let model: ManagedObjectModel
    private var rulesByEntity: [String: [SQLStoreLayout.BatchDeleteRule]] = [:]
    /// The rows deleted, in the order reached: the matched rows, then each step's cascades.
    package private(set) var deleted: [ManagedObjectID] = []
    private var deletedSet = Set<ManagedObjectID>()
    /// The rows reached last, whose rules are asked about next.
    private var frontier: [ManagedObjectID]
    /// The questions asked and not answered yet.
    private var asked: [Question] = []
    private var denied: [(rule: SQLStoreLayout.BatchDeleteRule, destinations: [ManagedObjectID])] = []
    /// The `.nullify` rules met, with the rows whose references back they clear, in order.
    package private(set) var nullifications: [Question] = []
    /// The surviving rows a nullification changed, each once, in order.
    package private(set) var updated: [ManagedObjectID] = []
    private var updatedSet = Set<ManagedObjectID>()

    fileprivate init(direct: [ManagedObjectID], layout: SQLStoreLayout, model: ManagedObjectModel) {
        self.layout = layout
        self.model = model
        var seen = Set<ManagedObjectID>()
        frontier = direct.filter { seen.insert($0).inserted }
        deletedSet = seen
        deleted = frontier
    }

    /// The questions about the rows reached last — per entity by name, per `.cascade` or
    /// `.deny` rule in slot order, the rows its relationship reaches — or `nil` when the walk
    /// is over. Answer them with ``answer(_:)`` before asking again.
    package mutating func nextQuestions() -> [Question]? {
        guard !frontier.isEmpty else { return nil }
        asked = []
        for (entityName, ids) in Dictionary(grouping: frontier, by: \.entityName).sorted(by: { $0.key < $1.key }) {
            let rules = rulesByEntity[entityName] ?? layout.batchDeleteRules(ofEntity: entityName, model: model)
            rulesByEntity[entityName] = rules
            for rule in rules {
                switch rule.kind {
                case .cascade, .deny: asked.append(Question(rule: rule, sources: ids))
                case .nullify: nullifications.append(Question(rule: rule, sources: ids))
                }
            }
        }
        return asked
    }

    /// The rows each question of the last ``nextQuestions()`` reaches, in its order.
    package mutating func answer(_ destinations: [[ManagedObjectID]]) {
        var next: [ManagedObjectID] = []
        for (question, found) in zip(asked, destinations) {
            switch question.rule.kind {
            case .cascade:
                for destination in found where deletedSet.insert(destination).inserted { next.append(destination) }
            case .deny:
                if !found.isEmpty { denied.append((question.rule, found)) }
            case .nullify:
                break
            }
        }
        asked = []
        deleted += next
        frontier = next
    }

    /// Throws when a `.deny` rule reached a row the delete does not take with it.
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/validationRelationshipDeniedDelete``).
    package func checkDenials() throws {
        for denial in denied {
            if let denying = denial.destinations.first(where: { !deletedSet.contains($0) }) {
                let entity = denial.rule.entityName
                throw ObjectGraphError(
                    .validationRelationshipDeniedDelete,
                    "the batch delete is refused: \(entity).\(denial.rule.relationshipName) denies deleting a \(entity) while it has \(denying) (a \(denying.entityName)); nothing was deleted"
                )
            }
        }
    }

    /// Of `ids`, those the delete does not take: the rows a nullification changes.
    package func surviving(_ ids: [ManagedObjectID]) -> [ManagedObjectID] {
        ids.filter { !deletedSet.contains($0) }
    }

    /// Notes the rows a nullification changed (see ``updated``).
    package mutating func noteUpdated(_ ids: [ManagedObjectID]) {
        for id in ids where updatedSet.insert(id).inserted { updated.append(id) }
    }
}
