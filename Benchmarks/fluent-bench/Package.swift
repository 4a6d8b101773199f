// swift-tools-version:6.2
import PackageDescription

// fluent-bench: the Fluent contender of spot-bench's PostgreSQL benchmarks, in a package of its
// own so that Fluent (and its drivers) never becomes a dependency of SPoT's root package.
// `swift build -c release --package-path Benchmarks/fluent-bench`; spot-bench runs the binary
// as a child process, one workload per run (see Sources/fluent-bench/main.swift).
//
// FluentKit with its PostgreSQL driver, used as a server outside Vapor uses them: `Databases`
// on an event loop group. The `fluent` package itself only wires these into Vapor.
let package = Package(
    name: "fluent-bench",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "fluent-bench",
            dependencies: [
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
