import Foundation
import ObjectGraph
import Testing

@Suite("Xcode models: refusals")
struct XcodeModelRefusalTests {
    private func refusal(_ url: URL) throws -> ObjectGraphError {
        let error = try #require(throws: ObjectGraphError.self) { try ManagedObjectModel(contentsOf: url) }
        #expect(error.code == .invalidModelFile)
        return error
    }

    @Test("a folder that is not a model is refused, naming it")
    func notAModel() throws {
        let url = XcodeFixtures.url("Broken/NotAModel")
        let error = try refusal(url)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("is not an Xcode model"))
    }

    @Test("a missing path and a plain file are refused, naming them")
    func missingAndFile() throws {
        let missing = XcodeFixtures.url("Nowhere.xcdatamodeld")
        #expect(try refusal(missing).message == "there is no Xcode model at \(missing.path): no such file or folder")
        let file = XcodeFixtures.url("Broken/NotAModel/README.txt")
        #expect(try refusal(file).message.contains("\(file.path) is not an Xcode model: a model is a folder"))
    }

    @Test("Xcode 3's binary elements format is refused, naming the folder")
    func binaryElements() throws {
        let url = XcodeFixtures.url("Broken/Legacy.xcdatamodel")
        let error = try refusal(url)
        #expect(error.message.hasPrefix("\(url.path) is in the binary format of Xcode 3"))
    }

    @Test("a version without contents is refused, naming it")
    func missingContents() throws {
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = folder.appendingPathComponent("Empty.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        #expect(try refusal(version).message == "\(version.path) is not an Xcode model: it has no 'contents' file")
        let bundle = folder.appendingPathComponent("Empty.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        #expect(try refusal(bundle).message.contains("holds no .xcdatamodel version"))
    }

    @Test("malformed XML is refused with the file, line and column")
    func malformedXML() throws {
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = folder.appendingPathComponent("Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = version.appendingPathComponent("contents")
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Photo" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"
            </entity>
        </model>
        """.write(to: contents, atomically: true, encoding: .utf8)
        let error = try refusal(version)
        #expect(error.message.hasPrefix("\(contents.path):5:"))
        #expect(error.message.contains("malformed XML at line 5"))
    }

    @Test("a contents file that is not a data model is refused")
    func wrongDocument() throws {
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = folder.appendingPathComponent("Other.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n"
            .write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        #expect(try refusal(version).message.contains("its root element is <plist>, not <model>"))
    }

    @Test("a current version that is not in the bundle is refused")
    func unknownCurrentVersion() throws {
        let folder = try XcodeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Company.xcdatamodeld")
        try FileManager.default.copyItem(at: XcodeFixtures.url("Company.xcdatamodeld"), to: bundle)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("Company 4.xcdatamodel"))
        let error = try #require(throws: ObjectGraphError.self) { try ManagedObjectModelBundle(contentsOf: bundle) }
        #expect(error.message.contains("names 'Company 4.xcdatamodel' as the current version"))
        #expect(error.message.contains(bundle.path))
    }
}
