import Foundation
import Glibc
import ObjectGraph

/// What watching for other processes' commits costs while nobody writes: this process's CPU
/// time over a few idle seconds with a store open, remote change notifications on and off.
struct RemoteIdleBenchmark: Benchmark {
    let seconds: Double

    var name: String { "remote changes: idle store, \(Int(seconds)) s (CPU % of one core)" }
    var unit: MeasurementUnit { .percent }
    var notes: [String] {
        [
            "remote idle: the process's CPU time (clock(), every thread) while it sleeps \(Int(seconds)) s with one store open and a context merging automatically, divided by the wall time; \"on\": history + remote change notifications (a PRAGMA data_version every 40 ms), \"off\": the same store without them. Target: ≤ 1 % of one core"
        ]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        func idle(notifications: Bool) -> () throws -> Sample {
            {
                let container = try RemoteChangeBenchmark.remoteContainer(at: workspace.freshURL("idle"), notifications: notifications)
                let context = container.newBackgroundContext()
                context.automaticallyMergesChangesFromParent = true
                let start = Self.cpuSeconds()
                usleep(UInt32(seconds * 1_000_000))
                let used = Self.cpuSeconds() - start
                withExtendedLifetime(container) {}
                return Sample(value: used / seconds * 100, checksum: 0)
            }
        }
        return [
            Contender(name: "ObjectGraph, remote change notifications on", role: .objectGraph, run: idle(notifications: true)),
            Contender(name: "ObjectGraph, remote change notifications off", role: .baseline, run: idle(notifications: false)),
        ]
    }

    /// This process's CPU time so far, in seconds.
    static func cpuSeconds() -> Double {
        Double(clock()) / Double(CLOCKS_PER_SEC)
    }
}
