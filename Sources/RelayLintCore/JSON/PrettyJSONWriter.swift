import Foundation

/// Writes JSON text byte for byte as Foundation's `JSONEncoder` does with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes`: two-space indent, `"key" : value`, empty
/// containers as `[`, a blank line, `]`, and only `"`, `\` and control characters escaped.
///
/// The JSON report is written through this rather than `JSONEncoder` because the encoder boxes
/// every value and spent seconds on a report of 300k findings on one thread; the report's bytes
/// were fixed by the encoder first, so `JSONReportWriterTests` requires both to agree.
///
/// Members must be written in ascending key order (byte order, as `.sortedKeys` sorts ASCII
/// keys); debug builds check it.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// For each open container, how many members or elements it has so far.
    private var counts: [Int] = []
    #if DEBUG
        private var lastKeys: [String?] = []
    #endif

    /// Where a streaming writer hands its bytes, about a mebibyte at a time; nil keeps them all
    /// in `bytes`.
    private let sink: ((UnsafeBufferPointer<UInt8>) -> Void)?
    private static let flushSize = 1 << 20

    init(capacity: Int = 0) {
        sink = nil
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands its output to `sink` as it goes (after an array element once a
    /// mebibyte is waiting) instead of holding it: a report of 300k findings is 384 MB.
    init(flushingTo sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushSize * 2)
    }

    /// A writer for elements of an array at depth `depth` that has `elementsBefore` elements
    /// already: it writes them as the enclosing writer would (`array(_:parallelism:_:)`).
    private init(elementsAtDepth depth: Int, after elementsBefore: Int) {
        sink = nil
        counts = Array(repeating: 1, count: depth)
        counts[depth - 1] = elementsBefore
        #if DEBUG
            lastKeys = Array(repeating: nil, count: depth)
        #endif
    }

    /// Ends the document with a newline and hands over what a streaming writer still holds.
    mutating func finishLine() {
        bytes.append(0x0A)
        flush()
    }

    private mutating func flush(atLeast minimum: Int = 0) {
        guard let sink, bytes.count >= minimum else { return }
        bytes.withUnsafeBufferPointer(sink)
        bytes.removeAll(keepingCapacity: true)
    }

    /// What a writer that keeps its output wrote, in one copy.
    var text: String {
        precondition(sink == nil, "PrettyJSONWriter: a streaming writer has handed its text over")
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Containers

    mutating func object(_ body: (inout PrettyJSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ write: (inout PrettyJSONWriter, Elements.Element) -> Void) {
        open(UInt8(ascii: "["))
        for element in elements {
            startElement()
            write(&self, element)
            flush(atLeast: Self.flushSize)
        }
        close(UInt8(ascii: "]"))
    }

    /// The bytes `array(_:_:)` writes, with the elements rendered on `parallelism` threads in
    /// batches, a few batches at a time (so that a few hundred kilobytes wait, not the report),
    /// and appended in order.
    mutating func array<Element: Sendable>(
        _ elements: [Element], parallelism: Int, _ write: @Sendable (inout PrettyJSONWriter, Element) -> Void
    ) {
        let batchSize = 256
        guard parallelism > 1, elements.count > batchSize else { return array(elements, write) }
        open(UInt8(ascii: "["))
        let depth = counts.count
        let batches = stride(from: 0, to: elements.count, by: batchSize).map { $0..<min($0 + batchSize, elements.count) }
        // No more batches in flight than the cores can render: more threads than cores run no
        // faster, and a large --jobs would otherwise hold the whole report.
        let inFlight = min(parallelism, ProcessInfo.processInfo.activeProcessorCount) * 2
        for window in stride(from: 0, to: batches.count, by: inFlight) {
            let round = Array(batches[window..<min(window + inFlight, batches.count)])
            let rendered = Linter.parallelMap(round, parallelism: parallelism, serialUpTo: 1) { batch in
                var writer = PrettyJSONWriter(elementsAtDepth: depth, after: batch.lowerBound)
                for element in elements[batch] {
                    writer.startElement()
                    write(&writer, element)
                }
                return writer.bytes
            }
            for part in rendered {
                bytes.append(contentsOf: part)
                flush(atLeast: Self.flushSize)
            }
        }
        counts[depth - 1] = elements.count
        close(UInt8(ascii: "]"))
    }

    /// Starts an object member; the value follows.
    mutating func key(_ name: String) {
        #if DEBUG
            if let last = lastKeys[lastKeys.count - 1] {
                assert(Array(last.utf8).lexicographicallyPrecedes(Array(name.utf8)), "key '\(name)' written after '\(last)'")
            }
            lastKeys[lastKeys.count - 1] = name
        #endif
        startElement()
        string(name)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        counts.append(0)
        #if DEBUG
            lastKeys.append(nil)
        #endif
    }

    private mutating func close(_ bracket: UInt8) {
        let count = counts.removeLast()
        #if DEBUG
            lastKeys.removeLast()
        #endif
        if count == 0 { bytes.append(0x0A) }
        newline()
        bytes.append(bracket)
    }

    private mutating func startElement() {
        if counts[counts.count - 1] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[counts.count - 1] += 1
        newline()
    }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<counts.count { bytes.append(contentsOf: [0x20, 0x20]) }
    }

    // MARK: Values

    mutating func string(_ text: String) { JSONStringEscaping.append(text, to: &bytes) }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    // MARK: Members

    mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    mutating func member(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Leaves the member out when the value is nil, as `encodeIfPresent` does.
    mutating func memberIfPresent(_ name: String, _ value: String?) {
        if let value { member(name, value) }
    }

    mutating func memberIfPresent(_ name: String, _ value: Int?) {
        if let value { member(name, value) }
    }

    /// Writes `null` when the value is nil, as `encode` of an optional does.
    mutating func memberOrNull(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    mutating func member(_ name: String, strings: [String]) {
        key(name)
        array(strings) { $0.string($1) }
    }
}
