import FluentKit

// Fluent's models of the tables spot-bench's PostgreSQL benchmarks share: ObjectGraph's own
// tables (`ZITEM`, `ZPHOTO`, `ZTAG`, `ZLISTENTRY`, keys and columns as ObjectGraph names them),
// so every contender reads and writes the same rows. Only the photo–tag pivot is Fluent's
// own (`FLUENT_PHOTO_TAG`, with the `id` column every Fluent model needs), filled by spot-bench
// with the same memberships as ObjectGraph's join table.
//
// `@unchecked Sendable`: as Fluent's documentation declares models under Swift 6 (a model's
// property wrappers are classes; each model here lives in one task).

/// A row of ten integers, `a` indexed.
final class FluentItem: Model, @unchecked Sendable {
    static let schema = "ZITEM"

    @ID(custom: "Z_PK", generatedBy: .user) var id: Int64?
    @Field(key: "Z_ENT") var entity: Int32
    @Field(key: "Z_OPT") var version: Int64
    @Field(key: "ZA") var a: Int64
    @Field(key: "ZB") var b: Int64
    @Field(key: "ZC") var c: Int64
    @Field(key: "ZD") var d: Int64
    @Field(key: "ZE") var e: Int64
    @Field(key: "ZF") var f: Int64
    @Field(key: "ZG") var g: Int64
    @Field(key: "ZH") var h: Int64
    @Field(key: "ZI") var i: Int64
    @Field(key: "ZJ") var j: Int64

    init() {}

    /// Row `row` of an `n`-row data set, as every contender writes it.
    init(row: Int64, of n: Int64, entity: Int32) {
        func v(_ column: Int) -> Int64 { Values.value(row: row, column: column, of: n) }
        id = row
        self.entity = entity
        version = 1
        (a, b, c, d, e, f, g, h, i, j) = (v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8), v(9))
    }

    var sum: Int64 { a &+ b &+ c &+ d &+ e &+ f &+ g &+ h &+ i &+ j }
}

/// A photo with tags (many-to-many through ``FluentPhotoTag``).
final class FluentPhoto: Model, @unchecked Sendable {
    static let schema = "ZPHOTO"

    @ID(custom: "Z_PK", generatedBy: .user) var id: Int64?
    @OptionalField(key: "ZTITLE") var title: String?
    @Siblings(through: FluentPhotoTag.self, from: \.$photo, to: \.$tag) var tags: [FluentTag]

    init() {}
}

/// A tag of photos.
final class FluentTag: Model, @unchecked Sendable {
    static let schema = "ZTAG"

    @ID(custom: "Z_PK", generatedBy: .user) var id: Int64?
    @OptionalField(key: "ZNAME") var name: String?

    init() {}
}

/// The photo–tag pivot, as Fluent shapes one: its own `id`, a parent on each side.
final class FluentPhotoTag: Model, @unchecked Sendable {
    static let schema = "FLUENT_PHOTO_TAG"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Parent(key: "photo") var photo: FluentPhoto
    @Parent(key: "tag") var tag: FluentTag

    init() {}
}

/// An entry of the long sectioned list.
final class FluentListEntry: Model, @unchecked Sendable {
    static let schema = "ZLISTENTRY"

    @ID(custom: "Z_PK", generatedBy: .user) var id: Int64?
    @OptionalField(key: "ZTITLE") var title: String?
    @OptionalField(key: "ZLETTER") var letter: String?
    @Field(key: "ZRANK") var rank: Int64

    init() {}
}

/// The data every contender writes (spot-bench's `Models.value(row:column:of:)`, the same formula).
enum Values {
    /// Column `column` (0 = `a`) of row `row` (1-based) of an `n`-row data set. Column `a` is a
    /// permutation of 0..<n, so a range of `a` selects rows spread over the whole table.
    @inline(__always)
    static func value(row: Int64, column: Int, of n: Int64) -> Int64 {
        if column == 0 { return (row &* 7_919) % n }
        return (row &* Int64(column + 1) &* 2_654_435_761) % 1_000_003
    }
}
