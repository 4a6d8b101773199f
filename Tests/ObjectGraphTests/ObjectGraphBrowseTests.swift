import Foundation
import TestSupport
import Testing

/// `objectgraph browse`, run as a child process on copies of the fixture stores and read over
/// HTTP; counts and values are compared with what the reference reader (Python's `sqlite3`)
/// reads from the same file.
@Suite("objectgraph browse", .timeLimit(.minutes(3)))
struct ObjectGraphBrowseTests {
    static let sampleModel = "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"
    static let sampleModel3 = "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"

    /// The count the entities page shows for `entity`.
    static func count(of entity: String, in body: String) -> Int? {
        // An abstract entity's name is followed by " (abstract)".
        guard let row = body.range(of: #"<a href="/entities/\#(entity)">\#(entity)</a>"#)?.upperBound,
            let start = body[row...].range(of: #"<td class="number">"#)?.upperBound
        else { return nil }
        return Int(body[start...].prefix { $0.isNumber })
    }

    /// The object links of an entity's page, in order.
    static func objectLinks(_ body: String) -> [String] {
        body.components(separatedBy: #"<li><a href=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("the entities page lists every entity with the reference reader's count, with the store's own model")
    func entitiesWithTheStoresModel() async throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let before = try Data(contentsOf: store)
        try await BrowseServer.run(store) { server in
            let root = try await server.get("/")
            #expect(root.status == 200, "/ leads to the entities")
            #expect(root.body.contains("<h1 id=\"debug-title\">Entities</h1>"))
            let entities = try await server.get("/entities")
            #expect(entities.status == 200)
            for entity in ["Car", "SportCar", "ExpensiveSportCar", "Person"] {
                let reference = try CoreDataStoreFixtures.reference(["entity", store.path, entity])
                #expect(Self.count(of: entity, in: entities.body) == reference["count"] as? Int, "\(entity)")
            }
        }
        #expect(try Data(contentsOf: store) == before, "browsing leaves the file as it was")
    }

    @Test("with no model given, a store opens with the model in its Z_MODELCACHE (rows in its -wal too) and shows every entity's count")
    func entitiesWithTheCachedModelAndAWAL() async throws {
        let store = try CoreDataStoreFixtures.copy("objcio-Moody/Moody.moody")
        try await BrowseServer.run(store) { server in
            let entities = try await server.get("/entities")
            #expect(entities.status == 200)
            let names = entities.body.components(separatedBy: #"<tr><td><a href="/entities/"#).dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
            let first = try #require(names.first)
            let stored = try #require(try CoreDataStoreFixtures.reference(["entity", store.path, first])["names"] as? [String: String])
            #expect(Set(names) == Set(stored.values))
            for name in names {
                let reference = try CoreDataStoreFixtures.reference(["entity", store.path, name])
                #expect(Self.count(of: name, in: entities.body) == reference["count"] as? Int, "\(name)")
            }
        }
    }

    @Test("an entity's page filters with a predicate, pages, and links to objects whose values are the reference reader's")
    func objectsFilteredAndFollowed() async throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let reference = try #require(try CoreDataStoreFixtures.reference(["entity", store.path, "Car"])["rows"] as? [String: [String: Any]])
        try await BrowseServer.run(store, ["--model", CoreDataStoreFixtures.url(Self.sampleModel).path]) { server in
            let all = try await server.get("/entities/Car")
            #expect(all.status == 200)
            #expect(all.body.contains("\(reference.count) objects · page 1 of 3"))
            #expect(Self.objectLinks(all.body).count == 50)
            let last = try await server.get("/entities/Car?page=3")
            #expect(Self.objectLinks(last.body).count == reference.count - 100)

            let owned = reference.filter { $0.value["ZOWNER"] is Int }
            let predicate = "owner.firstName != nil AND numberPlate BEGINSWITH '1'"
            let query = "predicate=" + (predicate.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let filtered = try await server.get("/entities/Car?" + query)
            #expect(filtered.status == 200)
            let expected = owned.filter { ($0.value["ZNUMBERPLATE"] as? String)?.hasPrefix("1") == true }
            #expect(filtered.body.contains("\(expected.count) objects matching"), "\(expected.count)")
            #expect(
                filtered.body.contains(#"value="owner.firstName != nil AND numberPlate BEGINSWITH &#39;1&#39;""#),
                "the field keeps the predicate"
            )
            let next = try #require(filtered.body.components(separatedBy: #"rel="next""#).first?.components(separatedBy: "href=\"").last)
            #expect(next.hasPrefix("/entities/Car?predicate=owner.firstName%20%21%3D%20nil"), "the next page keeps the predicate: \(next)")

            let link = try #require(Self.objectLinks(filtered.body).first)
            let object = try await server.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(object.status == 200)
            let title = try #require(object.body.components(separatedBy: #"<h1 id="debug-title">"#).dropFirst().first?.prefix { $0 != "<" })
            let pk = try #require(title.split(separator: " ").last.map(String.init))
            let row = try #require(reference[pk])
            #expect(object.body.contains(#"<th scope="row">numberPlate</th><td>\#(row["ZNUMBERPLATE"] as? String ?? "?")</td>"#))
            #expect(object.body.contains(#"<th scope="row">maker</th><td>\#(row["ZMAKER"] as? String ?? "?")</td>"#))
            let owner = try #require(row["ZOWNER"] as? Int)
            #expect(object.body.contains(#"%2FPerson%2Fp\#(owner)">Person \#(owner)</a>"#), "the owner is a link to Person \(owner)")
        }
    }

    @Test("a bad predicate is a 400 page naming the position and the token, never a 500")
    func badPredicates() async throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        try await BrowseServer.run(store, ["--model", CoreDataStoreFixtures.url(Self.sampleModel3).path]) { server in
            let syntax = try await server.get("/entities/User?predicate=name%20%3D%3D%20AND%20petName")
            #expect(syntax.status == 400)
            #expect(syntax.body.contains("Unexpected token &#39;AND&#39; at position 8"), "\(syntax.body)")
            let unknown = try await server.get("/entities/User?predicate=nosuchkey%20%3D%3D%201")
            #expect(unknown.status == 400, "\(unknown.body)")
            #expect(unknown.body.contains("nosuchkey"))
            #expect(try await server.get("/entities/Nobody").status == 404)
            #expect(try await server.get("/entities/User?page=0").status == 400)
            #expect(try await server.get("/object?uri=garbage").status == 400)
        }
    }

    @Test("strings from the store are escaped on every page")
    func storeStringsAreEscaped() async throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let script =
            "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); db.execute(\"UPDATE ZUSER SET ZNAME='<script>alert(1)</script>' WHERE Z_PK=2\"); db.commit()"
        let (status, _) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, store.path])
        #expect(status == 0)
        try await BrowseServer.run(store, ["--model", CoreDataStoreFixtures.url(Self.sampleModel3).path]) { server in
            let list = try await server.get("/entities/User?predicate=name+BEGINSWITH+%27%3C%27")
            #expect(list.body.contains("1 objects matching"))
            #expect(list.body.contains("name: &lt;script&gt;alert(1)&lt;/script&gt;"))
            let link = try #require(Self.objectLinks(list.body).first)
            let object = try await server.get(link)
            #expect(object.body.contains("<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>"))
            for body in [list.body, object.body] { #expect(!body.contains("<script>")) }
        }
    }
}
