public import Foundation

/// A model version a staged migration names by its checksum — Core Data's
/// `NSManagedObjectModelReference`.
///
/// The reference holds the model itself, or where to find it: a model file or bundle
/// (`.xcdatamodeld`, `.xcdatamodel`, `.momd`, `.mom`), whose version with
/// ``versionChecksum`` is the one meant. The model is found when a migration needs it, and a
/// reference that finds no version with its checksum fails the migration, naming both.
///
/// ```swift
/// let v1 = ManagedObjectModelReference(fileURL: modelURL, versionChecksum: "u970QgYhRH…")
/// let v2 = ManagedObjectModelReference(model: currentModel, versionChecksum: currentModel.versionChecksum)
/// let stage = CustomMigrationStage(migratingFrom: v1, to: v2)
/// ```
public final class ManagedObjectModelReference: Sendable {
    private enum Source: Sendable {
        case model(ManagedObjectModel)
        case file(URL)
    }

    private let source: Source
    /// The checksum of the version meant (``ManagedObjectModel/versionChecksum``).
    public let versionChecksum: String

    /// A reference to `model`, which must have `versionChecksum`.
    public init(model: ManagedObjectModel, versionChecksum: String) {
        source = .model(model)
        self.versionChecksum = versionChecksum
    }

    /// A reference to the version with `versionChecksum` of the model at `fileURL`: an
    /// `.xcdatamodeld` or `.momd` bundle (any of its versions), or a single `.xcdatamodel` or
    /// `.mom`.
    public init(fileURL: URL, versionChecksum: String) {
        source = .file(fileURL)
        self.versionChecksum = versionChecksum
    }

    /// A reference to the version with `versionChecksum` of the model named `name`
    /// (`name.momd`, else `name.xcdatamodeld`) in `bundle` (the main bundle when `nil`).
    public convenience init(name: String, in bundle: Bundle?, versionChecksum: String) {
        let bundle = bundle ?? .main
        let url =
            bundle.url(forResource: name, withExtension: "momd") ?? bundle.url(forResource: name, withExtension: "xcdatamodeld")
            ?? bundle.bundleURL.appendingPathComponent("\(name).momd")
        self.init(fileURL: url, versionChecksum: versionChecksum)
    }

    /// The model version the reference names.
    ///
    /// - Throws: ``ObjectGraphError`` when the model cannot be read, or none of its versions
    ///   has the reference's checksum (the message lists the checksums found).
    public var resolvedModel: ManagedObjectModel {
        get throws {
            let candidates: [ManagedObjectModel]
            let place: String
            switch source {
            case .model(let model):
                candidates = [model]
                place = "the model given"
            case .file(let url):
                candidates = try Self.versions(at: url)
                place = url.path
            }
            if let model = candidates.first(where: { $0.versionChecksum == versionChecksum }) { return model }
            throw ObjectGraphError(
                .persistentStoreIncompatibleVersionHash,
                "no version of \(place) has the version checksum \(versionChecksum); its versions have \(candidates.map(\.versionChecksum).joined(separator: ", "))"
            )
        }
    }

    /// Every version of the model at `url`.
    private static func versions(at url: URL) throws -> [ManagedObjectModel] {
        switch url.pathExtension {
        case "xcdatamodeld", "xcdatamodel":
            return try ManagedObjectModelBundle(contentsOf: url).versions.map(\.model)
        case "momd":
            let files = try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            return try files.filter { $0.pathExtension == "mom" }.sorted { $0.path < $1.path }.map { try ManagedObjectModel(contentsOf: $0) }
        default:
            return [try ManagedObjectModel(contentsOf: url)]
        }
    }
}
