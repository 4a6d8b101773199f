import Foundation
import ObjectGraphData

/// Models for the behaviour and predicate tests (the library app's are in LibraryApp.swift).
@Model
final class Tag {
    @Attribute(.unique, .preserveValueOnDeletion) var name: String
    var uses: Int = 0
    var photos: [Photo] = []

    init(name: String, uses: Int = 0) {
        self.name = name
        self.uses = uses
    }
}

@Model
final class Photo {
    var title: String
    var views: Int
    var rating: Double?
    var caption: String?
    var taken: Date?
    var identifier: UUID?
    var isFavorite: Bool = false
    var kind: Kind = Kind.photo
    var tags: [Tag] = []
    var place: Place?

    init(title: String, views: Int = 0, rating: Double? = nil, caption: String? = nil) {
        self.title = title
        self.views = views
        self.rating = rating
        self.caption = caption
    }

    /// A Codable enum with raw values, stored as its raw value.
    enum Kind: String, Codable, Sendable, CaseIterable {
        case photo, panorama, video
    }
}

@Model
final class Place {
    var name: String
    var elevation: Int?
    @Relationship(deleteRule: .deny) var photos: [Photo] = []

    init(name: String, elevation: Int? = nil) {
        self.name = name
        self.elevation = elevation
    }
}

/// A container of the test models, in memory unless a configuration is given.
func makeContainer(_ configuration: ModelConfiguration = ModelConfiguration(isStoredInMemoryOnly: true)) throws -> ModelContainer {
    try ModelContainer(for: Photo.self, Tag.self, Place.self, configurations: configuration)
}
