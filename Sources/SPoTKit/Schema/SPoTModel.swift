public import ObjectGraph

/// SPoT's managed object model: Photo, Tag, Photographer, Recent and Thumbnail.
public enum SPoTModel {
    /// How many recently viewed photos are kept.
    public static let maxRecents = 20

    /// A new model (a model is bound to one coordinator's classes, so each store gets its own).
    public static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Photo", class: Photo.self) {
                AttributeDescription("unique", .string, optional: false)
                AttributeDescription("title", .string, optional: false, defaultValue: "Unknown")
                AttributeDescription("subtitle", .string, optional: false, defaultValue: "")
                AttributeDescription("sectionTitle", .string, optional: false, defaultValue: "#", indexed: true)
                AttributeDescription("spotTitle", .string, optional: false, defaultValue: "")
                AttributeDescription("spotList", .string, optional: false, defaultValue: "")
                AttributeDescription("server", .string)
                AttributeDescription("secret", .string)
                AttributeDescription("farm", .integer64, optional: false, defaultValue: Int64(0))
                AttributeDescription("originalSecret", .string)
                AttributeDescription("originalFormat", .string)
                AttributeDescription("uploadDate", .date)
                AttributeDescription("latitude", .double)
                AttributeDescription("longitude", .double)
                AttributeDescription("hidden", .boolean, optional: false, defaultValue: false, indexed: true)
                // Nullify both ways: a spot or a photo going away never takes the other with it.
                RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true, deleteRule: .nullify)
                // Nullify: deleting a photo leaves its photographer (with their other photos).
                RelationshipDescription("photographer", to: "Photographer", inverse: "photos", deleteRule: .nullify)
                // Cascade: a recent entry means nothing without its photo.
                RelationshipDescription("recent", to: "Recent", inverse: "photo", deleteRule: .cascade)
            }
            .unique("unique")
            EntityDescription("Tag", class: Tag.self) {
                AttributeDescription("name", .string, optional: false)
                AttributeDescription("displayName", .string, optional: false, defaultValue: "")
                AttributeDescription("rank", .integer16, optional: false, defaultValue: Int16(1))
                AttributeDescription("photoCount", .integer64, optional: false, defaultValue: Int64(0))
                // Nullify: a spot's photos stay in their other spots (and in "All").
                RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true, deleteRule: .nullify)
            }
            .unique("name")
            EntityDescription("Photographer", class: Photographer.self) {
                AttributeDescription("userID", .string, optional: false)
                AttributeDescription("name", .string, optional: false, defaultValue: "")
                AttributeDescription("photoCount", .integer64, optional: false, defaultValue: Int64(0))
                // Deny: a photographer is removed only once none of their photos remain, so no
                // photo is ever left without its author by accident.
                RelationshipDescription("photos", to: "Photo", inverse: "photographer", toMany: true, deleteRule: .deny)
            }
            .unique("userID")
            EntityDescription("Recent", class: Recent.self) {
                AttributeDescription("lastViewed", .date, optional: false, indexed: true)
                // Nullify: forgetting that a photo was viewed leaves the photo alone.
                RelationshipDescription("photo", to: "Photo", inverse: "recent", deleteRule: .nullify)
            }
            // Keyed by the photo's id rather than related to it: saving a downloaded thumbnail
            // must not change the Photo, or every open list would show a row update per thumbnail.
            EntityDescription("Thumbnail", class: Thumbnail.self) {
                AttributeDescription("photoID", .string, optional: false)
                AttributeDescription("data", .binaryData, optional: false)
            }
            .unique("photoID")
        }
    }
}
