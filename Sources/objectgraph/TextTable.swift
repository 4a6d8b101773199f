import ObjectGraph

/// Rows for people (an aligned table) and for programs (tab-separated, escaped).
enum TextTable {
    /// The lines of a table: the header, then the rows, each column as wide as its widest cell
    /// (cells cut to `maxWidth` terminal columns with "…"), two spaces apart, no trailing
    /// spaces. Widths are terminal columns (``DisplayWidth``), so wide characters line up.
    static func lines(_ header: [String], _ rows: [[String]], maxWidth: Int = 40) -> [String] {
        let cells = ([header] + rows).map { $0.map { DisplayWidth.truncated(visible($0), to: maxWidth) } }
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

    /// A cell on one line: line breaks and tabs as `\n`, `\t`, other control characters as
    /// `\u{…}`, so a value can neither break the table nor move the cursor.
    static func visible(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.properties.generalCategory == .control {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// One tab-separated line, each field escaped as PostgreSQL's text format escapes it:
    /// backslash, tab, line feed and carriage return as `\\`, `\t`, `\n`, `\r`.
    static func tsvLine(_ fields: [String]) -> String {
        fields.map { field in
            var escaped = ""
            for character in field {
                switch character {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\r\n": escaped += "\\r\\n"
                default: escaped.append(character)
                }
            }
            return escaped
        }.joined(separator: "\t")
    }
}
