import ArgumentParser
import Foundation
import SPoTKit

/// `--follow`, shared by the list commands.
struct FollowOption: ParsableArguments {
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "After the list, print each change as it happens, until Ctrl-C.",
            discussion: """
                One line per change: `+ S.R` inserted at section S, row R; `- S.R` deleted; `> S.R S.R` moved \
                (from, to); `~ S.R` updated in place; `+ section S NAME` and `- section S NAME` for sections. \
                Changes made by other `spot` commands and by `spot serve` appear too.
                """
        )
    )
    var follow = false
}

/// Prints `list` as rows of `cells` (section name, row); with `follow`, then prints each change
/// as it happens until the process is interrupted. Closes the list when it is done.
func printList<Row: LiveRow>(
    _ list: LiveList<Row>,
    header: [String],
    format: OutputFormat,
    maxWidth: Int = 48,
    follow: Bool,
    cells: @escaping @Sendable (String, Row) -> [String]
) async {
    func rows(_ sections: [LiveSection<Row>]) -> [[String]] {
        sections.flatMap { section in section.rows.map { cells(section.name, $0) } }
    }
    guard follow else {
        let snapshot = await currentContent(list)
        Terminal.printRows(header, rows(snapshot.sections), table: format.isTable, maxWidth: maxWidth)
        return
    }
    let (snapshot, changes) = await list.subscribe()
    Terminal.printRows(header, rows(snapshot.sections), table: format.isTable, maxWidth: maxWidth)
    fflush(nil)
    var sections = snapshot.sections
    for await change in changes {
        let new: [LiveSection<Row>]
        if let applied = try? change.apply(to: sections) {
            new = applied
        } else {
            // Out of step (never expected): start over from the list's content.
            new = await list.snapshot().sections
        }
        for line in ChangeLines.lines(for: change, from: sections, to: new, cells: cells) { print(line) }
        fflush(nil)
        sections = new
    }
}

/// The lines `--follow` prints for one change set.
enum ChangeLines {
    static func lines<Row: LiveRow>(
        for change: LiveChangeSet<Row>,
        from old: [LiveSection<Row>],
        to new: [LiveSection<Row>],
        cells: (String, Row) -> [String]
    ) -> [String] {
        func line(_ marker: String, _ section: String, _ row: Row) -> String {
            ([marker] + cells(section, row).map(Terminal.tsvSafe)).joined(separator: "\t")
        }
        func name(_ index: Int, in sections: [LiveSection<Row>]) -> String { sections.indices.contains(index) ? sections[index].name : "" }
        if let reload = change.reload {
            return ["= reload"] + reload.flatMap { section in section.rows.map { line("+", section.name, $0) } }
        }
        var lines: [String] = []
        for index in change.deletedSections.sorted() { lines.append("- section \(index) \(Terminal.tsvSafe(name(index, in: old)))") }
        for position in change.deletedRows.sorted() {
            guard old.indices.contains(position.section), old[position.section].rows.indices.contains(position.row) else { continue }
            lines.append(line("- \(position)", old[position.section].name, old[position.section].rows[position.row]))
        }
        for section in change.insertedSections.sorted(by: { $0.index < $1.index }) {
            lines.append("+ section \(section.index) \(Terminal.tsvSafe(section.name))")
        }
        for move in change.movedRows { lines.append(line("> \(move.from) \(move.to)", name(move.to.section, in: new), move.row)) }
        for insert in change.insertedRows.sorted(by: { $0.position < $1.position }) {
            lines.append(line("+ \(insert.position)", name(insert.position.section, in: new), insert.row))
        }
        for update in change.updatedRows { lines.append(line("~ \(update.position)", name(update.position.section, in: old), update.row)) }
        return lines
    }
}
