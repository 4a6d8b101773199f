import Foundation
import ObjectGraph

extension PostgreSQLStore {
    /// PostgreSQL binds at most 65,535 parameters to one statement.
    static let maximumParameters = 65_535
    /// Rows one multi-row INSERT takes at most.
    static let maximumRowsPerInsert = 1_000

    /// `statements` with each run of the same single-row `INSERT … VALUES ($1, …, $n)` (a new
    /// object's row, a join row) merged into multi-row INSERTs: one round trip to the server
    /// per up to ``maximumRowsPerInsert`` rows instead of one per row. Order is kept, and so is
    /// every other statement (those with a version check among them).
    static func mergingInserts(_ statements: [SaveStatement]) -> [SaveStatement] {
        var merged: [SaveStatement] = []
        merged.reserveCapacity(statements.count)
        var index = 0
        while index < statements.count {
            let first = statements[index]
            let width = first.arguments.count
            guard first.versionCheck == nil, width > 0, let shape = InsertShape(first.sql, width: width) else {
                merged.append(first)
                index += 1
                continue
            }
            let limit = min(maximumRowsPerInsert, maximumParameters / width)
            var end = index + 1
            while end < statements.count, end - index < limit, statements[end].versionCheck == nil,
                statements[end].arguments.count == width, statements[end].sql == first.sql
            {
                end += 1
            }
            if end - index == 1 {
                merged.append(first)
            } else {
                var arguments: [SQLValue] = []
                arguments.reserveCapacity((end - index) * width)
                var sql = shape.prefix
                sql.reserveCapacity(shape.prefix.count + (end - index) * width * 8 + shape.suffix.count)
                var placeholder = 0
                for row in index..<end {
                    arguments.append(contentsOf: statements[row].arguments)
                    sql += row == index ? "(" : ", ("
                    for column in 0..<width {
                        placeholder += 1
                        sql += column == 0 ? "$\(placeholder)" : ", $\(placeholder)"
                    }
                    sql += ")"
                }
                sql += shape.suffix
                merged.append(SaveStatement(sql: sql, arguments: arguments))
            }
            index = end
        }
        return merged
    }

    /// A single-row `INSERT … VALUES ($1, …, $n) [suffix]`, split around its one tuple.
    struct InsertShape {
        /// Up to and including `VALUES `.
        let prefix: String
        /// What follows the tuple (`ON CONFLICT DO NOTHING`), with its leading space.
        let suffix: String

        /// `nil` unless `sql` is an INSERT whose VALUES tuple is exactly `$1, …, $width`.
        init?(_ sql: String, width: Int) {
            guard sql.hasPrefix("INSERT INTO "), let values = sql.range(of: " VALUES (") else { return nil }
            guard let close = sql[values.upperBound...].firstIndex(of: ")") else { return nil }
            let tuple = (1...width).map { "$\($0)" }.joined(separator: ", ")
            guard sql[values.upperBound..<close] == tuple else { return nil }
            prefix = String(sql[..<values.upperBound].dropLast())
            suffix = String(sql[sql.index(after: close)...])
        }
    }
}
