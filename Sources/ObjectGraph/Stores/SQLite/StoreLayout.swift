/// Which of the two SQLite layouts a store file uses.
///
/// Both keep one table per inheritance tree (`Z<ROOT>` with `Z_PK`, `Z_ENT`, `Z_OPT`),
/// `Z_PRIMARYKEY` and `Z_METADATA`; they differ in how relationships and column types are
/// spelled.
enum StoreLayout: String, Sendable, Codable {
    /// Apple's Core Data layout, exactly: to-one columns `Z<REL>` with a `Z<n>_<REL>` entity
    /// number beside them when the destination has subentities, join tables `Z_<n><REL>` with
    /// columns `Z_<n><INVERSE>` and `Z_<m><REL>` (and `Z_FOK_<m><REL>` for an ordered side),
    /// Core Data's column types (`VARCHAR`, `TIMESTAMP`, `FLOAT`, `DECIMAL`, …) in Core Data's
    /// column order, Core Data's index names. The stores Core Data wrote, and new stores.
    case coreData
    /// The layout ObjectGraph wrote before it followed Core Data (format 1): join tables with
    /// `Z_SOURCE`/`Z_DESTINATION`(/`Z_FOK_SOURCE`/`Z_FOK_DESTINATION`) columns, entity-number
    /// columns `Z<REL>_ENT`, SQLite's own column types. Stores written so keep opening.
    case objectGraph
}
