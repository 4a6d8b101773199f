import Foundation

extension SQLCompiler {
    /// `left op right` for BEGINSWITH, ENDSWITH, CONTAINS (and IN on strings), LIKE and MATCHES,
    /// with `[c]`/`[d]`: true, false, or NULL when a side is NULL, as the dialect writes it.
    ///
    /// - Throws: ``NeedsInMemoryEvaluation`` where the dialect cannot say it.
    mutating func stringOperator(
        _ op: ComparisonOperator,
        _ left: SQLStringOperand,
        _ right: SQLStringOperand,
        _ options: ComparisonOptions
    ) throws -> String {
        let dialect = self.dialect
        return try dialect.stringOperator(op, left, right, options.subtracting(.normalized)) { bind($0) }
    }

    /// `sql` folded by `[c]`/`[d]` `options` as the dialect folds (as the evaluator does).
    func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        let options = options.subtracting(.normalized)
        if options.isEmpty { return sql }
        return dialect.fold(sql, options)
    }

    /// - Throws: ``NeedsInMemoryEvaluation`` when the dialect cannot fold as `options` ask.
    func requireFolding(_ options: ComparisonOptions) throws {
        try dialect.requireFolding(options)
    }
}
