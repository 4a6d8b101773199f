import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Core Data's join tables for every shape of many-to-many relationship: each shape built,
/// saved, and its schema and rows checked against the rule the Core Data stores article
/// states (see <doc:CoreDataStores>), by Python's `sqlite3`, which knows nothing of ObjectGraph.
@Suite("Core Data stores: join tables")
struct CoreDataJoinTableTests {
    /// A shape of many-to-many relationship, its model, what to save, and what Core Data's
    /// rule says the store then holds.
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let model: @Sendable () -> ManagedObjectModel
        /// Inserts the objects; each object's first attribute names it.
        let fill: @Sendable (ManagedObjectContext) throws -> Void
        /// The join table's `CREATE TABLE` and `CREATE INDEX`, as `sqlite_master` keeps them.
        let statements: [String]
        /// A query over the join table naming each row's two objects (and order), and its rows.
        let query: String
        let rows: [String]
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(
            name: "between two entities",
            model: {
                ManagedObjectModel {
                    EntityDescription("Author") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("books", to: "Book", inverse: "authors", toMany: true)
                    }
                    EntityDescription("Book") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("authors", to: "Author", inverse: "books", toMany: true)
                    }
                }
            },
            fill: { context in
                let (a1, a2) = (try named(context, "Author", "a1"), try named(context, "Author", "a2"))
                let (b1, b2) = (try named(context, "Book", "b1"), try named(context, "Book", "b2"))
                a1.setValue(Set([b1, b2]), forKey: "books")
                a2.setValue(Set([b2]), forKey: "books")
            },
            statements: [
                "CREATE TABLE Z_1BOOKS ( Z_1AUTHORS INTEGER, Z_2BOOKS INTEGER, PRIMARY KEY (Z_1AUTHORS, Z_2BOOKS) )",
                "CREATE INDEX Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS)",
            ],
            query: "SELECT a.ZNAME || ' ' || b.ZNAME FROM Z_1BOOKS j JOIN ZAUTHOR a ON a.Z_PK = j.Z_1AUTHORS JOIN ZBOOK b ON b.Z_PK = j.Z_2BOOKS ORDER BY 1",
            rows: ["a1 b1", "a1 b2", "a2 b2"]
        ),
        Shape(
            name: "ordered on the side of the higher-numbered entity (that side names the table, as Photos' albums do)",
            model: {
                ManagedObjectModel {
                    EntityDescription("Album") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("photos", to: "Photo", inverse: "albums", toMany: true)
                    }
                    EntityDescription("Photo") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("albums", to: "Album", inverse: "photos", toMany: true, ordered: true)
                    }
                }
            },
            fill: { context in
                let albums = try ["x", "y", "z"].map { try named(context, "Album", $0) }
                let photo = try named(context, "Photo", "p")
                photo.setValue([albums[2], albums[0], albums[1]], forKey: "albums")
                try named(context, "Photo", "q").setValue([albums[1]], forKey: "albums")
            },
            statements: [
                "CREATE TABLE Z_2ALBUMS ( Z_2PHOTOS INTEGER, Z_1ALBUMS INTEGER, Z_FOK_1ALBUMS INTEGER, PRIMARY KEY (Z_2PHOTOS, Z_1ALBUMS) )",
                "CREATE INDEX Z_2ALBUMS_Z_1ALBUMS_INDEX ON Z_2ALBUMS (Z_1ALBUMS, Z_2PHOTOS)",
            ],
            query:
                "SELECT p.ZNAME || ' ' || a.ZNAME || ' ' || j.Z_FOK_1ALBUMS FROM Z_2ALBUMS j JOIN ZPHOTO p ON p.Z_PK = j.Z_2PHOTOS JOIN ZALBUM a ON a.Z_PK = j.Z_1ALBUMS ORDER BY p.ZNAME, j.Z_FOK_1ALBUMS",
            rows: ["p z 1024", "p x 2048", "p y 3072", "q y 1024"]
        ),
        Shape(
            name: "ordered on both sides",
            model: {
                ManagedObjectModel {
                    EntityDescription("Playlist") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true)
                    }
                    EntityDescription("Song") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("playlists", to: "Playlist", inverse: "songs", toMany: true, ordered: true)
                    }
                }
            },
            fill: { context in
                let (p1, p2) = (try named(context, "Playlist", "p1"), try named(context, "Playlist", "p2"))
                let (s1, s2) = (try named(context, "Song", "s1"), try named(context, "Song", "s2"))
                p1.setValue([s2, s1], forKey: "songs")
                p2.setValue([s1], forKey: "songs")
                // s1 is in p1 and p2; its own order of them: p2 first.
                s1.setValue([p2, p1], forKey: "playlists")
            },
            statements: [
                "CREATE TABLE Z_1SONGS ( Z_1PLAYLISTS INTEGER, Z_2SONGS INTEGER, Z_FOK_2SONGS INTEGER, Z_FOK_1PLAYLISTS INTEGER, PRIMARY KEY (Z_1PLAYLISTS, Z_2SONGS) )",
                "CREATE INDEX Z_1SONGS_Z_2SONGS_INDEX ON Z_1SONGS (Z_2SONGS, Z_1PLAYLISTS)",
            ],
            query:
                "SELECT p.ZNAME || ' ' || s.ZNAME || ' ' || j.Z_FOK_2SONGS || ' ' || j.Z_FOK_1PLAYLISTS FROM Z_1SONGS j JOIN ZPLAYLIST p ON p.Z_PK = j.Z_1PLAYLISTS JOIN ZSONG s ON s.Z_PK = j.Z_2SONGS ORDER BY 1",
            rows: ["p1 s1 2048 2048", "p1 s2 1024 1024", "p2 s1 1024 1024"]
        ),
        Shape(
            name: "self-referential, unordered (the name that sorts first names the table)",
            model: {
                ManagedObjectModel {
                    EntityDescription("Person") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("followers", to: "Person", inverse: "following", toMany: true)
                        RelationshipDescription("following", to: "Person", inverse: "followers", toMany: true)
                    }
                }
            },
            fill: { context in
                let (ada, bob, cyd) = (try named(context, "Person", "ada"), try named(context, "Person", "bob"), try named(context, "Person", "cyd"))
                ada.setValue(Set([bob, cyd]), forKey: "followers")
                bob.setValue(Set([cyd]), forKey: "followers")
            },
            statements: [
                "CREATE TABLE Z_1FOLLOWERS ( Z_1FOLLOWING INTEGER, Z_1FOLLOWERS INTEGER, PRIMARY KEY (Z_1FOLLOWING, Z_1FOLLOWERS) )",
                "CREATE INDEX Z_1FOLLOWERS_Z_1FOLLOWERS_INDEX ON Z_1FOLLOWERS (Z_1FOLLOWERS, Z_1FOLLOWING)",
            ],
            // Z_1FOLLOWING holds the one followed, Z_1FOLLOWERS the follower.
            query: "SELECT f.ZNAME || ' followed by ' || r.ZNAME FROM Z_1FOLLOWERS j JOIN ZPERSON f ON f.Z_PK = j.Z_1FOLLOWING JOIN ZPERSON r ON r.Z_PK = j.Z_1FOLLOWERS ORDER BY 1",
            rows: ["ada followed by bob", "ada followed by cyd", "bob followed by cyd"]
        ),
        Shape(
            name: "self-referential, its own inverse (Core Data's REFLEXIVE column; a row from each side)",
            model: { CoreDataJoinTableTests.friendsModel() },
            fill: { context in
                let (ada, bob, cyd) = (try named(context, "Person", "ada"), try named(context, "Person", "bob"), try named(context, "Person", "cyd"))
                _ = try named(context, "Person", "dee")
                ada.setValue(Set([bob, cyd]), forKey: "friends")
                bob.mutableSetValue(forKey: "friends").add(cyd)
            },
            statements: [
                "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )",
                "CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)",
            ],
            query: "SELECT a.ZNAME || ' ' || b.ZNAME FROM Z_1FRIENDS j JOIN ZPERSON a ON a.Z_PK = j.Z_1FRIENDS JOIN ZPERSON b ON b.Z_PK = j.REFLEXIVE ORDER BY 1",
            rows: ["ada bob", "ada cyd", "bob ada", "bob cyd", "cyd ada", "cyd bob"]
        ),
        Shape(
            name: "self-referential, ordered on one side, after a renaming identifier (DuckDuckGo's favorites)",
            model: { CoreDataJoinTableTests.bookmarksModel() },
            fill: { context in
                let folder = try named(context, "BookmarkEntity", "folder")
                folder.setValue(true, forKey: "isFolder")
                let marks = try ["m1", "m2", "m3"].map { try named(context, "BookmarkEntity", $0) }
                folder.setValue([marks[1], marks[2], marks[0]], forKey: "favorites")
            },
            statements: [
                "CREATE TABLE Z_1FAVORITES ( Z_1FAVORITEFOLDERS INTEGER, Z_1FAVORITES INTEGER, Z_FOK_1FAVORITES INTEGER, PRIMARY KEY (Z_1FAVORITEFOLDERS, Z_1FAVORITES) )",
                "CREATE INDEX Z_1FAVORITES_Z_1FAVORITES_INDEX ON Z_1FAVORITES (Z_1FAVORITES, Z_1FAVORITEFOLDERS)",
            ],
            query:
                "SELECT f.ZUUID || ' ' || m.ZUUID || ' ' || j.Z_FOK_1FAVORITES FROM Z_1FAVORITES j JOIN ZBOOKMARKENTITY f ON f.Z_PK = j.Z_1FAVORITEFOLDERS JOIN ZBOOKMARKENTITY m ON m.Z_PK = j.Z_1FAVORITES ORDER BY j.Z_FOK_1FAVORITES",
            rows: ["folder m2 1024", "folder m3 2048", "folder m1 3072"]
        ),
        Shape(
            name: "declared on a subentity (its number, its root's table)",
            model: {
                ManagedObjectModel {
                    EntityDescription("Item") { AttributeDescription("name", .string) }
                    EntityDescription("Note", parent: "Item") {
                        RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true)
                    }
                    EntityDescription("Tag") {
                        AttributeDescription("name", .string)
                        RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true)
                    }
                }
            },
            fill: { context in
                let note = try named(context, "Note", "n")
                note.setValue(Set([try named(context, "Tag", "t1"), try named(context, "Tag", "t2")]), forKey: "tags")
                _ = try named(context, "Item", "i")
            },
            statements: [
                "CREATE TABLE Z_2TAGS ( Z_2NOTES INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2NOTES, Z_3TAGS) )",
                "CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2NOTES)",
            ],
            query:
                "SELECT n.ZNAME || ' ' || n.Z_ENT || ' ' || t.ZNAME FROM Z_2TAGS j JOIN ZITEM n ON n.Z_PK = j.Z_2NOTES JOIN ZTAG t ON t.Z_PK = j.Z_3TAGS ORDER BY 1",
            rows: ["n 2 t1", "n 2 t2"]
        ),
    ]

    /// DuckDuckGo's `BookmarkEntity`, cut down to its tree and its favorites.
    static func bookmarksModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("BookmarkEntity") {
                AttributeDescription("uuid", .string)
                AttributeDescription("isFolder", .boolean)
                AttributeDescription("title", .string)
                RelationshipDescription("children", to: "BookmarkEntity", inverse: "parent", toMany: true, ordered: true)
                RelationshipDescription("parent", to: "BookmarkEntity", inverse: "children")
                RelationshipDescription("favorites", to: "BookmarkEntity", inverse: "favoriteFolders", toMany: true, ordered: true)
                favoriteFolders()
            }
        }
    }

    /// People whose `friends` is its own inverse: a friendship is mutual.
    static func friendsModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                RelationshipDescription("friends", to: "Person", inverse: "friends", toMany: true)
            }
        }
    }

    /// `favoriteFolders`, which was `favoriteFolder` in an earlier version of the model.
    static func favoriteFolders() -> RelationshipDescription {
        let folders = RelationshipDescription("favoriteFolders", to: "BookmarkEntity", inverse: "favorites", toMany: true)
        folders.renamingIdentifier = "favoriteFolder"
        return folders
    }

    /// A new object of `entity` whose first attribute (`name`, or `uuid`) is `name`.
    @discardableResult
    static func named(_ context: ManagedObjectContext, _ entity: String, _ name: String) throws -> ManagedObject {
        let object = try context.insertObject(entityName: entity)
        object.setValue(name, forKey: object.entity.attributesByName["uuid"] == nil ? "name" : "uuid")
        return object
    }

    /// The rows `query` selects from the store at `url` (one text column), read by Python.
    static func rows(_ query: String, in url: URL) throws -> [String] {
        let script = """
            import sqlite3, sys, json
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            print(json.dumps([str(row[0]) for row in db.execute(sys.argv[2]).fetchall()]))
            """
        let (status, output) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, url.path, query])
        guard status == 0, let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String] else {
            throw ReferenceReaderError(arguments: [query], status: status, output: output)
        }
        return rows
    }

    @Test("each shape's join table is named, laid out and filled as Core Data's rule says, and reads back", arguments: shapes)
    func shapeLayout(shape: Shape) throws {
        let model = shape.model()
        let url = try CoreDataStoreLayoutTests.createStore(model, fill: shape.fill)
        let statements = try CoreDataStoreLayoutTests.statements(url)
        let joinStatements = statements.filter { $0.contains("TABLE Z_") || $0.contains("INDEX Z_") }
            .filter { !$0.contains("Z_PRIMARYKEY") && !$0.contains("Z_METADATA") }
        #expect(joinStatements.sorted() == shape.statements.sorted())
        #expect(try Self.rows(shape.query, in: url) == shape.rows)

        // Read back through a new coordinator: the rows the query named, from both sides.
        let container = try CoreDataStoreLayoutTests.open(url, model: model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var pairs: Set<String> = []
            for entity in model.entities {
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)) where object.entity === entity {
                    let key = entity.attributesByName["uuid"] == nil ? "name" : "uuid"
                    let name = object.value(forKey: key) as? String ?? "?"
                    for relationship in entity.relationshipsByName.values where relationship.isToMany && relationship.inverseRelationship?.isToMany == true {
                        let members: [ManagedObject]
                        switch object.value(forKey: relationship.name) {
                        case let ordered as [ManagedObject]: members = ordered
                        case let unordered as Set<ManagedObject>: members = Array(unordered)
                        default: members = []
                        }
                        for member in members {
                            let memberName = member.value(forKey: key) as? String ?? "?"
                            let inverse = try #require(relationship.inverseRelationship)
                            // Each pair seen from both sides, once as the relationship, once as its inverse.
                            let mirrored = (member.value(forKey: inverse.name) as? [ManagedObject]).map(Set.init)
                                ?? member.value(forKey: inverse.name) as? Set<ManagedObject> ?? []
                            #expect(mirrored.contains(object), "\(name).\(relationship.name) has \(memberName), whose \(inverse.name) lacks \(name)")
                            pairs.insert("\(name) \(relationship.name) \(memberName)")
                        }
                    }
                }
            }
            // One pair per row, seen once from each side; a relationship that is its own
            // inverse has a row for each side already.
            let reflexive = model.entities.contains { $0.relationshipsByName.values.contains { $0.inverseRelationship === $0 } }
            #expect(pairs.count == shape.rows.count * (reflexive ? 1 : 2), "\(pairs.sorted())")
        }
    }
}
