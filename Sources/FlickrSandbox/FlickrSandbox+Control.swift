public import Flickr
import Foundation

extension FlickrSandbox {
    /// Request counters since start or the last ``resetStats()``.
    public var stats: SandboxStats { state.stats }

    /// Sets every counter back to zero.
    public func resetStats() {
        state.resetStats()
    }

    /// The current misbehaviour.
    public var behavior: SandboxBehavior { state.behavior }

    /// Replaces the misbehaviour from the next request on; its random draws restart from
    /// its seed.
    public func setBehavior(_ behavior: SandboxBehavior) {
        state.setBehavior(behavior)
    }

    /// The timeline epoch: 0 is the catalogue as first seen.
    public var epoch: Int { state.epoch }

    /// The last epoch that changes anything; advancing past it changes nothing.
    public var maxEpoch: Int { state.catalogue.maxEpoch }

    /// Moves the timeline forward by `steps` epochs (new photos, an edited title, a deleted
    /// photo, …) and returns the new epoch.
    @discardableResult
    public func advanceEpoch(by steps: Int = 1) -> Int {
        state.advanceEpoch(by: steps)
    }

    /// Sets the timeline epoch (clamped to `0...maxEpoch`) and returns it.
    @discardableResult
    public func setEpoch(_ epoch: Int) -> Int {
        state.setEpoch(epoch)
    }

    /// A client configuration that points at this running sandbox, or `nil` when stopped.
    public func clientConfiguration(apiKey: FlickrAPIKey = FlickrAPIKey("sandbox-key")) -> FlickrConfiguration? {
        baseURL.map { FlickrConfiguration.sandbox(baseURL: $0, apiKey: apiKey) }
    }
}
