import Flickr
import Synchronization

/// The sandbox's mutable state — behaviour, fault draws, timeline epoch and counters — shared
/// by every request handler and the in-process API.
final class SandboxState: Sendable {
    private struct Values {
        var behavior: SandboxBehavior
        var random: SplitMix64
        var epoch: Int
        var stats = SandboxStats()
    }

    private let values: Mutex<Values>
    let catalogue: SandboxCatalogue

    init(behavior: SandboxBehavior, epoch: Int, catalogue: SandboxCatalogue) {
        self.catalogue = catalogue
        self.values = Mutex(
            Values(behavior: behavior, random: SplitMix64(seed: behavior.seed), epoch: Self.clamp(epoch, catalogue))
        )
    }

    private static func clamp(_ epoch: Int, _ catalogue: SandboxCatalogue) -> Int {
        min(max(0, epoch), catalogue.maxEpoch)
    }

    // MARK: Behaviour

    var behavior: SandboxBehavior { values.withLock { $0.behavior } }

    /// Replaces the behaviour and restarts its random draws from its seed.
    func setBehavior(_ behavior: SandboxBehavior) {
        values.withLock {
            $0.behavior = behavior
            $0.random = SplitMix64(seed: behavior.seed)
        }
    }

    /// The fault for the next request of a kind: the first applicable scripted fault, else
    /// one draw against the rates (one number per request, so draws stay reproducible).
    func nextFault(forImage: Bool) -> SandboxFault? {
        values.withLock { values -> SandboxFault? in
            let applies: (SandboxFault) -> Bool = { forImage ? $0.appliesToImages : $0.appliesToREST }
            if let index = values.behavior.nextFaults.firstIndex(where: applies) {
                let fault = values.behavior.nextFaults.remove(at: index)
                values.stats.faults[fault.rawValue, default: 0] += 1
                return fault
            }
            let candidates = SandboxFault.allCases.filter(applies)
            guard candidates.contains(where: { values.behavior.rate(of: $0) > 0 }) else { return nil }
            let draw = Double(values.random.next() >> 11) / Double(1 << 53)
            var threshold = 0.0
            for fault in candidates {
                threshold += values.behavior.rate(of: fault)
                if draw < threshold {
                    values.stats.faults[fault.rawValue, default: 0] += 1
                    return fault
                }
            }
            return nil
        }
    }

    // MARK: Timeline

    var epoch: Int { values.withLock { $0.epoch } }

    /// Moves the epoch by `steps` (clamped to the timeline) and returns the new epoch.
    @discardableResult
    func advanceEpoch(by steps: Int) -> Int {
        values.withLock {
            $0.epoch = Self.clamp($0.epoch + steps, catalogue)
            return $0.epoch
        }
    }

    /// Sets the epoch (clamped to the timeline) and returns it.
    @discardableResult
    func setEpoch(_ epoch: Int) -> Int {
        values.withLock {
            $0.epoch = Self.clamp(epoch, catalogue)
            return $0.epoch
        }
    }

    /// The catalogue's photos at the current epoch.
    var currentPhotos: [SandboxPhoto] { catalogue.photos(atEpoch: epoch) }

    // MARK: Counters

    var stats: SandboxStats { values.withLock { $0.stats } }

    func resetStats() {
        values.withLock { $0.stats = SandboxStats() }
    }

    /// Counts one request of `route`, and of photo `photoID` at size `suffix` for images.
    func record(route: String, photoID: String? = nil, suffix: String? = nil) {
        values.withLock {
            $0.stats.requests += 1
            $0.stats.routes[route, default: 0] += 1
            if let photoID {
                let size = suffix.map { $0.isEmpty ? "-" : $0 } ?? "?"
                $0.stats.photos[photoID, default: [:]][size, default: 0] += 1
            }
        }
    }
}
