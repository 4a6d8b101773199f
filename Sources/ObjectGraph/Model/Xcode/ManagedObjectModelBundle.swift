public import Foundation

/// Every version of an Xcode model bundle (`.xcdatamodeld`), in order, and the current one —
/// what a migration walks through, version by version.
///
/// ```swift
/// let bundle = try ManagedObjectModelBundle(contentsOf: modelURL, modelClasses: ["Photo": Photo.self])
/// print(bundle.versions.map(\.name))      // ["Model", "Model 2", "Model 3"]
/// let container = PersistentContainer(name: "Photos", managedObjectModel: bundle.currentModel)
/// ```
///
/// Versions are ordered by name as Xcode numbers them ("Model", "Model 2", … "Model 10"); the
/// current one is the version `.xccurrentversion` names (without that file, the last). A single
/// `.xcdatamodel` folder reads as a bundle of one version.
public struct ManagedObjectModelBundle: Sendable {
    /// One version of the model: its name and the model it describes.
    public struct Version: Sendable {
        /// The version's name: its folder name without `.xcdatamodel` (`"Model 2"`).
        public let name: String
        /// The `.xcdatamodel` folder.
        public let url: URL
        /// The model this version describes; its ``ManagedObjectModel/importReport`` lists what
        /// the reader skipped. A container that loads it freezes it.
        public let model: ManagedObjectModel
    }

    /// The bundle (or single version) read.
    public let url: URL
    /// Every version, oldest first.
    public let versions: [Version]
    /// The name of the current version (`.xccurrentversion`'s `_XCCurrentVersionName`, without
    /// its extension).
    public let currentVersionName: String

    /// Reads every version of the `.xcdatamodeld` bundle at `url` (or the single `.xcdatamodel`
    /// version at `url`).
    ///
    /// - Parameters:
    ///   - url: An `.xcdatamodeld` or `.xcdatamodel` folder.
    ///   - modelClasses: Classes to bind entities to, keyed by entity name or by the class name
    ///     the model gives (`representedClassName`, with or without a module prefix); other
    ///     entities are bound to ``ManagedObject``.
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/invalidModelFile``,
    ///   naming the path, when `url` is not an Xcode model, a version has no `contents` (or
    ///   only Xcode 3's binary format), `contents` is malformed XML (with line and column), or
    ///   `.xccurrentversion` names a version that is not there.
    public init(contentsOf url: URL, modelClasses: [String: ManagedObject.Type] = [:]) throws {
        self.url = url
        switch try XcodeModelReader.kind(of: url) {
        case .version:
            let model = try XcodeModelReader.readVersion(at: url, modelClasses: modelClasses)
            let name = url.deletingPathExtension().lastPathComponent
            versions = [Version(name: name, url: url, model: model)]
            currentVersionName = name
        case .bundle:
            let (urls, current) = try XcodeModelReader.versions(inBundle: url)
            versions = try urls.map { versionURL in
                Version(
                    name: versionURL.deletingPathExtension().lastPathComponent,
                    url: versionURL,
                    model: try XcodeModelReader.readVersion(at: versionURL, modelClasses: modelClasses)
                )
            }
            if let current {
                currentVersionName = current
            } else {
                let last = versions[versions.count - 1]
                currentVersionName = last.name
                XcodeModelReader.noteMissingCurrentVersion(in: last.model, name: last.name)
            }
        }
    }

    /// A bundle of `versions` made in code (the last is current); empty for a staged
    /// migration whose stages name their own versions.
    init(versions: [Version]) {
        url = URL(fileURLWithPath: "/dev/null")
        self.versions = versions
        currentVersionName = versions.last?.name ?? ""
    }

    /// The current version.
    public var currentVersion: Version {
        versions.first { $0.name == currentVersionName } ?? versions[versions.count - 1]
    }

    /// The current version's model.
    public var currentModel: ManagedObjectModel { currentVersion.model }

    /// The version named `name`, if the bundle has it.
    public func version(named name: String) -> Version? {
        versions.first { $0.name == name }
    }

    /// The names of every version, oldest first.
    public var versionNames: [String] { versions.map(\.name) }
}
