/// One section of a live list.
public struct LiveSection<Row: RowValue>: Sendable, Hashable, Codable {
    /// The section's name: a letter, a spot's name, or "Spots"/"Photos" in search.
    public var name: String
    /// The letter an index at the table's edge shows for it.
    public var indexTitle: String
    /// The rows, in order.
    public var rows: [Row]

    /// Creates a section.
    public init(name: String, indexTitle: String, rows: [Row]) {
        self.name = name
        self.indexTitle = indexTitle
        self.rows = rows
    }

    /// The section with each row transformed, e.g. rendered.
    public func map<Other: RowValue>(_ transform: (Row) throws -> Other) rethrows -> LiveSection<Other> {
        LiveSection<Other>(name: name, indexTitle: indexTitle, rows: try rows.map(transform))
    }
}

/// A live list's content at one version: what a page renders before it subscribes.
public struct LiveSnapshot<Row: RowValue>: Sendable, Hashable, Codable {
    /// Increases by one with every change set; a change set of version `v` applies to the
    /// snapshot of version `v - 1`.
    public var version: Int
    /// The sections, in order.
    public var sections: [LiveSection<Row>]
    /// Why the list may be behind the database (it could not fetch again and is retrying);
    /// `nil` while it follows every save.
    public var problem: String?

    /// Creates a snapshot.
    public init(version: Int, sections: [LiveSection<Row>], problem: String? = nil) {
        self.version = version
        self.sections = sections
        self.problem = problem
    }

    /// The snapshot with each row transformed, e.g. rendered.
    public func map<Other: RowValue>(_ transform: (Row) throws -> Other) rethrows -> LiveSnapshot<Other> {
        LiveSnapshot<Other>(version: version, sections: try sections.map { try $0.map(transform) }, problem: problem)
    }

    /// Every row, section by section.
    public var rows: [Row] { sections.flatMap(\.rows) }

    /// The section index: each section's index title once, in order.
    public var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return sections.map(\.indexTitle).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

/// Where a row is: its section and its place in the section.
public struct RowPosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The row's index within the section.
    public var row: Int

    /// Creates a position.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Section first, then row.
    public static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `section.row`, e.g. `2.5`.
    public var description: String { "\(section).\(row)" }
}

/// What changed in a live list, in the order a table view (or a page's script) applies it.
///
/// Apply as UITableView's batch updates do: remove ``deletedRows`` and the sources of
/// ``movedRows`` (positions in the old content), remove ``deletedSections`` (old indices); then
/// insert ``insertedSections`` (new indices, ascending), then ``insertedRows`` and the
/// destinations of ``movedRows`` (new positions, ascending); finally replace the rows in
/// ``updatedRows`` by id. ``apply(to:)`` does exactly that. When ``reload`` is set, the list
/// was fetched again and its sections replace everything.
public struct LiveChangeSet<Row: RowValue>: Sendable, Hashable, Codable {
    /// A section that appeared.
    public struct InsertedSection: Sendable, Hashable, Codable {
        /// Its index in the new content.
        public var index: Int
        /// Its name.
        public var name: String
        /// Its index title.
        public var indexTitle: String
    }

    /// A row that appeared or changed, with its values.
    public struct RowChange: Sendable, Hashable, Codable {
        /// For inserts, the position in the new content; for updates, in the old content.
        public var position: RowPosition
        /// For updates, the position in the new content (the row does not move); else `nil`.
        public var newPosition: RowPosition?
        /// The row's values.
        public var row: Row
    }

    /// A row that moved, with its current values.
    public struct RowMove: Sendable, Hashable, Codable {
        /// Where it was, in the old content.
        public var from: RowPosition
        /// Where it is, in the new content.
        public var to: RowPosition
        /// The row's values now.
        public var row: Row
    }

