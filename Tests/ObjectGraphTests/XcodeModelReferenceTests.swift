import Foundation
import ObjectGraph
import Testing

/// A model read from an Xcode file is linked the moment it is read, as Core Data's is:
/// destinations, inverses and parents, before any container opens it.
@Suite("Xcode models: references set at load")
struct XcodeModelReferenceTests {
    @Test("destinationEntity, inverseRelationship and superentity are set without a container")
    func linkedAtLoad() throws {
        let model = try ManagedObjectModel(
            contentsOf: CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld/Moody.xcdatamodel")
        )
        let country = try #require(model.entity("Country"))
        let continent = try #require(model.entity("Continent"))
        let region = try #require(model.entity("GeographicRegion"))
        let mood = try #require(model.entity("Mood"))

        let toContinent = try #require(country.relationship("continent"))
        #expect(toContinent.destinationEntity === continent)
        #expect(toContinent.inverseRelationship === continent.relationship("countries"))
        #expect(continent.relationship("countries")?.inverseRelationship === toContinent)
        #expect(mood.relationship("country")?.destinationEntity === country)
        #expect(mood.relationship("country")?.inverseRelationship === country.relationship("moods"))

        #expect(country.superentity === region)
        #expect(continent.superentity === region)
        #expect(Set(region.subentities.map(\.name)) == ["Continent", "Country"])
    }

    @Test("every version of a bundle is linked, and a container still loads it")
    func bundleVersionsLinked() throws {
        let bundle = try ManagedObjectModelBundle(contentsOf: CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld"))
        #expect(bundle.versions.count == 6)
        for version in bundle.versions {
            for entity in version.model.entities {
                for case let relationship as RelationshipDescription in entity.properties {
                    #expect(relationship.destinationEntity != nil, "\(version.name): \(entity.name).\(relationship.name)")
                    #expect(relationship.inverseRelationship != nil, "\(version.name): \(entity.name).\(relationship.name)")
                }
            }
        }
        try bundle.currentModel.validate()
        let country = try #require(bundle.currentModel.entity("Country"))
        #expect(country.relationship("moods")?.destinationEntity === bundle.currentModel.entity("Mood"))
    }
}
