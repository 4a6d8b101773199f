import Foundation
import Logging

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
    static func printRows(_ header: [String], _ rows: [[String]], table: Bool, maxWidth: Int = 48) {
        guard table else {
            for row in rows { print(row.map(tsvSafe).joined(separator: "\t")) }
            return
        }
        let cells = ([header] + rows).map { $0.map { cut($0, to: maxWidth) } }
        var widths = Array(repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        for row in cells {
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            print(line.joined(separator: "  "))
        }
    }

    /// `text` no longer than `width` characters, cut with "…".
    static func cut(_ text: String, to width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
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
