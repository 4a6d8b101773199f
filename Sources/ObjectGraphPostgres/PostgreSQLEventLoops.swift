import PostgresNIO

/// The event loops every PostgreSQL store's connections run on: threads of their own, shared
/// by the stores of a process.
///
/// postgres-nio's default is NIO's process-wide singleton group, which an HTTP server in the
/// same process (Hummingbird's default) also serves its connections on. Decoding a save's
/// or a merge's result rows there holds up every HTTP connection of that loop; on loops of
/// their own, the database's protocol work competes only for the processor.
enum PostgreSQLEventLoops {
    /// The group: as many threads as cores, at most two; queries of one store use one
    /// connection at a time, and a connection stays on one loop.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: min(2, System.coreCount))
}
