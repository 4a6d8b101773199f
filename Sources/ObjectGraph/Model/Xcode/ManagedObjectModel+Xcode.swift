public import Foundation

extension ManagedObjectModel {
    /// Reads a model from an Xcode model: the current version of an `.xcdatamodeld` bundle,
    /// or a single `.xcdatamodel` version — the XML `contents` file Xcode 4 and later write —
    /// or from the model Xcode compiled from one, as apps ship it: a `.mom` file, or the
    /// current version of a `.momd` folder (the one its `VersionInfo.plist` names).
    ///
    /// What the model cannot hold (fetched properties, configurations, fetch request templates,
    /// attribute types ObjectGraph lacks, unknown elements and attributes) and what it holds
    /// with a difference (a value transformer nobody registered, a derived attribute) is listed
    /// in ``importReport``. To read every version, use ``ManagedObjectModelBundle``.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: url, modelClasses: ["Photo": Photo.self, "Tag": Tag.self])
    /// if let report = model.importReport, !report.isEmpty { print(report) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: An `.xcdatamodeld` or `.xcdatamodel` folder, a `.mom` file or a `.momd` folder.
    ///   - modelClasses: Classes to bind entities to, keyed by entity name or by the class name
    ///     the model gives (`representedClassName`, with or without a module prefix); other
    ///     entities are bound to ``ManagedObject``.
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/invalidModelFile``,
    ///   naming the path, when `url` is not an Xcode model, has no `contents` (or only Xcode
    ///   3's binary format), or `contents` is malformed XML (with line and column), or a
    ///   compiled model is not a keyed archive of a model.
    public convenience init(contentsOf url: URL, modelClasses: [String: ManagedObject.Type] = [:]) throws {
        let read: ManagedObjectModel
        switch url.pathExtension {
        case "mom":
            read = try CompiledModelReader.readMom(at: url, modelClasses: modelClasses)
        case "momd":
            read = try CompiledModelReader.readMomd(at: url, modelClasses: modelClasses)
        default:
            read = try Self.readXcodeModel(at: url, modelClasses: modelClasses)
        }
        self.init()
        entities = read.entities
        versionIdentifiers = read.versionIdentifiers
        importReport = read.importReport
    }

    /// The model in the `.xcdatamodeld` or `.xcdatamodel` folder at `url`.
    private static func readXcodeModel(at url: URL, modelClasses: [String: ManagedObject.Type]) throws -> ManagedObjectModel {
        let read: ManagedObjectModel
        switch try XcodeModelReader.kind(of: url) {
        case .version:
            read = try XcodeModelReader.readVersion(at: url, modelClasses: modelClasses)
        case .bundle:
            // Only the current version is read: an old version's problems do not stop the app.
            let (urls, current) = try XcodeModelReader.versions(inBundle: url)
            let currentURL = urls.first { $0.deletingPathExtension().lastPathComponent == current } ?? urls[urls.count - 1]
            read = try XcodeModelReader.readVersion(at: currentURL, modelClasses: modelClasses)
            if current == nil { XcodeModelReader.noteMissingCurrentVersion(in: read, name: currentURL.deletingPathExtension().lastPathComponent) }
        }
        return read
    }
}
