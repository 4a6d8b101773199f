import Foundation
import SPoTKit

/// A row as the page shows it: its id and its HTML, rendered (and escaped) by a template.
struct RenderedRow: Sendable, Hashable, Codable {
    var id: String
    var html: String
}

/// A section as the page shows it.
struct RenderedSection: Sendable, Hashable, Codable {
    var name: String
    var indexTitle: String
    /// The header's element id, e.g. `section-A`.
    var anchor: String
    /// The header's HTML; empty for an unsectioned list.
    var headerHTML: String
    var rows: [RenderedRow]
}

/// A live list's whole content as HTML fragments: the first event of every subscription, and
/// what pages render.
struct RenderedSnapshot: Sendable, Hashable, Codable {
    var listKey: String
    /// Identifies the server's list: a page rendered from another instance (before a server
    /// restart) resynchronises from the snapshot whatever the versions say.
    var instance: String
    var version: Int
    var sections: [RenderedSection]
    /// Every section as the page's `<ol class="sections">` holds it (not sent in events:
    /// the page builds sections from ``sections``).
    var sectionsHTML: String = ""

    private enum CodingKeys: String, CodingKey {
        case listKey, instance, version, sections
    }

    /// How many rows the list holds.
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// The section index: each non-empty index title once, in order, with its anchor.
    var sectionIndex: [SectionIndexEntry] {
        var seen: Set<String> = []
        return sections.compactMap { section in
            guard !section.indexTitle.isEmpty, !section.headerHTML.isEmpty, seen.insert(section.indexTitle).inserted else { return nil }
            return SectionIndexEntry(title: section.indexTitle, anchor: section.anchor)
        }
    }
}

/// A letter of a section index and the header it jumps to.
struct SectionIndexEntry: Sendable, Hashable, Codable {
    var title: String
    var anchor: String
}

/// A ``LiveChangeSet`` with rows rendered: what a page applies to its DOM.
struct RenderedChange: Sendable, Hashable, Codable {
    struct Position: Sendable, Hashable, Codable {
        var section: Int
        var row: Int
    }

    struct InsertedSection: Sendable, Hashable, Codable {
        var index: Int
        var name: String
        var indexTitle: String
        var anchor: String
        var headerHTML: String
    }

    struct InsertedRow: Sendable, Hashable, Codable {
        var section: Int
        var row: Int
        var id: String
        var html: String
    }

    struct MovedRow: Sendable, Hashable, Codable {
        var from: Position
        var to: Position
        var id: String
        var html: String
    }

    struct UpdatedRow: Sendable, Hashable, Codable {
        var section: Int
        var row: Int
        var newSection: Int
        var newRow: Int
        var id: String
        var html: String
    }

    var version: Int
    var deletedSections: [Int]
    var insertedSections: [InsertedSection]
    var deletedRows: [Position]
    var insertedRows: [InsertedRow]
    var movedRows: [MovedRow]
    var updatedRows: [UpdatedRow]
    var reload: [RenderedSection]?

    /// A change that replaces everything.
    static func reload(version: Int, sections: [RenderedSection]) -> RenderedChange {
        RenderedChange(
            version: version,
            deletedSections: [],
            insertedSections: [],
            deletedRows: [],
            insertedRows: [],
            movedRows: [],
            updatedRows: [],
            reload: sections
        )
    }
}

/// Turns a live list's rows and sections into HTML fragments.
struct ListRendering<Row: LiveRow>: Sendable {
    /// A row's HTML.
    let row: @Sendable (Row) -> String
    /// A section header's HTML (empty for an unsectioned list), given the name and anchor.
    let header: @Sendable (_ name: String, _ anchor: String) -> String
    /// A whole section's HTML, header and rows.
    let wrap: @Sendable (RenderedSection) -> String

    /// The whole content of a list at `version`, reusing rows' HTML from `rowHTML` (by row
    /// id) and rendering only the rows missing from it.
    func snapshot(
        _ sections: [LiveSection<Row>],
        key: ListKey,
        instance: String,
        version: Int,
        rowHTML: [String: String] = [:]
    ) -> RenderedSnapshot {
        let rendered = sections.map { section($0, rowHTML: rowHTML) }
        return RenderedSnapshot(
            listKey: key.description,
            instance: instance,
            version: version,
            sections: rendered,
            sectionsHTML: rendered.map(wrap).joined(separator: "\n")
        )
    }

    func section(_ section: LiveSection<Row>, rowHTML: [String: String] = [:]) -> RenderedSection {
        let anchor = Self.anchor(forSection: section.name)
        return RenderedSection(
            name: section.name,
            indexTitle: section.indexTitle,
            anchor: anchor,
            headerHTML: section.name.isEmpty ? "" : header(section.name, anchor),
            rows: section.rows.map { RenderedRow(id: $0.id, html: rowHTML[$0.id] ?? row($0)) }
        )
    }

    func change(_ change: LiveChangeSet<Row>) -> RenderedChange {
        if let reload = change.reload {
            return .reload(version: change.version, sections: reload.map { section($0) })
        }
        func position(_ position: RowPosition) -> RenderedChange.Position {
            RenderedChange.Position(section: position.section, row: position.row)
        }
        return RenderedChange(
            version: change.version,
            deletedSections: change.deletedSections,
            insertedSections: change.insertedSections.map { inserted in
                let anchor = Self.anchor(forSection: inserted.name)
                return RenderedChange.InsertedSection(
                    index: inserted.index,
                    name: inserted.name,
                    indexTitle: inserted.indexTitle,
                    anchor: anchor,
                    headerHTML: inserted.name.isEmpty ? "" : header(inserted.name, anchor)
                )
            },
            deletedRows: change.deletedRows.map(position),
            insertedRows: change.insertedRows.map {
                RenderedChange.InsertedRow(section: $0.position.section, row: $0.position.row, id: $0.row.id, html: row($0.row))
            },
            movedRows: change.movedRows.map {
                RenderedChange.MovedRow(from: position($0.from), to: position($0.to), id: $0.row.id, html: row($0.row))
            },
            updatedRows: change.updatedRows.map {
                let target = $0.newPosition ?? $0.position
                return RenderedChange.UpdatedRow(
                    section: $0.position.section,
                    row: $0.position.row,
                    newSection: target.section,
                    newRow: target.row,
                    id: $0.row.id,
                    html: row($0.row)
                )
            },
            reload: nil
        )
    }

    /// An element id for a section header: `section-` and the name with every character
    /// outside `A-Z a-z 0-9` written as `_` and its UTF-8 bytes in hex, so names never clash.
    static func anchor(forSection name: String) -> String {
        var anchor = "section-"
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                anchor.append(Character(Unicode.Scalar(byte)))
            default:
                anchor += "_" + String(byte, radix: 16, uppercase: true)
            }
        }
        return anchor
    }
}
