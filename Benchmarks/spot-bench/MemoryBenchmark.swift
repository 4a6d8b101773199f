import Foundation
import GRDB
import GRDBSQLite
import ObjectGraph

/// Peak resident memory while walking `rows` objects, each contender in a child process of its
/// own (this binary re-run with a hidden argument), so no other benchmark's peak counts.
struct MemoryBenchmark: Benchmark {
    let rows: Int
    let batchSize: Int

    /// The hidden argument that makes the binary a memory child.
    static let childFlag = "--memory-child"

    var name: String { "memory: walk \(rows.formatted) objects (peak RSS)" }
    var unit: MeasurementUnit { .megabytes }
    var fixedRuns: Int? { 1 }
    var notes: [String] {
        [
            "memory: VmHWM of a child process; ObjectGraph sets fetchBatchSize = \(batchSize): the result is an array of faults that fill a batch at a time, two batches kept filled; GRDB and raw C iterate a cursor. 1 run (deterministic)"
        ]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let url = try workspace.itemStore(rows: rows)
        func child(_ kind: String) -> () throws -> Sample {
            { try Self.spawn(kind: kind, path: url.path, batchSize: batchSize) }
        }
        return [
            Contender(name: "ObjectGraph typed, fetchBatchSize \(batchSize)", role: .objectGraph, run: child("objectgraph")),
            Contender(name: "GRDB records (fetchCursor)", role: .grdb, run: child("grdb")),
            Contender(name: "raw SQLite C (step loop)", role: .baseline, run: child("raw")),
        ]
    }

    /// Runs this binary as a memory child and reads its report.
    private static func spawn(kind: String, path: String, batchSize: Int) throws -> Sample {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [childFlag, kind, path, String(batchSize)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 2, let kilobytes = Double(fields[0]), let checksum = Int64(fields[1]) else {
            throw RawConnection.Failure(description: "memory child \(kind) failed (status \(process.terminationStatus)): \(output)")
        }
        return Sample(value: kilobytes / 1024, checksum: checksum)
    }

    /// The child's work: walk every Item in the store at `path`, then print "VmHWM-kB checksum".
    static func runChild(arguments: [String]) throws {
        guard arguments.count == 3, let batchSize = Int(arguments[2]) else {
            throw RawConnection.Failure(description: "usage: \(childFlag) objectgraph|grdb|raw PATH BATCHSIZE")
        }
        let url = URL(fileURLWithPath: arguments[1])
        var sum: Int64 = 0
        switch arguments[0] {
        case "objectgraph":
            let container = try Models.container(Models.item(), at: url)
            let context = container.newBackgroundContext()
            sum = try context.performAndWait {
                let request = Item.fetchRequest()
                request.fetchBatchSize = batchSize
                var sum: Int64 = 0
                for item in try context.fetch(request) {
                    sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                }
                return sum
            }
        case "grdb":
            let pool = try DatabasePool(path: url.path)
            sum = try pool.read { db in
                var sum: Int64 = 0
                let cursor = try ItemRecord.fetchCursor(db, sql: "SELECT * FROM ZITEM ORDER BY Z_PK")
                while let record = try cursor.next() { sum = sum &+ record.sum }
                return sum
            }
        default:
            let connection = try RawConnection(path: url.path)
            let statement = try connection.prepare("SELECT Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ FROM ZITEM ORDER BY Z_PK")
            while sqlite3_step(statement) == SQLITE_ROW {
                for column in Int32(3)..<13 { sum = sum &+ sqlite3_column_int64(statement, column) }
            }
            sqlite3_finalize(statement)
        }
        print("\(MachineInfo.peakResidentKilobytes) \(sum)")
    }
}
