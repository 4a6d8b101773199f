import Foundation
import TestSupport
import Testing

/// A burst of browsers arriving while the server is busy — a class opening the tour at once,
/// every event stream reconnecting after a restart — waits in the kernel's queue of
/// connections and is served, instead of having its connection attempts dropped and retried
/// after 1, 3, 7, 15 s (what a listen backlog of 256, Hummingbird's default, did to the 500
/// streams of a load test on a loaded machine: some waited over a minute).
@Suite("A burst of connections on a real spot serve")
struct ConnectionBurstTests {
    /// Python's sockets, against a server stopped with SIGSTOP so that it accepts nothing:
    /// every connection the kernel queues completes its handshake at once; one it does not
    /// stays pending. Then the server goes on and every queued connection asks `/health`.
    private static let script = """
        import os, select, signal, socket, sys, time
        port, pid, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
        sockets = []
        os.kill(pid, signal.SIGSTOP)
        try:
            for _ in range(count):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(("127.0.0.1", port))
                sockets.append(s)
            pending = {s.fileno(): s for s in sockets}
            poller = select.poll()
            for s in sockets: poller.register(s, select.POLLOUT)
            deadline = time.monotonic() + 10
            while pending and time.monotonic() < deadline:
                for fd, _ in poller.poll(100):
                    if pending.pop(fd, None) is not None: poller.unregister(fd)
            connected = [s for s in sockets if s.fileno() not in pending and s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0]
        finally:
            os.kill(pid, signal.SIGCONT)
        print("connected", len(connected), flush=True)
        answered = 0
        for s in connected:
            s.setblocking(True)
            s.settimeout(30)
            s.sendall(b"GET /health HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n")
            reply = b""
            while b"\\r\\n" not in reply:
                chunk = s.recv(4096)
                if not chunk: break
                reply += chunk
            if reply.startswith(b"HTTP/1.1 200"): answered += 1
            s.close()
        print("answered", answered, flush=True)
        """

    @Test(.timeLimit(.minutes(5)))
    func aBurstArrivingWhileTheServerCannotAcceptIsQueuedAndServed() async throws {
        try await LiveEventLoadTests.withServer { server, base in
            let port = try #require(URL(string: base)?.port)
            let count = 600
            let output = try await Self.runBurst(port: port, pid: server.processIdentifier, count: count)
            #expect(output.contains("connected \(count)\n"), "every connection was queued while the server accepted nothing: \(output)")
            #expect(output.contains("answered \(count)\n"), "and each was answered once it went on: \(output)")
            #expect(try await server.stop(signal: SIGTERM) == 0)
        }
    }

    /// Runs the script on a thread of its own (it blocks for as long as the burst takes) and
    /// returns what it printed.
    private static func runBurst(port: Int, pid: Int32, count: Int) async throws -> String {
        try await OwnThread.run {
            try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, "\(port)", "\(pid)", "\(count)"]).output
        }
    }
}
