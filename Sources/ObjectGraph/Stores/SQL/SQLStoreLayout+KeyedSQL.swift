import Foundation

extension SQLStoreLayout {
    /// A statement over a set of row keys, written once for every store before it is known how
    /// the keys are bound: ``sql(keys:)`` puts the membership test in its place — one array
    /// (`= ANY($1)`) or a chunk of placeholders (`IN (?, ?, …)`), as
    /// ``SQLDialect/keyMembership(count:)`` writes it, or one key (`= ?`).
    package struct KeyedSQL: Sendable {
        /// The statement up to the membership test, and after it.
        let head: String
        let tail: String

        /// The statement with `keys` as its membership test.
        package func sql(keys: String) -> String { head + keys + tail }
    }
}
