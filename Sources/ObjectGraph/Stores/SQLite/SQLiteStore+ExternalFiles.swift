import Foundation
import GRDB

// The external binary storage files of batch requests, which change rows by the hundred
// without reading them as objects: the files of the values they replace or delete are noted
// in their transaction and removed once it has committed, as a save does for its objects.
extension SQLiteStore {
    /// Notes as obsolete the files that the rows of `ids` (of one entity) refer to in the
    /// external-storage `slots` given (all of them when `nil`): removed once the transaction
    /// that replaces or deletes the values commits.
    func noteExternalFiles(
        ofRows ids: some Collection<ManagedObjectID>,
        entity: StorePlan.EntityPlan,
        slots: [Int]? = nil,
        in db: Database,
        files: inout ExternalFileChanges
    ) throws {
        let columns = (slots ?? entity.externalSlots).filter { entity.externalSlots.contains($0) }.compactMap { entity.updateColumns[$0] }
        guard !columns.isEmpty, !ids.isEmpty else { return }
        let storage = externalStorage
        let keys = ids.map(\.primaryKey)
        for start in stride(from: 0, to: keys.count, by: Self.rowsByIDChunk) {
            let chunk = keys[start..<min(start + Self.rowsByIDChunk, keys.count)]
            let sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.mapping.table) WHERE Z_PK IN (\(Self.placeholders(chunk.count)))"
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(Array(chunk)))
            while let row = try rows.next() {
                for index in columns.indices {
                    if let blob = row[index] as Data?, let url = storage.file(referencedBy: blob) { files.obsolete.append(url) }
                }
            }
        }
    }

    /// Runs `body`, which writes files into `files` and commits a transaction; then removes
    /// the obsolete files if it returned, or the files it wrote if it threw.
    func withExternalFiles<T>(_ body: (inout ExternalFileChanges) throws -> T) rethrows -> T {
        var files = ExternalFileChanges()
        do {
            let result = try body(&files)
            files.committed()
            return result
        } catch {
            files.rolledBack()
            throw error
        }
    }
}
