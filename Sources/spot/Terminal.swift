import Foundation
import Logging
import ObjectGraph
import SPoTKit

/// Printing for people (tables, progress) and for pipes (tab-separated lines).
enum Terminal {
    /// Whether standard output is a terminal.
    static var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// Writes `message` to standard error as `spot: message`.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("spot: \(message)\n".utf8))
    }

    /// Prints rows: a table with a header (columns padded, long cells cut with "…") or
    /// tab-separated lines without one.
    ///
    /// Columns are measured in terminal columns (``DisplayWidth``): a Japanese title takes
    /// two per character, a combining accent none, so the columns after it still line up.
    static func printRows(_ header: [String], _ rows: [[String]], table: Bool, maxWidth: Int = 48) {
        guard table else {
            for row in rows { print(row.map(tsvSafe).joined(separator: "\t")) }
            return
        }
        for line in tableLines(header, rows, maxWidth: maxWidth) { print(line) }
    }

    /// The lines of a table: the header, then the rows, each column as wide as its widest
    /// cell (at most `maxWidth` columns), two spaces apart, no trailing spaces.
    static func tableLines(_ header: [String], _ rows: [[String]], maxWidth: Int = 48) -> [String] {
        let cells = ([header] + rows).map { $0.map { DisplayWidth.truncated(tsvSafe($0), to: maxWidth) } }
        var widths = Array(repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        return cells.map { row in
            var line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : DisplayWidth.padded(cell, to: widths[index])
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Tabs and line breaks would split a field: replace them with spaces.
    static func tsvSafe(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}

extension Logger {
    /// A logger that only speaks up for real trouble (the CLI's output is for people).
    static var quiet: Logger {
        var logger = Logger(label: "spot")
        logger.logLevel = .critical
        return logger
    }
}
