/// How the sandbox misbehaves: latency, fault rates and scripted faults.
///
/// Set it at start (``SandboxConfiguration/behavior``), in process
/// (``FlickrSandbox/setBehavior(_:)``) or over HTTP (`POST /__sandbox/behavior` with this
/// struct as JSON; missing fields take their defaults). Rates are probabilities from 0 to 1,
/// drawn from a generator seeded with ``seed``, so the same requests in the same order meet
/// the same faults. ``nextFaults`` are applied first, in order, one per request they apply
/// to — the way to script "fail twice, then succeed".
///
/// ```json
/// {"seed": 7, "restLatencyMilliseconds": 250, "http503Rate": 0.1, "nextFaults": ["http500"]}
/// ```
public struct SandboxBehavior: Sendable, Hashable, Codable {
    /// Seeds the draws of the rates below.
    public var seed: UInt64
    /// Delay before every REST answer, on the sandbox's clock.
    public var restLatencyMilliseconds: Int
    /// Delay before every image answer ("slow images"), on the sandbox's clock.
    public var imageLatencyMilliseconds: Int
    /// Share of requests answered HTTP 500.
    public var http500Rate: Double
    /// Share of requests answered HTTP 503.
    public var http503Rate: Double
    /// Share of REST calls answered `stat: fail` with code 105.
    public var statFailRate: Double
    /// Share of REST calls answered with broken JSON.
    public var malformedJSONRate: Double
    /// Share of image requests answered with half a JPEG.
    public var truncatedImageRate: Double
    /// Share of requests whose connection is dropped.
    public var dropConnectionRate: Double
    /// Faults for the next requests, in order, before any rate is drawn.
    public var nextFaults: [SandboxFault]

    /// A well-behaved sandbox unless told otherwise.
    public init(
        seed: UInt64 = 0,
        restLatencyMilliseconds: Int = 0,
        imageLatencyMilliseconds: Int = 0,
        http500Rate: Double = 0,
        http503Rate: Double = 0,
        statFailRate: Double = 0,
        malformedJSONRate: Double = 0,
        truncatedImageRate: Double = 0,
        dropConnectionRate: Double = 0,
        nextFaults: [SandboxFault] = []
    ) {
        self.seed = seed
        self.restLatencyMilliseconds = restLatencyMilliseconds
        self.imageLatencyMilliseconds = imageLatencyMilliseconds
        self.http500Rate = http500Rate
        self.http503Rate = http503Rate
        self.statFailRate = statFailRate
        self.malformedJSONRate = malformedJSONRate
        self.truncatedImageRate = truncatedImageRate
        self.dropConnectionRate = dropConnectionRate
        self.nextFaults = nextFaults
    }

    private enum CodingKeys: String, CodingKey {
        case seed, restLatencyMilliseconds, imageLatencyMilliseconds, http500Rate, http503Rate, statFailRate
        case malformedJSONRate, truncatedImageRate, dropConnectionRate, nextFaults
    }

    /// Decodes a behaviour; every field is optional and defaults as in ``init(seed:restLatencyMilliseconds:imageLatencyMilliseconds:http500Rate:http503Rate:statFailRate:malformedJSONRate:truncatedImageRate:dropConnectionRate:nextFaults:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            seed: try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0,
            restLatencyMilliseconds: try c.decodeIfPresent(Int.self, forKey: .restLatencyMilliseconds) ?? 0,
            imageLatencyMilliseconds: try c.decodeIfPresent(Int.self, forKey: .imageLatencyMilliseconds) ?? 0,
            http500Rate: try c.decodeIfPresent(Double.self, forKey: .http500Rate) ?? 0,
            http503Rate: try c.decodeIfPresent(Double.self, forKey: .http503Rate) ?? 0,
            statFailRate: try c.decodeIfPresent(Double.self, forKey: .statFailRate) ?? 0,
            malformedJSONRate: try c.decodeIfPresent(Double.self, forKey: .malformedJSONRate) ?? 0,
            truncatedImageRate: try c.decodeIfPresent(Double.self, forKey: .truncatedImageRate) ?? 0,
            dropConnectionRate: try c.decodeIfPresent(Double.self, forKey: .dropConnectionRate) ?? 0,
            nextFaults: try c.decodeIfPresent([SandboxFault].self, forKey: .nextFaults) ?? []
        )
    }

    /// The rate of `fault` in this behaviour.
    func rate(of fault: SandboxFault) -> Double {
        switch fault {
        case .http500: http500Rate
        case .http503: http503Rate
        case .serviceUnavailable: statFailRate
        case .malformedJSON: malformedJSONRate
        case .truncatedImage: truncatedImageRate
        case .dropConnection: dropConnectionRate
        }
    }
}
