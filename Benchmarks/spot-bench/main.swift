import Foundation

// spot-bench: ObjectGraph against GRDB and the raw SQLite C API, on the same data, in one
// process. `swift run -c release spot-bench [--runs N] [--filter TEXT] [--quick]`.

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == MemoryBenchmark.childFlag {
    do {
        try MemoryBenchmark.runChild(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("spot-bench memory child: \(error)\n".utf8))
        exit(1)
    }
}

if arguments.first == RemoteChangeBenchmark.childFlag {
    do {
        try RemoteChangeBenchmark.runChild(arguments: Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("spot-bench remote writer: \(error)\n".utf8))
        exit(1)
    }
}

let options: Options
do {
    options = try Options(arguments: arguments)
} catch let error as OptionsError {
    if !error.message.isEmpty { print("spot-bench: \(error.message)") }
    print(Options.usage)
    exit(error.message.isEmpty ? 0 : 2)
}

exit(BenchmarkRunner(options: options).run())
