import Foundation
import ObjectGraph
import Testing

@Suite("Xcode models: versions")
struct XcodeModelVersionTests {
    @Test("a bundle lists every version in Xcode's order, with the current one")
    func versions() throws {
        let bundle = try ManagedObjectModelBundle(contentsOf: XcodeFixtures.url("Company.xcdatamodeld"))
        #expect(bundle.versionNames == ["Company", "Company 2", "Company 3", "Company 4"])
        #expect(bundle.currentVersionName == "Company 4")
        #expect(bundle.currentVersion.url.lastPathComponent == "Company 4.xcdatamodel")
        #expect(bundle.currentModel.versionIdentifiers == ["4"])
        #expect(bundle.versions.allSatisfy { $0.model.importReport?.isEmpty == true })
        #expect(bundle.version(named: "Company 9") == nil)

        let v1 = try #require(bundle.version(named: "Company")?.model)
        #expect(v1.entities.map(\.name) == ["Company", "Person"])
        #expect(v1.entity("Person")?.attribute("email")?.isOptional == true)

        // v2 adds an entity, an attribute and a relationship; email turns required with a default.
        let v2 = try #require(bundle.version(named: "Company 2")?.model)
        #expect(v2.entities.map(\.name) == ["Address", "Company", "Person"])
        let email = try #require(v2.entity("Person")?.attribute("email"))
        #expect(!email.isOptional && email.defaultValue as? String == "")
        #expect(v2.entity("Person")?.attribute("birthday")?.attributeType == .date)
        #expect(v2.entity("Person")?.relationship("addresses")?.deleteRule == .cascade)

        // v3 renames an entity and an attribute, and moves Person under an abstract parent.
        let v3 = try #require(bundle.version(named: "Company 3")?.model)
        #expect(v3.entities.map(\.name) == ["Address", "Organization", "Party", "Person"])
        #expect(v3.entity("Organization")?.renamingIdentifier == "Company")
        #expect(v3.entity("Person")?.attribute("fullName")?.renamingIdentifier == "name")
        #expect(v3.entity("Party")?.isAbstract == true)

        // v4 turns employer (to-one) into employers (to-many), renamed; adds a required default.
        let v4 = bundle.currentModel
        let employers = try #require(v4.entity("Person")?.relationship("employers"))
        #expect(employers.isToMany && employers.renamingIdentifier == "employer")
        #expect(v4.entity("Organization")?.relationship("employees")?.isOrdered == true)
        #expect(v4.entity("Address")?.attribute("country")?.defaultValue as? String == "US")
        #expect(v4.entity("Organization")?.uniquenessConstraints == [["name"]])
        #expect(v4.entity("Person")?.indexes.map(\.name) == ["byEmail"])

        // Each version is a model of its own that validates, with its own version hash.
        for version in bundle.versions { try version.model.validate() }
        #expect(Set(bundle.versions.map(\.model.versionHash)).count == 4)
    }

    @Test("ManagedObjectModel(contentsOf:) on a bundle reads the current version")
    func currentVersion() throws {
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Company.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["Address", "Organization", "Party", "Person"])
        #expect(model.entity("Person")?.relationship("employers") != nil)
        let single = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Company.xcdatamodeld/Company 2.xcdatamodel"))
        #expect(single.entities.map(\.name) == ["Address", "Company", "Person"])
    }

    @Test("versions are ordered with numbers compared as numbers; without .xccurrentversion the last is current")
    func numericOrder() throws {
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        let source = XcodeFixtures.url("Company.xcdatamodeld/Company.xcdatamodel")
        for name in ["Model", "Model 2", "Model 10", "Model 9"] {
            try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: bundle.appendingPathComponent("\(name).xcdatamodel"))
        }
        let read = try ManagedObjectModelBundle(contentsOf: bundle)
        #expect(read.versionNames == ["Model", "Model 2", "Model 9", "Model 10"])
        #expect(read.currentVersionName == "Model 10")
        #expect(read.currentModel.importReport?.entries.first?.item == ".xccurrentversion")
        let current = try ManagedObjectModel(contentsOf: bundle)
        #expect(
            current.importReport?.entries.map(\.message) == ["the bundle has no .xccurrentversion: its last version, 'Model 10', is taken as current"]
        )
    }

    @Test("a single .xcdatamodel reads as a bundle of one version")
    func singleVersion() throws {
        let bundle = try ManagedObjectModelBundle(contentsOf: XcodeFixtures.url("Media.xcdatamodel"))
        #expect(bundle.versionNames == ["Media"])
        #expect(bundle.currentVersionName == "Media")
    }
}
