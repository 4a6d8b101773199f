import Foundation
import ObjectGraph
import TestSupport

/// The Xcode model fixtures under `Fixtures/XcodeModels`, as copied into the test bundle.
enum XcodeFixtures {
    /// The folder holding the fixtures.
    static let folder: URL = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            preconditionFailure("the test bundle has no Fixtures folder")
        }
        return url.appendingPathComponent("XcodeModels")
    }()

    /// The fixture at `relativePath` (e.g. `"Company.xcdatamodeld"`).
    static func url(_ relativePath: String) -> URL {
        folder.appendingPathComponent(relativePath)
    }

    /// A fresh temporary folder, for models written by a test.
    static func temporaryFolder() throws -> URL {
        let url = TestDirectory.make("objectgraph-xcode")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension ManagedObjectModel {
    /// The entity named `name`, which a test requires.
    func entity(_ name: String) -> EntityDescription? { entitiesByName[name] }
}

extension EntityDescription {
    /// The attribute named `name` among the entity's own properties.
    func attribute(_ name: String) -> AttributeDescription? {
        properties.first { $0.name == name } as? AttributeDescription
    }

    /// The relationship named `name` among the entity's own properties.
    func relationship(_ name: String) -> RelationshipDescription? {
        properties.first { $0.name == name } as? RelationshipDescription
    }
}
