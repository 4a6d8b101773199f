import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// The `objectgraph` command, run as a child process on PostgreSQL stores of the test server
/// (`postgres://` URLs): inspect, query and browse read them through ObjectGraph, with the
/// model the store keeps; a bad URL fails at once, naming what is wrong.
@Suite("objectgraph command on PostgreSQL", .timeLimit(.minutes(3)))
struct ObjectGraphToolPostgreSQLTests {
    /// Runs `objectgraph` with `arguments` to its end: exit status, standard output and
    /// standard error (through a file, so neither pipe can fill while the other is read).
    static func run(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        try run(arguments)
    }

    /// A new schema holding a store of ``SPoTModel``: three photographers, five photos (two of
    /// Ansel's), two tags; the objects are saved by ObjectGraph and read back by the tool.
    static func makeStore() throws -> URL {
        let url = try StoreKind.newPostgresSchemaURL(prefix: "tool")
        let stack = try TestStack(description: PersistentStoreDescription(postgreSQLURL: url))
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photographers = ["Ansel", "Dorothea", "Imogen"].map { name in
                let photographer = Photographer(context: context)
                photographer.name = name
                return photographer
            }
            let tags = ["stanford", "tower"].map { name in
                let tag = Tag(context: context)
                tag.name = name
                return tag
            }
            for (index, title) in ["Quad", "Hoover Tower", "Oval", "Dish", "Memorial Church"].enumerated() {
                let photo = Photo(context: context)
                photo.unique = "photo-\(index)"
                photo.title = title
                photo.views = Int64(index * 10)
                photo.photographer = photographers[index % 3 == 0 ? 0 : index % 3]
                photo.tags = index == 1 ? Set(tags) : [tags[0]]
            }
            try context.save()
        }
        return url
    }

    /// The schema a store URL names.
    static func schema(of url: URL) throws -> String {
        try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
    }

    @Test("inspect a postgres:// URL: the store type, UUID and model hash from its metadata, each entity's own rows")
    func inspect() throws {
        let url = try Self.makeStore()
        let stored = try PostgresShell.run(#"SELECT "Z_UUID" || ' ' || "Z_MODELHASH" FROM "Z_METADATA""#, in: url)
        let (uuid, hash) = try #require(stored.first.map { ($0.split(separator: " ")[0], $0.split(separator: " ")[1]) })
        let (status, output, errors) = try Self.run("inspect", url.absoluteString)
        #expect(status == 0, "\(errors)")
        #expect(
            output == """
                store: \(url.absoluteString)
                written by: ObjectGraph
                layout: ObjectGraph
                store type: PostgreSQL
                store UUID: \(uuid)
                model version hash: \(hash)
                metadata keys: NSStoreModelVersionHashes, NSStoreType, NSStoreUUID, formatVersion, layout, model, modelVersionHash, storeUUID, versionHashHistory

                ENTITY        PARENT  ROWS
                Photo                 5
                Photographer          3
                Recent                0
                Tag                   2

                """
        )
        // The row counts are the server's own.
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTO""#, in: url) == ["5"])
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTOGRAPHER""#, in: url) == ["3"])
    }

    @Test("query a postgres:// URL with the model the store keeps: a predicate across a relationship, sorted, as JSON")
    func query() throws {
        let url = try Self.makeStore()
        let (status, output, errors) = try Self.run(
            "query", url.absoluteString, "Photo", "--predicate", "photographer.name == 'Ansel' OR ANY tags.name == 'tower'", "--sort=-title",
            "--format", "json"
        )
        #expect(status == 0, "\(errors)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        // Ansel took photos 0 and 3 (Quad, Dish); photo 1 (Hoover Tower) is the one tagged tower.
        #expect(objects.compactMap { $0["title"] as? String } == ["Quad", "Hoover Tower", "Dish"])
        #expect(objects.compactMap { $0["views"] as? Int } == [0, 10, 30])
        let photographerKeys = try PostgresShell.run(#"SELECT "Z_PK" FROM "ZPHOTOGRAPHER" WHERE "ZNAME" = 'Ansel'"#, in: url)
        #expect(objects.first?["photographer"] as? String == "Photographer/\(photographerKeys.first ?? "?")")

        let table = try Self.run("query", url.absoluteString, "Photographer", "--sort", "name", "--format", "tsv")
        #expect(table.status == 0, "\(table.errors)")
        #expect(table.output.split(separator: "\n").map { $0.split(separator: "\t").dropFirst().joined(separator: "\t") } == [
            "name", "Ansel", "Dorothea", "Imogen",
        ])
    }

    @Test("browse a postgres:// URL: entity counts and a filtered entity page are the server's")
    func browse() async throws {
        let url = try Self.makeStore()
        try await BrowseServer.run(url) { server in
            let entities = try await server.get("/entities")
            #expect(entities.status == 200)
            #expect(ObjectGraphBrowseTests.count(of: "Photo", in: entities.body) == 5)
            #expect(ObjectGraphBrowseTests.count(of: "Photographer", in: entities.body) == 3)
            #expect(ObjectGraphBrowseTests.count(of: "Tag", in: entities.body) == 2)
            let filtered = try await server.get("/entities/Photo?predicate=photographer.name%20%3D%3D%20%27Ansel%27")
            #expect(filtered.status == 200)
            #expect(filtered.body.contains("2 objects matching"), "\(filtered.body)")
            #expect(ObjectGraphBrowseTests.objectLinks(filtered.body).count == 2)
        }
    }

    @Test("a bad URL fails at once, naming what is wrong: an unreachable server (never its password), a schema without a store (not created), a scheme no store type opens")
    func badURLs() throws {
        let unreachable = "postgres://someone:secret-password@127.0.0.1:1/nowhere"
        for command in ["inspect", "query"] {
            let arguments = command == "query" ? [command, unreachable, "Photo"] : [command, unreachable]
            let process = try Self.run(arguments)
            #expect(process.status != 0)
            #expect(process.output.isEmpty)
            #expect(process.errors.contains("postgres://someone@127.0.0.1:1/nowhere"), "\(command): \(process.errors)")
            #expect(!process.errors.contains("secret-password"), "\(command): \(process.errors)")
        }

        let empty = try StoreKind.newPostgresSchemaURL(prefix: "toolnone")
        let schema = try Self.schema(of: empty)
        for arguments in [["inspect", empty.absoluteString], ["query", empty.absoluteString, "Photo"], ["browse", empty.absoluteString, "--port", "0"]] {
            let process = try Self.run(arguments)
            #expect(process.status != 0)
            #expect(process.errors.contains("the schema \(schema) at ") && process.errors.contains("holds no ObjectGraph store"), "\(arguments[0]): \(process.errors)")
        }
        let schemas = try PostgresShell.run("SELECT count(*) FROM information_schema.schemata WHERE schema_name = '\(schema)'", in: empty)
        #expect(schemas == ["0"], "reading a schema without a store does not create it")

        let other = try Self.run("inspect", "mysql://someone:secret-password@127.0.0.1/db")
        #expect(other.status != 0)
        #expect(other.errors.contains("objectgraph opens SQLite store files and postgres:// URLs, not mysql:// URLs"), "\(other.errors)")
        #expect(!other.errors.contains("secret-password"))

        let hostless = try Self.run("inspect", "postgres:///spot")
        #expect(hostless.status != 0)
        #expect(hostless.errors.contains("names no host"), "\(hostless.errors)")
    }
}

extension ObjectGraphToolPostgreSQLTests {
    /// Runs `objectgraph` with `arguments` to its end: exit status, standard output and
    /// standard error (through a file, so neither pipe can fill while the other is read).
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = ChildExecutable.url(named: "objectgraph")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let folder = TestDirectory.make("objectgraph-tool-errors")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let errorFile = folder.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let errors = try FileHandle(forWritingTo: errorFile)
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errors.close()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), try String(contentsOf: errorFile, encoding: .utf8))
    }
}
