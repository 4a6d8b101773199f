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
