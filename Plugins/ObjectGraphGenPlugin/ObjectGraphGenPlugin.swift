import Foundation
import PackagePlugin

/// `swift package objectgraph-gen MODEL --output DIR`: runs `objectgraph-gen` on an Xcode
/// model, writing typed classes into the package (a relative `--output` is relative to the
/// package). Every argument passes through to the tool.
@main
struct ObjectGraphGenPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "objectgraph-gen")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit && process.terminationStatus == 0 else {
            Diagnostics.error("objectgraph-gen \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
            return
        }
    }
}
