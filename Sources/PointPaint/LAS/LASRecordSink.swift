import Foundation

/// Where `LASWriter` and `LASConverter` put points after the header: records as they are, or
/// for a LAZ file compressed a chunk at a time, then the chunk table and its offset. PointPaint's
/// own files are point format 7, compressed or not. Described in docs/laz.md.
struct LASRecordSink: ~Copyable {
    /// Whether the file is LAZ.
    let compressed: Bool
    private var sink: FileSink
    private let file: String
    /// Records not yet compressed (LAZ), at most a chunk's.
    private var pending: [UInt8] = []
    private var chunks: [LAZChunk] = []
    private let encoder: LAZChunkEncoder?
    /// Where the chunk table's offset goes: the point data offset.
    private let pointStart: Int
    /// Points a chunk, and bytes a record, of a LAZ file.
    private let chunkSize: Int, recordLength: Int

    /// The LASzip parameters of a PointPaint LAZ file: point format 7, layered.
    static let parameters = try! LAZParameters.standard(format: 7, recordLength: LASWriter.recordLength, file: "")

    /// Writes `header` (and its records) to `sink`, then takes points.
    static func start(_ sink: consuming FileSink, header: LASHeader, file: String) throws -> LASRecordSink {
        try start(sink, headerBytes: LASWriter.encoded(header), parameters: header.compressed ? parameters : nil, file: file)
    }

    /// Writes `headerBytes` (the header block and its records) to `sink`, then takes points,
    /// compressed with `parameters` when given.
    static func start(_ sink: consuming FileSink, headerBytes: [UInt8], parameters: LAZParameters?, file: String) throws -> LASRecordSink {
        try headerBytes.withUnsafeBytes { try sink.write($0) }
        // A LAZ file's chunk table offset, filled in at the end.
        if parameters != nil { try withUnsafeBytes(of: Int64(-1).littleEndian) { try sink.write($0) } }
        return LASRecordSink(sink, parameters: parameters, pointStart: headerBytes.count, file: file)
    }

    private init(_ sink: consuming FileSink, parameters: LAZParameters?, pointStart: Int, file: String) {
        self.sink = sink
        compressed = parameters != nil
        self.pointStart = pointStart
        self.file = file
        encoder = parameters.map(LAZChunkEncoder.init)
        chunkSize = parameters?.chunkSize ?? LAZParameters.defaultChunkSize
        recordLength = parameters?.recordLength ?? 0
        if compressed { pending.reserveCapacity(chunkSize * recordLength) }
    }

    /// Appends the records in `records` (whole records of the file's format).
    mutating func write(_ records: UnsafeRawBufferPointer) throws {
        guard compressed else {
            try sink.write(records)
            return
        }
        let chunkBytes = chunkSize * recordLength
        var rest = records[...]
        while !rest.isEmpty {
            let take = Swift.min(rest.count, chunkBytes - pending.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest.prefix(take)))
            rest = rest.dropFirst(take)
            if pending.count == chunkBytes { try flush() }
        }
    }

    /// Compresses and writes the pending records as one chunk.
    private mutating func flush() throws {
        guard let encoder, !pending.isEmpty else { return }
        let bytes = pending.withUnsafeBytes { encoder.encode($0) }
        let offset = sink.offset
        try bytes.withUnsafeBytes { try sink.write($0) }
        chunks.append(LAZChunk(offset: offset, size: bytes.count, points: pending.count / recordLength))
        pending.removeAll(keepingCapacity: true)
    }

    /// Ends the points (the last chunk, the chunk table and its offset), writes `trailer` after
    /// them with its offset (64-bit) at byte `offsetAt`, and closes the file.
    consuming func finish(trailer: UnsafeRawBufferPointer? = nil, offsetAt: Int? = nil) throws {
        if compressed {
            try flush()
            let table = LAZChunkTable.encode(chunks, variable: false)
            let tableOffset = sink.offset
            try table.withUnsafeBytes { try sink.write($0) }
            try withUnsafeBytes(of: Int64(tableOffset).littleEndian) { try sink.write($0, at: pointStart) }
        }
        if let trailer {
            let start = sink.offset
            try sink.write(trailer)
            if let offsetAt { try withUnsafeBytes(of: UInt64(start).littleEndian) { try sink.write($0, at: offsetAt) } }
        }
        try sink.finish()
    }
}
