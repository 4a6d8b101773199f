import Foundation
import GRDB
import ObjectGraph

/// The benchmarks' row: ten integer attributes, `a` indexed.
final class Item: ManagedObject {
    @Managed var a: Int64
    @Managed var b: Int64
    @Managed var c: Int64
    @Managed var d: Int64
    @Managed var e: Int64
    @Managed var f: Int64
    @Managed var g: Int64
    @Managed var h: Int64
    @Managed var i: Int64
    @Managed var j: Int64
}

/// A photo with tags (many-to-many, with inverse), for the relationship walk.
final class BenchPhoto: ManagedObject {
    @Managed var title: String?
    @Managed var tags: Set<BenchTag>
}

/// A tag of photos.
final class BenchTag: ManagedObject {
    @Managed var name: String?
    @Managed var photos: Set<BenchPhoto>
}

enum Models {
    /// The attribute names of `Item`, in column order.
    static let itemKeys = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]

    /// The Item model (a fresh instance: each container freezes its own).
    static func item() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Item", class: Item.self) {
                AttributeDescription("a", .integer64, optional: false, defaultValue: 0, indexed: true)
                AttributeDescription("b", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("c", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("d", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("e", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("f", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("g", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("h", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("i", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("j", .integer64, optional: false, defaultValue: 0)
            }
        }
    }

    /// The Photo/Tag model.
    static func photos() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Photo", class: BenchPhoto.self) {
                AttributeDescription("title", .string)
                RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true)
            }
            EntityDescription("Tag", class: BenchTag.self) {
                AttributeDescription("name", .string)
                RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true)
            }
        }
    }

    /// Column `column` (0 = `a`) of row `row` (1-based) of an `n`-row data set. Column `a` is a
    /// permutation of 0..<n, so a range of `a` selects rows spread over the whole table.
    @inline(__always)
    static func value(row: Int64, column: Int, of n: Int64) -> Int64 {
        if column == 0 { return (row &* 7_919) % n }
        return (row &* Int64(column + 1) &* 2_654_435_761) % 1_000_003
    }

    /// A container with one SQLite store at `url`, loaded.
    static func container(_ model: ManagedObjectModel, at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }
}

/// The GRDB record of an Item row: same table, same columns as ObjectGraph's.
struct ItemRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZITEM"
    var id: Int64
    var entity: Int64
    var version: Int64
    var a, b, c, d, e, f, g, h, i, j: Int64

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK"
        case entity = "Z_ENT"
        case version = "Z_OPT"
        case a = "ZA"
        case b = "ZB"
        case c = "ZC"
        case d = "ZD"
        case e = "ZE"
        case f = "ZF"
        case g = "ZG"
        case h = "ZH"
        case i = "ZI"
        case j = "ZJ"
    }

    var sum: Int64 { a &+ b &+ c &+ d &+ e &+ f &+ g &+ h &+ i &+ j }
}

extension ItemRecord {
    /// Row `row` of `n` as every contender writes it (see ``Models/value(row:column:of:)``).
    init(row: Int64, of n: Int64) {
        func v(_ column: Int) -> Int64 { Models.value(row: row, column: column, of: n) }
        self.init(id: row, entity: 1, version: 1, a: v(0), b: v(1), c: v(2), d: v(3), e: v(4), f: v(5), g: v(6), h: v(7), i: v(8), j: v(9))
    }
}

/// The same row as ``ItemRecord`` in GRDB's fastest idiom, the one its own published
/// comparison uses: a hand-written `init(row:)` reading columns by index and a hand-written
/// `encode(to:)`, no `Codable`.
struct ItemRowRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZITEM"
    var id, entity, version: Int64
    var a, b, c, d, e, f, g, h, i, j: Int64

    /// Reads `SELECT *` in table order: `Z_PK, Z_ENT, Z_OPT, ZA…ZJ`.
    init(row: Row) {
        id = row[0]
        entity = row[1]
        version = row[2]
        a = row[3]
        b = row[4]
        c = row[5]
        d = row[6]
        e = row[7]
        f = row[8]
        g = row[9]
        h = row[10]
        i = row[11]
        j = row[12]
    }

    /// Row `row` of `n` as every contender writes it (see ``Models/value(row:column:of:)``).
    init(row: Int64, of n: Int64) {
        func v(_ column: Int) -> Int64 { Models.value(row: row, column: column, of: n) }
        (id, entity, version) = (row, 1, 1)
        (a, b, c, d, e, f, g, h, i, j) = (v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9))
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["Z_PK"] = id
        container["Z_ENT"] = entity
        container["Z_OPT"] = version
        container["ZA"] = a
        container["ZB"] = b
        container["ZC"] = c
        container["ZD"] = d
        container["ZE"] = e
        container["ZF"] = f
        container["ZG"] = g
        container["ZH"] = h
        container["ZI"] = i
        container["ZJ"] = j
    }

    var sum: Int64 { a &+ b &+ c &+ d &+ e &+ f &+ g &+ h &+ i &+ j }
}

extension Models {
    /// Saves `sizes.photos` photos, each with `sizes.tagsPerPhoto` of `sizes.tags` tags, through
    /// `container` (the relationship walk's data, on SQLite and on PostgreSQL alike).
    static func savePhotos(sizes: Sizes, in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var tags: [BenchTag] = []
            for index in 0..<sizes.tags {
                let tag = BenchTag(context: context)
                tag.name = "tag \(index)"
                tags.append(tag)
            }
            for index in 0..<sizes.photos {
                let photo = BenchPhoto(context: context)
                photo.title = "photo \(index)"
                var members = Set<BenchTag>()
                for k in 0..<sizes.tagsPerPhoto { members.insert(tags[(index * 7 + k * 13) % tags.count]) }
                photo.tags = members
            }
            try context.save()
        }
    }
}
