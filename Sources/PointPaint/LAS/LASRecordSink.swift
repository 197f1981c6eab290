import Foundation

/// Where `LASWriter` and `LASConverter` put points after the header: records as they are, or
/// for a LAZ file compressed a chunk at a time, then the chunk table and its offset. PointPaint's
/// own files are point format 7, compressed or not. Described in docs/laz.md.
struct LASRecordSink: ~Copyable {
    /// Whether the file is LAZ.
    let compressed: Bool
    private var sink: FileSink
    /// Records not yet compressed (LAZ), at most a chunk's.
    private var pending: [UInt8] = []
    private var chunks: [LAZChunk] = []
    private let encoder: LAZChunkEncoder?
    /// Where the chunk table's offset goes: the point data offset.
    private let pointStart: Int
    /// Points a chunk, and bytes a record, of a LAZ file.
    private let chunkSize: Int, recordLength: Int
    /// A COPC file's header (its records go into octree nodes at the end, not chunk by chunk).
    private let copc: LASHeader?

    /// The LASzip parameters of a PointPaint LAZ file: point format 7, layered; a COPC file's
    /// chunks are its octree's nodes, of any size.
    static let parameters = try! LAZParameters.standard(format: 7, recordLength: LASWriter.recordLength, file: "")
    static let copcParameters = try! LAZParameters.standard(format: 7, recordLength: LASWriter.recordLength, chunkSize: nil, file: "")

    /// Writes `header` (and its records) to `sink`, then takes points.
    static func start(_ sink: consuming FileSink, header: LASHeader) throws -> LASRecordSink {
        let copc = COPCFile.isCOPC(header)
        return try start(sink, headerBytes: LASWriter.encoded(header), parameters: header.compressed ? (copc ? copcParameters : parameters) : nil,
                         copc: copc ? header : nil)
    }

    /// Writes `headerBytes` (the header block and its records) to `sink`, then takes points,
    /// compressed with `parameters` when given, in a COPC octree when `copc` (the header) is.
    static func start(_ sink: consuming FileSink, headerBytes: [UInt8], parameters: LAZParameters?, copc: LASHeader? = nil) throws -> LASRecordSink {
        try headerBytes.withUnsafeBytes { try sink.write($0) }
        // A LAZ file's chunk table offset, filled in at the end.
        if parameters != nil { try withUnsafeBytes(of: Int64(-1).littleEndian) { try sink.write($0) } }
        return LASRecordSink(sink, parameters: parameters, pointStart: headerBytes.count, copc: copc)
    }

    private init(_ sink: consuming FileSink, parameters: LAZParameters?, pointStart: Int, copc: LASHeader?) {
        self.sink = sink
        compressed = parameters != nil
        self.pointStart = pointStart
        self.copc = copc
        encoder = parameters.map(LAZChunkEncoder.init)
        chunkSize = parameters?.chunkSize ?? LAZParameters.defaultChunkSize
        recordLength = parameters?.recordLength ?? 0
        if compressed, copc == nil { pending.reserveCapacity(chunkSize * recordLength) }
    }

    /// Appends the records in `records` (whole records of the file's format).
    mutating func write(_ records: UnsafeRawBufferPointer) throws {
        guard compressed else {
            try sink.write(records)
            return
        }
        guard copc == nil else {
            // A COPC file's points are placed once all are known.
            pending.append(contentsOf: records)
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
    consuming func finish(trailer: [UInt8]? = nil, offsetAt: Int? = nil) throws {
        if let copc {
            try writeOctree(header: copc)
            try sink.finish()
            return
        }
        if compressed {
            try flush()
            let table = LAZChunkTable.encode(chunks, variable: false)
            let tableOffset = sink.offset
            try table.withUnsafeBytes { try sink.write($0) }
            try withUnsafeBytes(of: Int64(tableOffset).littleEndian) { try sink.write($0, at: pointStart) }
        }
        if let trailer {
            let start = sink.offset
            try trailer.withUnsafeBytes { try sink.write($0) }
            if let offsetAt { try withUnsafeBytes(of: UInt64(start).littleEndian) { try sink.write($0, at: offsetAt) } }
        }
        try sink.finish()
    }

    /// Writes a COPC file's points: the octree's nodes, a chunk each, then the chunk table, the
    /// hierarchy (an extended record) and the `info` record's values and the header's extended
    /// record fields, patched in.
    private mutating func writeOctree(header: LASHeader) throws {
        guard let encoder else { preconditionFailure("a COPC file is compressed") }
        let length = recordLength
        let count = pending.count / length
        let octree = pending.withUnsafeBytes { records in
            COPCOctree(count: count, step: header.scale.max()) { i in
                let x = records.loadUnaligned(fromByteOffset: i * length, as: Int32.self).littleEndian
                let y = records.loadUnaligned(fromByteOffset: i * length + 4, as: Int32.self).littleEndian
                let z = records.loadUnaligned(fromByteOffset: i * length + 8, as: Int32.self).littleEndian
                return SIMD3<Double>(Double(x), Double(y), Double(z)) * header.scale + header.offset
            }
        }
        var entries: [COPCFile.Entry] = []
        var buffer: [UInt8] = []
        for node in octree.nodes {
            buffer.removeAll(keepingCapacity: true)
            pending.withUnsafeBytes { records in
                for i in node.points { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: records[(i * length) ..< (i + 1) * length])) }
            }
            let bytes = buffer.withUnsafeBytes { encoder.encode($0) }
            let offset = sink.offset
            try bytes.withUnsafeBytes { try sink.write($0) }
            chunks.append(LAZChunk(offset: offset, size: bytes.count, points: node.points.count))
            entries.append(COPCFile.Entry(key: node.key, offset: offset, byteSize: bytes.count, pointCount: node.points.count))
        }
        let table = LAZChunkTable.encode(chunks, variable: true)
        let tableOffset = sink.offset
        try table.withUnsafeBytes { try sink.write($0) }
        try withUnsafeBytes(of: Int64(tableOffset).littleEndian) { try sink.write($0, at: pointStart) }
        // The hierarchy, one page, as the file's one extended record.
        let start = sink.offset
        let page = COPCFile.encode(entries)
        try COPCFile.extendedRecord(page).withUnsafeBytes { try sink.write($0) }
        try withUnsafeBytes(of: UInt64(start).littleEndian) { try sink.write($0, at: 235) }
        try withUnsafeBytes(of: UInt32(1).littleEndian) { try sink.write($0, at: 243) }
        var times = (low: 0.0, high: 0.0)
        if count > 0, recordLength >= 30 {
            times = pending.withUnsafeBytes { records in
                (0 ..< count).reduce((Double.infinity, -Double.infinity)) { r, i in
                    let t = Double(bitPattern: records.loadUnaligned(fromByteOffset: i * length + 22, as: UInt64.self).littleEndian)
                    return (Swift.min(r.0, t), Swift.max(r.1, t))
                }
            }
        }
        let info = COPCFile.Info(center: octree.center, halfsize: octree.halfsize, spacing: octree.spacing,
                                 rootOffset: start + COPCFile.extendedHeaderSize, rootSize: page.count, gpsTime: times)
        try info.encoded.withUnsafeBytes { try sink.write($0, at: COPCFile.infoOffset) }
        pending = []
    }
}
