import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Visits every photo and reads the name of each of its tags (many-to-many, with inverse).
struct RelationshipWalkBenchmark: Benchmark {
    let photos: Int
    let tagsPerPhoto: Int
    let tags: Int

    var name: String { "relationship walk: \(photos.formatted) photos × \(tagsPerPhoto) tags" }
    var notes: [String] {
        [
            "walk: ObjectGraph without prefetching runs one query per photo's tags and one per tag fault; with relationshipKeyPathsForPrefetching = [\"tags\"] three (photos; memberships, one ordered query over the photos' range of keys; tags); GRDB uses including(all:) (2 queries), raw C one JOIN"
        ]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let store = try workspace.photos()
        let container = try Models.container(Models.photos(), at: store.url)
        let pool = try workspace.pool(at: store.url)
        let join = store.joinTable
        PhotoTagRecord.table = join
        PhotoTagRecord.tagColumn = store.tagColumn
        return [
            Contender(name: "ObjectGraph typed, without prefetching", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        for photo in try context.fetch(BenchPhoto.fetchRequest()) {
                            sum = sum &+ Int64(photo.title?.utf8.count ?? 0)
                            for tag in photo.tags { sum = sum &+ Int64(tag.name?.utf8.count ?? 0) }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "ObjectGraph typed, prefetching tags", role: .objectGraph) {
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        let request = BenchPhoto.fetchRequest()
                        request.relationshipKeyPathsForPrefetching = ["tags"]
                        var sum: Int64 = 0
                        for photo in try context.fetch(request) {
                            sum = sum &+ Int64(photo.title?.utf8.count ?? 0)
                            for tag in photo.tags { sum = sum &+ Int64(tag.name?.utf8.count ?? 0) }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "GRDB association (including(all:))", role: .grdb) {
                let photoTags = PhotoRecord.hasMany(PhotoTagRecord.self, using: ForeignKey([store.photoColumn], to: ["Z_PK"]))
                let request = PhotoRecord.including(
                    all: PhotoRecord.hasMany(TagRecord.self, through: photoTags, using: PhotoTagRecord.tag, key: "tags")
                )
                return try measureMilliseconds {
                    try pool.read { db in
                        var sum: Int64 = 0
                        for info in try PhotoInfo.fetchAll(db, request) {
                            sum = sum &+ Int64(info.photo.title?.utf8.count ?? 0)
                            for tag in info.tags { sum = sum &+ Int64(tag.name?.utf8.count ?? 0) }
                        }
                        return sum
                    }
                }
            },
            Contender(name: "raw SQLite C (one JOIN)", role: .baseline) {
                let connection = try RawConnection(path: store.url.path)
                return try measureMilliseconds {
                    let statement = try connection.prepare(
                        "SELECT p.Z_PK, p.ZTITLE, t.ZNAME FROM ZPHOTO p LEFT JOIN \(join) j ON j.\(store.photoColumn) = p.Z_PK LEFT JOIN ZTAG t ON t.Z_PK = j.\(store.tagColumn) ORDER BY p.Z_PK"
                    )
                    defer { sqlite3_finalize(statement) }
                    var sum: Int64 = 0
                    var previous: Int64 = -1
                    while sqlite3_step(statement) == SQLITE_ROW {
                        let key = sqlite3_column_int64(statement, 0)
                        if key != previous, let title = sqlite3_column_text(statement, 1) {
                            sum = sum &+ Int64(String(cString: title).utf8.count)
                        }
                        previous = key
                        if let name = sqlite3_column_text(statement, 2) { sum = sum &+ Int64(String(cString: name).utf8.count) }
                    }
                    return sum
                }
            },
        ]
    }
}

/// GRDB's view of ObjectGraph's photo table.
struct PhotoRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "ZPHOTO"
    var id: Int64
    var title: String?

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK"
        case title = "ZTITLE"
    }
}

/// GRDB's view of ObjectGraph's tag table.
struct TagRecord: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "ZTAG"
    var id: Int64
    var name: String?

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK"
        case name = "ZNAME"
    }
}

/// GRDB's view of ObjectGraph's photo–tag join table (its name depends on entity codes).
struct PhotoTagRecord: TableRecord {
    nonisolated(unsafe) static var table = "Z_1TAGS"
    nonisolated(unsafe) static var tagColumn = "Z_2TAGS"
    static var databaseTableName: String { table }
    static var tag: BelongsToAssociation<Self, TagRecord> { belongsTo(TagRecord.self, using: ForeignKey([tagColumn], to: ["Z_PK"])) }
}

/// A photo and its tags, as `including(all:)` decodes them.
struct PhotoInfo: Decodable, FetchableRecord {
    var photo: PhotoRecord
    var tags: [TagRecord]
}
