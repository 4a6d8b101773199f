import FlickrSandbox
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Fault rates are reproducible under a seed; scripted faults come first.
@Suite struct SandboxFaultTests {
    static let echo = "/services/rest/?method=flickr.test.echo&api_key=k&format=json&nojsoncallback=1"

    func statuses(seed: UInt64, count: Int = 40) async throws -> [Int] {
        let sandbox = FlickrSandbox(configuration: SandboxConfiguration(behavior: SandboxBehavior(seed: seed, http500Rate: 0.3, http503Rate: 0.2)))
        return try await Application(router: sandbox.buildRouter()).test(.router) { client in
            var statuses: [Int] = []
            for _ in 0..<count {
                statuses.append(Int(try await client.execute(uri: Self.echo, method: .get).status.code))
            }
            return statuses
        }
    }

    @Test func sameSeedSameFaults() async throws {
        let first = try await statuses(seed: 7)
        let second = try await statuses(seed: 7)
        #expect(first == second)
        #expect(Set(first) == [200, 500, 503], "all three outcomes occur")
        let failures = first.filter { $0 != 200 }.count
        #expect((8...32).contains(failures), "about half fail: \(failures) of 40")
        #expect(try await statuses(seed: 8) != first, "another seed, another sequence")
    }

    @Test func scriptedFaultsComeFirstInOrderAndOnlyWhereTheyApply() async throws {
        let sandbox = FlickrSandbox(
            configuration: SandboxConfiguration(behavior: SandboxBehavior(nextFaults: [.truncatedImage, .serviceUnavailable, .http503]))
        )
        try await Application(router: sandbox.buildRouter()).test(.router) { client in
            let first = try await client.execute(uri: Self.echo, method: .get)
            #expect(String(buffer: first.body) == #"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#)
            #expect(try await client.execute(uri: Self.echo, method: .get).status == .serviceUnavailable)
            #expect(try await client.execute(uri: Self.echo, method: .get).status == .ok)
            #expect(sandbox.behavior.nextFaults == [.truncatedImage], "an image fault waits for an image")
            #expect(sandbox.stats.faults == ["serviceUnavailable": 1, "http503": 1])
        }
    }

    @Test func malformedJSONIsCutShort() async throws {
        let sandbox = FlickrSandbox(configuration: SandboxConfiguration(behavior: SandboxBehavior(malformedJSONRate: 1)))
        try await Application(router: sandbox.buildRouter()).test(.router) { client in
            let body = String(buffer: try await client.execute(uri: Self.echo, method: .get).body)
            #expect(body.hasPrefix(#"{"method":{"_content":"flickr.test.echo"}"#))
            #expect(!body.hasSuffix("}"))
            #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8))) == nil)
        }
    }
}
