import Foundation

/// One fetched object with the values it was sorted by when the controller last looked.
///
/// The keys are kept because an object has already changed when the controller hears of it:
/// its old position is found by its old keys.
struct FetchedEntry {
    let object: ManagedObject
    let id: ManagedObjectID
    let keys: [Value]

    var primaryKey: Int64 { id.primaryKey }
}

/// A sorted sequence of entries kept in chunks, so that inserting or removing one entry moves
/// at most a chunk's worth of references instead of the whole list.
///
/// Chunks are arrays inside an array: a copy of the run is cheap, and changing the copy
/// copies only the chunks it touches (how the controller keeps the previous content for
/// diffing and rollback).
struct OrderedRun {
    private(set) var chunks: [[FetchedEntry]] = []
    private(set) var count = 0

    private static let maximumChunk = 512

    init() {}

    /// Builds a run from entries already in order.
    init(sorted entries: [FetchedEntry]) {
        let size = Self.maximumChunk / 2
        var start = 0
        while start < entries.count {
            let end = min(start + size, entries.count)
            chunks.append(Array(entries[start..<end]))
            start = end
        }
        count = entries.count
    }

    var isEmpty: Bool { count == 0 }
    var first: FetchedEntry? { chunks.first?.first }
    var last: FetchedEntry? { chunks.last?.last }

    /// Every entry, in order.
    var entries: [FetchedEntry] {
        var all: [FetchedEntry] = []
        all.reserveCapacity(count)
        for chunk in chunks { all.append(contentsOf: chunk) }
        return all
    }

    /// The entry at `row`; walks the chunk counts, so cost grows with `count / 512`.
    subscript(row: Int) -> FetchedEntry {
        var remaining = row
        for chunk in chunks {
            if remaining < chunk.count { return chunk[remaining] }
            remaining -= chunk.count
        }
        preconditionFailure("row \(row) out of range 0..<\(count)")
    }

    /// Where an entry with these keys is, or would be inserted.
    func search(_ keys: [Value], _ primaryKey: Int64, in order: FetchSortOrder) -> (chunk: Int, offset: Int, found: Bool) {
        guard !chunks.isEmpty else { return (0, 0, false) }
        // The first chunk whose last entry is not before the key.
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let mid = (low + high) / 2
            let last = chunks[mid][chunks[mid].count - 1]
            if order.compare(last.keys, last.primaryKey, keys, primaryKey) == .orderedAscending { low = mid + 1 } else { high = mid }
        }
        let chunk = chunks[low]
        var lower = 0
        var upper = chunk.count
        while lower < upper {
            let mid = (lower + upper) / 2
            if order.compare(chunk[mid].keys, chunk[mid].primaryKey, keys, primaryKey) == .orderedAscending { lower = mid + 1 } else { upper = mid }
        }
        let found =
            lower < chunk.count && chunk[lower].primaryKey == primaryKey
            && order.compare(chunk[lower].keys, chunk[lower].primaryKey, keys, primaryKey) == .orderedSame
        return (low, lower, found)
    }

    /// The row of a position returned by ``search(_:_:in:)``.
    func row(chunk: Int, offset: Int) -> Int {
        var row = offset
        for index in 0..<chunk { row += chunks[index].count }
        return row
    }

    /// The row of the entry with these keys, if it is in the run.
    func row(of keys: [Value], _ primaryKey: Int64, in order: FetchSortOrder) -> Int? {
        let position = search(keys, primaryKey, in: order)
        return position.found ? row(chunk: position.chunk, offset: position.offset) : nil
    }

    /// Inserts an entry at its sorted place.
    mutating func insert(_ entry: FetchedEntry, in order: FetchSortOrder) {
        count += 1
        guard !chunks.isEmpty else {
            chunks = [[entry]]
            return
        }
        var position = search(entry.keys, entry.primaryKey, in: order)
        if position.offset == chunks[position.chunk].count, position.chunk + 1 < chunks.count {
            position = (position.chunk + 1, 0, false)
        }
        chunks[position.chunk].insert(entry, at: position.offset)
        if chunks[position.chunk].count > Self.maximumChunk {
            let tail = Array(chunks[position.chunk][(Self.maximumChunk / 2)...])
            chunks[position.chunk].removeLast(tail.count)
            chunks.insert(tail, at: position.chunk + 1)
        }
    }

    /// Removes the entry with these keys; returns whether it was there.
    @discardableResult
    mutating func remove(_ keys: [Value], _ primaryKey: Int64, in order: FetchSortOrder) -> Bool {
        let position = search(keys, primaryKey, in: order)
        guard position.found else { return false }
        count -= 1
        chunks[position.chunk].remove(at: position.offset)
        if chunks[position.chunk].isEmpty { chunks.remove(at: position.chunk) }
        return true
    }
}