    /// The version this change set produces (the previous one plus one).
    public var version: Int
    /// Indices of removed sections, in the old content.
    public var deletedSections: [Int] = []
    /// Added sections, by new index.
    public var insertedSections: [InsertedSection] = []
    /// Positions of removed rows, in the old content.
    public var deletedRows: [RowPosition] = []
    /// Added rows, at new positions.
    public var insertedRows: [RowChange] = []
    /// Rows that moved.
    public var movedRows: [RowMove] = []
    /// Rows whose values changed in place.
    public var updatedRows: [RowChange] = []
    /// The whole content, when the list had to be fetched again.
    public var reload: [LiveSection<Row>]?
    /// Why the list may be behind the database from this version on (see
    /// ``LiveSnapshot/problem``); `nil` when it follows every save.
    public var problem: String?

    /// Creates an empty change set producing `version`.
    public init(version: Int) {
        self.version = version
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && updatedRows.isEmpty && reload == nil && problem == nil
    }

    /// The change set with each row transformed, e.g. rendered: what a browser applies.
    public func map<Other: RowValue>(_ transform: (Row) throws -> Other) rethrows -> LiveChangeSet<Other> {
        var mapped = LiveChangeSet<Other>(version: version)
        mapped.deletedSections = deletedSections
        mapped.insertedSections = insertedSections.map { .init(index: $0.index, name: $0.name, indexTitle: $0.indexTitle) }
        mapped.deletedRows = deletedRows
        mapped.insertedRows = try insertedRows.map { .init(position: $0.position, newPosition: $0.newPosition, row: try transform($0.row)) }
        mapped.movedRows = try movedRows.map { .init(from: $0.from, to: $0.to, row: try transform($0.row)) }
        mapped.updatedRows = try updatedRows.map { .init(position: $0.position, newPosition: $0.newPosition, row: try transform($0.row)) }
        mapped.reload = try reload?.map { try $0.map(transform) }
        mapped.problem = problem
        return mapped
    }

    /// `sections` with this change set applied, as a table view would apply it.
    /// - Throws: ``LiveListError`` when a position is out of range (the change set does not
    ///   belong to these sections).
    public func apply(to sections: [LiveSection<Row>]) throws -> [LiveSection<Row>] {
        if let reload { return reload }
        // Old content minus deletes and move sources, removing from the end so indices hold.
        var sections = sections
        let removals = (deletedRows + movedRows.map(\.from)).sorted(by: >)
        for position in removals {
            guard sections.indices.contains(position.section), sections[position.section].rows.indices.contains(position.row) else {
                throw LiveListError("change set \(version) removes row \(position), which does not exist")
            }
            sections[position.section].rows.remove(at: position.row)
        }
        for index in deletedSections.sorted(by: >) {
            guard sections.indices.contains(index) else {
                throw LiveListError("change set \(version) deletes section \(index), which does not exist")
            }
            sections.remove(at: index)
        }
        for inserted in insertedSections.sorted(by: { $0.index < $1.index }) {
            guard inserted.index <= sections.count else {
                throw LiveListError("change set \(version) inserts section \(inserted.index) past the end")
            }
            sections.insert(LiveSection(name: inserted.name, indexTitle: inserted.indexTitle, rows: []), at: inserted.index)
        }
        let insertions = (insertedRows.map { ($0.position, $0.row) } + movedRows.map { ($0.to, $0.row) }).sorted { $0.0 < $1.0 }
        for (position, row) in insertions {
            guard sections.indices.contains(position.section), position.row <= sections[position.section].rows.count else {
                throw LiveListError("change set \(version) inserts row \(position) out of range")
            }
            sections[position.section].rows.insert(row, at: position.row)
        }
        for update in updatedRows {
            let target = update.newPosition ?? update.position
            guard sections.indices.contains(target.section), sections[target.section].rows.indices.contains(target.row),
                sections[target.section].rows[target.row].id == update.row.id
            else {
                throw LiveListError("change set \(version) updates row \(update.row.id) at \(target), where it is not")
            }
            sections[target.section].rows[target.row] = update.row
        }
        return sections
    }
}

/// A live list could not do what was asked, with the reason.
public struct LiveListError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
