// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

// Upcoming language features, as Hummingbird enables them: `any` spelled out on existentials,
// a file sees only the members of modules it imports, and imports are internal unless marked.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SPoT",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        // The PostgreSQL store: its own product, so SQLite-only users do not build postgres-nio.
        .library(name: "ObjectGraphPostgres", targets: ["ObjectGraphPostgres"]),
        // SwiftData's API (`@Model`, `#Predicate` to SQL, `ModelContainer`) over ObjectGraph.
        .library(name: "ObjectGraphData", targets: ["ObjectGraphData"]),
        .library(name: "Flickr", targets: ["Flickr"]),
        .library(name: "SPoTKit", targets: ["SPoTKit"]),
        .library(name: "SPoTWeb", targets: ["SPoTWeb"]),
        .executable(name: "spot", targets: ["spot"]),
        .executable(name: "flickr-sandbox", targets: ["flickr-sandbox"]),
        .executable(name: "objectgraph-gen", targets: ["objectgraph-gen"]),
        .executable(name: "objectgraph", targets: ["objectgraph"]),
        .library(name: "ObjectGraphGenerator", targets: ["ObjectGraphGenerator"]),
        .plugin(name: "ObjectGraphGenPlugin", targets: ["ObjectGraphGenPlugin"]),
    ],
    // PostgreSQL in the `spot` executable: off by default, so `swift run spot serve` builds no
    // PostgreSQL client (postgres-nio, swift-crypto); `swift run --traits PostgreSQL spot …`
    // turns it on for `--database postgres://…`, and the test command (Scripts/test) does.
    // The ObjectGraphPostgres library itself is always there for packages that depend on it.
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The spot executable links ObjectGraphPostgres, so --database postgres://… works"
        )
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The web tests' HTTP client (the app's Flickr client is on URLSession).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // spot-webbench's event-stream client (`--sse`); already in the graph through Hummingbird.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // SPoTWeb's event-stream channel handler reads HTTP parts as swift-http-types; already
        // in the graph through Hummingbird.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // MARK: ObjectGraph — Core Data's programming model on Linux.
        .macro(
            name: "ObjectGraphMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "ObjectGraphMacros",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The C API on statements GRDB prepared, for binding and decoding rows.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Warnings, such as a store option spelled as Core Data does not spell it.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The PostgreSQL store, on postgres-nio's `PostgresClient` (its connection pool).
        .target(
            name: "ObjectGraphPostgres",
            dependencies: [
                "ObjectGraph",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Xcode model fixtures (.xcdatamodel/.xcdatamodeld folders) are copied as they are.
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: [
                "ObjectGraph", "ObjectGraphPostgres", "TestSupport", "ObjectGraphPeerModel",
                "objectgraph-memory-walk", "objectgraph-crash-writer", "objectgraph-remote-peer", "objectgraph", "WebDriverKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // A child process whose peak memory is a batched walk's alone, for ObjectGraphTests.
        .executableTarget(
            name: "objectgraph-memory-walk",
            dependencies: ["ObjectGraph", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/ObjectGraphMemoryWalk"
        ),
        // A child process that writes until it is killed, for ObjectGraphTests' crash-safety test.
        .executableTarget(
            name: "objectgraph-crash-writer",
            dependencies: ["ObjectGraph", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/ObjectGraphCrashWriter"
        ),

        // The model ObjectGraphTests' multi-process tests share with their child process.
        .target(name: "ObjectGraphPeerModel", dependencies: ["ObjectGraph"], path: "Tests/ObjectGraphPeerModel"),
        // Process B of the multi-process tests: saves to a store on command (see its main.swift).
        .executableTarget(
            name: "objectgraph-remote-peer",
            dependencies: ["ObjectGraph", "ObjectGraphPeerModel"],
            path: "Tests/ObjectGraphRemotePeer"
        ),

        // MARK: ObjectGraphData — SwiftData's API on Linux, over ObjectGraph's public API.
        // Nothing of the app depends on it, so `spot` does not build it.
        .macro(
            name: "ObjectGraphDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "ObjectGraphData",
            dependencies: ["ObjectGraph", "ObjectGraphDataMacros", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "ObjectGraphDataTests",
            dependencies: ["ObjectGraphData", "ObjectGraph", "ObjectGraphPostgres", "TestSupport"]
        ),

        // MARK: objectgraph-gen — typed classes from an Xcode model (mogenerator's job).
        .target(name: "ObjectGraphGenerator", dependencies: ["ObjectGraph"]),
        .executableTarget(
            name: "objectgraph-gen",
            dependencies: [
                "ObjectGraphGenerator", "ObjectGraph",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // MARK: objectgraph — any store in hand: inspect, query, browse.
        // The entity browser (`objectgraph browse`, SPoT's `/debug/entities`): routes and HTML.
        .target(
            name: "ObjectGraphBrowser",
            dependencies: ["ObjectGraph", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        .executableTarget(
            name: "objectgraph",
            dependencies: [
                "ObjectGraph", "ObjectGraphBrowser",
                // Always, not behind the PostgreSQL trait: the tool is for any store in hand,
                // `postgres://` URLs included, and `swift run spot serve` does not build it.
                "ObjectGraphPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(
            name: "ObjectGraphGenPlugin",
            capability: .command(
                intent: .custom(verb: "objectgraph-gen", description: "Generate typed ManagedObject classes from an Xcode model"),
                permissions: [.writeToPackageDirectory(reason: "objectgraph-gen writes the generated Swift files into the package")]
            ),
            dependencies: ["objectgraph-gen"]
        ),
        // The generator's output for two fixture models, committed and compiled here.
        // With the upcoming features on, as a user's target might have them (Library is generated
        // with public access, Media with internal).
        .testTarget(
            name: "GeneratedModelTests",
            dependencies: ["ObjectGraph", "ObjectGraphGenerator", "objectgraph-gen", "TestSupport"],
            swiftSettings: swiftSettings
        ),

        // MARK: Flickr — the REST client and its loopback sandbox.
        // HTTP through Foundation's URLSession (libcurl, part of the toolchain): the app builds
        // no TLS stack of its own (AsyncHTTPClient's swift-nio-ssl and BoringSSL were ~29 % of a
        // first `swift build --product spot`).
        .target(
            name: "Flickr",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "FlickrSandbox",
            dependencies: [
                "Flickr",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "flickr-sandbox", dependencies: ["FlickrSandbox"]),
        .testTarget(
            name: "FlickrTests",
            dependencies: [
                "Flickr", "FlickrSandbox",
                // Raw requests to the sandbox, beside the client under test.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "FlickrSandboxTests",
            dependencies: [
                "FlickrSandbox",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),

        // MARK: SPoTKit — the app's domain on ObjectGraph.
        .target(
            name: "SPoTKit",
            dependencies: [
                "ObjectGraph", "Flickr",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SPoTKitTests",
            dependencies: [
                "SPoTKit", "ObjectGraph", "Flickr", "FlickrSandbox", "spot", "TestSupport",
                // To lock and forge database files as other programs would.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: SPoTWeb — the tour in the browser.
        .target(
            name: "SPoTWeb",
            dependencies: [
                "SPoTKit", "ObjectGraph", "ObjectGraphBrowser", "Flickr",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("Resources/templates"), .copy("Resources/static"), .copy("Resources/api")]
        ),
        // Drives headless Chromium over W3C WebDriver, for SPoTWeb's browser tests (no dependencies).
        .target(name: "WebDriverKit", path: "Tests/WebDriverKit"),
        // Finds and runs the executables the tests start as child processes (no dependencies).
        .target(name: "TestSupport", dependencies: ["Flickr"], path: "Tests/TestSupport"),
        .testTarget(
            name: "SPoTWebTests",
            dependencies: [
                "SPoTWeb", "SPoTKit", "ObjectGraph", "Flickr", "FlickrSandbox", "spot", "WebDriverKit", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: The executable.
        .executableTarget(
            name: "spot",
            dependencies: [
                "SPoTKit", "SPoTWeb", "Flickr", "FlickrSandbox", "ObjectGraph",
                // The store it wires at its root when built with the PostgreSQL trait.
                .target(name: "ObjectGraphPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: Benchmarks — ObjectGraph against GRDB and raw SQLite, and on PostgreSQL against Fluent
        // and raw postgres-nio (`swift run -c release spot-bench [--postgres URL]`).
        .executableTarget(
            name: "spot-bench",
            dependencies: [
                "ObjectGraph", "ObjectGraphPostgres", "ObjectGraphData", "SPoTKit", "Flickr", "FlickrSandbox",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // The PostgreSQL benchmarks' raw contender (`--postgres URL`); Fluent's is
                // Benchmarks/fluent-bench, a package of its own, run as a child process.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/spot-bench"
        ),
        // The web server under wrk (`swift run -c release spot-webbench [--postgres URL]`).
        .executableTarget(
            name: "spot-webbench",
            dependencies: [
                "SPoTWeb", "SPoTKit", "Flickr", "FlickrSandbox", "ObjectGraph", "ObjectGraphPostgres",
                .product(name: "Logging", package: "swift-log"),
                // `--postgres URL` drops its schema afterwards.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // `--sse`: thousands of EventSource connections on NIO's ClientBootstrap.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/spot-webbench"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Test targets compile as a user's code would, without them, so that Core Data code ported by
// renaming (`FetchedResultsController<FetchRequestResult>`) stays literal there.
for target in package.targets where target.type != .plugin && target.type != .test {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
