import Foundation

/// Hands a mapped log's records to several threads a slice at a time and gives their outcomes
/// back in file order, without a barrier: a thread that finishes a slice takes the next one
/// while the caller files what is done, so no core waits for the slowest thread of a batch.
///
/// Threads run at most `window` slices ahead of the caller, which bounds the outcomes held in
/// memory. Each thread maps with a worker of its own (`MappedLogReader.Worker`): a worker's
/// caches are never used by two threads.
final class RecordPipeline: @unchecked Sendable {
    /// Records a thread takes at once: small enough to spread the work evenly, large enough
    /// that taking them is rare.
    static let sliceSize = 512
    /// Slices the threads may run ahead of the caller.
    static let window = 32

    struct Slice {
        var spans: [MappedLogReader.RecordSpan]
        var outcomes: [MappedLogReader.Delivery?]
        /// The events the slice's records gave.
        var batch: MappedLogReader.PreparedBatch
    }

    private let condition = NSCondition()
    private let bytes: UnsafeBufferPointer<UInt8>
    private var cursor: MappedLogReader.RecordCursor
    private var taken = 0
    private var handedBack = 0
    private var done: [Int: Slice] = [:]
    private var exhausted = false
    private var cancelled = false
    /// Who waits on `condition`: each wakes only when what it waits for may have come (a
    /// broadcast for every slice woke the caller thousands of times for nothing).
    private var callerWaits = false
    private var workersWaiting = 0
    /// Records taken so far: all of the file's once `next()` returned nil.
    private(set) var records = 0

    init(cursor: MappedLogReader.RecordCursor, bytes: UnsafeBufferPointer<UInt8>) {
        self.cursor = cursor
        self.bytes = bytes
        exhausted = cursor.isAtEnd
    }

    /// One thread's loop: takes slices and maps each record with `map`, into the slice's batch,
    /// until the records end or the caller cancels.
    func work(_ map: (MappedLogReader.RecordSpan, inout MappedLogReader.PreparedBatch) -> MappedLogReader.Delivery) {
        while true {
            condition.lock()
            while !cancelled, !exhausted, taken - handedBack >= RecordPipeline.window {
                workersWaiting += 1
                condition.wait()
                workersWaiting -= 1
            }
            guard !cancelled, !exhausted else {
                condition.unlock()
                return
            }
            let spans = cursor.next(RecordPipeline.sliceSize, in: bytes)
            let index = taken
            taken += 1
            records += spans.count
            if cursor.isAtEnd {
                exhausted = true
                condition.broadcast()
            }
            condition.unlock()
            var batch = MappedLogReader.PreparedBatch()
            let outcomes = spans.map { Optional(map($0, &batch)) }
            condition.lock()
            done[index] = Slice(spans: spans, outcomes: outcomes, batch: batch)
            if callerWaits, index == handedBack { condition.broadcast() }
            condition.unlock()
        }
    }

    /// The next slice in file order, once it is mapped; nil when every slice was handed back.
    func next() -> Slice? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let slice = done.removeValue(forKey: handedBack) {
                handedBack += 1
                if workersWaiting > 0 { condition.broadcast() }
                return slice
            }
            if exhausted, handedBack == taken { return nil }
            callerWaits = true
            condition.wait()
            callerWaits = false
        }
    }

    /// The line longer than the cap where the records stopped (`RecordCursor.longLine`).
    var longLine: Int? {
        condition.lock()
        defer { condition.unlock() }
        return cursor.longLine
    }

    /// Where a top-level array stopped being JSON (`RecordCursor.syntaxError`).
    var syntaxError: InputError? {
        condition.lock()
        defer { condition.unlock() }
        return cursor.syntaxError
    }

    /// Stops the threads after the slice each is mapping (the caller met an error).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
