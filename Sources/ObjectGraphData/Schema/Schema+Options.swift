import Foundation
import ObjectGraph

extension Schema {
    /// An attribute's options, from `@Attribute(…)`.
    public struct Attribute: Sendable {
        /// An attribute option, as SwiftData's `Schema.Attribute.Option`.
        public struct Option: Sendable, Hashable {
            let name: String
            /// Values are unique among the entity's objects: inserting a model whose value is
            /// already stored updates the stored one (an upsert).
            public static let unique = Option(name: "unique")
            /// Large data may be kept in a file beside the store (Core Data's external storage).
            public static let externalStorage = Option(name: "externalStorage")
            /// The value stays in persistent history when its object is deleted (a tombstone).
            public static let preserveValueOnDeletion = Option(name: "preserveValueOnDeletion")
            /// Accepted for source compatibility; Linux has no Spotlight, so it does nothing.
            public static let spotlight = Option(name: "spotlight")
            /// Accepted for source compatibility; there is no CloudKit here, so it does nothing.
            public static let allowsCloudEncryption = Option(name: "allowsCloudEncryption")
            /// The value is not saved (Core Data's transient attribute).
            public static let ephemeral = Option(name: "ephemeral")
        }

        /// The options.
        public let options: [Option]
        /// The property's name in the previous schema version.
        public let originalName: String?
        /// Changes the property's version hash.
        public let hashModifier: String?

        /// Options as `@Attribute` takes them.
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
        }
    }

    /// A relationship's options, from `@Relationship(…)`.
    public struct Relationship: @unchecked Sendable {
        // @unchecked Sendable: the inverse key path is an immutable value.

        /// A relationship option.
        public struct Option: Sendable, Hashable {
            let name: String
            /// Accepted for source compatibility (SwiftData's unique relationship); no effect.
            public static let unique = Option(name: "unique")
        }

        /// What deleting the model does to the models it relates to, as SwiftData's rules.
        public enum DeleteRule: String, Sendable, Hashable, Codable {
            /// Related models lose their reference to the deleted one (the default).
            case nullify
            /// Related models are deleted too.
            case cascade
            /// The delete fails (at save) while related models remain.
            case deny
            /// Related models are left as they are.
            case noAction

            var objectGraphRule: ObjectGraph.DeleteRule {
                switch self {
                case .nullify: .nullify
                case .cascade: .cascade
                case .deny: .deny
                case .noAction: .noAction
                }
            }
        }

        /// The options.
        public let options: [Option]
        /// The delete rule.
        public let deleteRule: DeleteRule
        /// The fewest related models a to-many relationship may have at save (0: no minimum).
        public let minimumModelCount: Int?
        /// The most related models a to-many relationship may have at save (0: no maximum).
        public let maximumModelCount: Int?
        /// The property's name in the previous schema version.
        public let originalName: String?
        /// The inverse relationship's key path on the destination model.
        public let inverse: AnyKeyPath?
        /// Changes the property's version hash.
        public let hashModifier: String?

        /// Options as `@Relationship` takes them.
        public init(
            _ options: Option...,
            deleteRule: DeleteRule = .nullify,
            minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0,
            originalName: String? = nil,
            inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.originalName = originalName
            self.inverse = inverse
            self.hashModifier = hashModifier
        }
    }
}
