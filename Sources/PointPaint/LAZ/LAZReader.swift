import Foundation
import LAZCodec

/// Reads the points of LAZ files (LAS compressed with the LASzip format): the LASzip record,
/// the chunk table, then the chunks, decoded on every core (`OrderedPipeline`) and handed on in
/// file order. Described in docs/laz.md.
///
/// Memory follows what the bytes decode to, never what a header claims: a chunk is decoded in
/// slices, and at most two chunks a core are in flight.
public enum LAZReader {
    /// Decodes the points of the LAZ file `bytes` (whose header `header` is) and hands `body`
    /// their uncompressed records, in order, a slice at a time.
    /// - Throws: the first error in file order: the LASzip record, the chunk table, or a chunk
    ///   that is truncated or damaged; or what `body` throws.
    /// - Complexity: O(points), spread over the cores.
    public static func forEachRecords(_ bytes: UnsafeRawBufferPointer, header: LASHeader, file: String,
                                      _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let parameters = try LAZParameters(header: header, file: file)
        _ = try LAZChunkDecoder(parameters, file: file)  // unsupported items fail here, before the table
        let chunks = try LAZChunkTable.read(bytes, header: header, parameters: parameters, file: file)
        // Chunks decode on every core and come back in file order (`OrderedPipeline`); the
        // pipeline ends inside this call, so the bytes outlive its threads.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let input = SendableBytes(bytes)
        var position = 0
        // No more threads than chunks: a file of one chunk is decoded on the caller's thread.
        let pipeline = OrderedPipeline<(LAZChunk, Int), [UInt8]>(
            workers: Swift.min(threads, chunks.count) - 1, window: 2 * threads, name: "PointPaint LAZ",
            input: {
                guard position < chunks.count else { return nil }
                defer { position += 1 }
                return (chunks[position], position)
            },
            transform: { chunk, index in try decodeChunk(chunk, index: index, parameters: parameters, bytes: input.bytes, file: file) })
        while let records = try pipeline.next() {
            try records.withUnsafeBytes { try body($0) }
        }
    }

    /// The records of one chunk.
    private static func decodeChunk(_ chunk: LAZChunk, index: Int, parameters: LAZParameters, bytes: UnsafeRawBufferPointer,
                                    file: String) throws -> [UInt8] {
        let decoder = try LAZChunkDecoder(parameters, file: file)
        var records: [UInt8] = []
        records.reserveCapacity(Swift.min(chunk.points, 1 << 16) * decoder.recordLength)
        try decoder.decode(chunk, index: index, in: bytes, file: file) { records.append(contentsOf: $0) }
        return records
    }
}
/// Read-only bytes handed to concurrently running closures; the caller keeps them alive.
private struct SendableBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
}
