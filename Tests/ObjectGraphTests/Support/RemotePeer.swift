import Foundation
import ObjectGraphPeerModel
import Synchronization
import TestSupport
import Testing

@testable import ObjectGraph

/// Process B of a multi-process test: `objectgraph-remote-peer` on a store, driven line by line
/// (see its main.swift for the commands).
final class RemotePeer: @unchecked Sendable {
    // @unchecked Sendable: the process and pipes are used from one test at a time; the line
    // buffer is behind its lock.

    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lines: AsyncStream<String>
    private var iterator: AsyncStream<String>.Iterator

    /// Starts the peer on the store at `url`, with extra command-line `arguments`.
    init(store url: URL, arguments: [String] = []) throws {
        process.executableURL = ChildExecutable.url(named: "objectgraph-remote-peer")
        process.arguments = [url.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        let (lines, continuation) = AsyncStream<String>.makeStream()
        self.lines = lines
        iterator = lines.makeAsyncIterator()
        let buffer = Mutex(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete = buffer.withLock { buffer -> [String] in
                buffer.append(data)
                var found: [String] = []
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    found.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return found
            }
            for line in complete { continuation.yield(line) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Sends one command without waiting for a reply.
    func write(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Sends one command and returns the peer's reply; fails the test on an error reply.
    @discardableResult
    func send(_ command: String) async throws -> String {
        write(command)
        let reply = try #require(await nextLine(), "the peer exited during '\(command)'")
        #expect(reply.hasPrefix("ok"), "'\(command)': \(reply)")
        return reply
    }

    /// The next line the peer printed; `nil` once it exited.
    func nextLine() async -> String? {
        await iterator.next()
    }

    /// Kills the peer with SIGKILL, wherever it is, and waits for it to be gone.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Asks the peer to exit and waits for it.
    func quit() {
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        process.waitUntilExit()
    }
}
