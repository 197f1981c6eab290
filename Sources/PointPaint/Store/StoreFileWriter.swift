/// Writes a `.ppstore` file front to back (`StoreFile+Format.swift`): voxels are appended in
/// increasing Morton code and leave in checksummed chunks as each fills; the header's counts,
/// bounds and index offset are filled in at the end. The file goes through a temporary sibling
/// (`AtomicFile`), so a failed or interrupted write (a full disk) never leaves a partial store.
package struct StoreFileWriter: ~Copyable {
    private var sink: FileSink
    private let file: String
    private var info: StoreInfo
    private let headerBytes: Int
    private let capacity: Int
    /// Bytes of a record (`StoreContents.recordBytes`), and whether records carry Σ w and Σ w·c².
    private let recordBytes: Int, weights: Bool, spread: Bool
    /// The chunk being filled: its header's room, then its records.
    private var chunk: [UInt8]
    private var inChunk = 0
    private var firstCode: UInt64 = 0
    private var previousCode: UInt64?
    private var index: [StoreFileFormat.IndexEntry] = []
    private var samples = 0

    /// Writes a store file at `path`: its grid, policy, colour space, provenance and refused
    /// count from `info` (its voxel and sample counts and bounds are those of what `body`
    /// appends), its voxels appended by `body` in strictly increasing code order.
    /// - Returns: the header as written.
    @discardableResult
    package static func write(to path: String, info: StoreInfo, _ body: (inout StoreFileWriter) throws -> Void) throws -> StoreInfo {
        try AtomicFile.write(to: path) { temporary in
            var writer = try StoreFileWriter(sink: FileSink(creating: temporary, file: path), file: path, info: info)
            try body(&writer)
            return try writer.finish()
        }
    }

    /// Writes every voxel of `source` to `path` (see `write(to:info:_:)`).
    @discardableResult
    package static func write(_ source: some VoxelChunkSource, to path: String) throws -> StoreInfo {
        try write(to: path, info: source.info) { writer in
            try source.rewind()
            while let voxels = try source.nextChunk() {
                for v in voxels { try writer.append(v) }
            }
        }
    }

    private init(sink: consuming FileSink, file: String, info: StoreInfo) throws {
        self.sink = sink
        self.file = file
        self.info = info
        self.info.voxelCount = 0
        self.info.sampleCount = 0
        self.info.keyBounds = nil
        capacity = StoreFileFormat.chunkCapacity
        precondition(info.contents.isEmpty || info.policy == .mean, "weight sums and squares belong to mean stores")
        recordBytes = info.contents.recordBytes
        weights = info.contents.contains(.weights)
        spread = info.contents.contains(.spread)
        chunk = [UInt8](repeating: 0, count: StoreFileFormat.chunkHeaderBytes + capacity * recordBytes)
        let header = StoreFileFormat.Header(info: self.info, chunkCount: 0, indexOffset: 0, chunkCapacity: capacity).encoded()
        headerBytes = header.count
        try header.withUnsafeBytes { try self.sink.write($0) }
    }

    /// Appends one voxel, whose code must exceed the previous one's and whose count is at least 1
    /// (its weight and squares are written when the store's contents keep them).
    ///
    /// - Complexity: O(1) amortised; a chunk's checksum and write every `chunkCapacity` voxels.
    @inline(__always)
    package mutating func append(_ v: StoredVoxel) throws {
        if let previousCode { precondition(v.code > previousCode, "store voxels out of order") }
        precondition(v.count > 0, "a stored voxel without samples")
        previousCode = v.code
        if inChunk == 0 { firstCode = v.code }
        let offset = StoreFileFormat.chunkHeaderBytes + inChunk * recordBytes
        chunk.withUnsafeMutableBytes { out in
            out.storeBytes(of: v.code.littleEndian, toByteOffset: offset, as: UInt64.self)
            out.storeBytes(of: v.r.littleEndian, toByteOffset: offset + 8, as: Int64.self)
            out.storeBytes(of: v.g.littleEndian, toByteOffset: offset + 16, as: Int64.self)
            out.storeBytes(of: v.b.littleEndian, toByteOffset: offset + 24, as: Int64.self)
            out.storeBytes(of: v.count.littleEndian, toByteOffset: offset + 32, as: UInt32.self)
            out.storeBytes(of: v.first.littleEndian, toByteOffset: offset + 36, as: UInt32.self)
            out.storeBytes(of: v.last.littleEndian, toByteOffset: offset + 40, as: UInt32.self)
            var o = offset + StoreFileFormat.recordBytes
            if weights {
                out.storeBytes(of: v.weight.littleEndian, toByteOffset: o, as: UInt64.self)
                o += 8
            }
            if spread {
                out.storeBytes(of: v.r2.littleEndian, toByteOffset: o, as: Int64.self)
                out.storeBytes(of: v.g2.littleEndian, toByteOffset: o + 8, as: Int64.self)
                out.storeBytes(of: v.b2.littleEndian, toByteOffset: o + 16, as: Int64.self)
            }
        }
        inChunk += 1
        samples += Int(v.count)
        let key = v.key
        if info.keyBounds == nil { info.keyBounds = StoreInfo.KeyBounds(key) } else { info.keyBounds!.include(key) }
        if inChunk == capacity { try flush() }
    }

    /// Writes the chunk being filled, if it holds any voxel.
    private mutating func flush() throws {
        guard inChunk > 0 else { return }
        let n = inChunk, first = firstCode, last = previousCode!
        let payloadBytes = n * recordBytes
        let offset = sink.offset
        let samples = chunk.withUnsafeBytes { bytes in
            StoreFileFormat.IndexEntry.samplePositions(count: n, samples: StoreFileFormat.samplesPerChunk).map {
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: StoreFileFormat.chunkHeaderBytes + $0 * recordBytes, as: UInt64.self))
            }
        }
        try chunk.withUnsafeMutableBytes { out in
            let payload = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: out[StoreFileFormat.chunkHeaderBytes ..< StoreFileFormat.chunkHeaderBytes + payloadBytes]))
            out.storeBytes(of: StoreFileFormat.chunkMagic.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: first.littleEndian, toByteOffset: 8, as: UInt64.self)
            out.storeBytes(of: last.littleEndian, toByteOffset: 16, as: UInt64.self)
            out.storeBytes(of: payload.littleEndian, toByteOffset: 24, as: UInt32.self)
            let header = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: out[0 ..< 28]))
            out.storeBytes(of: header.littleEndian, toByteOffset: 28, as: UInt32.self)
            try sink.write(UnsafeRawBufferPointer(rebasing: out[0 ..< StoreFileFormat.chunkHeaderBytes + payloadBytes]))
        }
        index.append(StoreFileFormat.IndexEntry(offset: offset, firstCode: first, lastCode: last, count: n, samples: samples))
        info.voxelCount += n
        inChunk = 0
    }

    /// Writes the last chunk and the index, then the header with its final counts.
    private consuming func finish() throws -> StoreInfo {
        try flush()
        info.sampleCount = samples
        let indexOffset = sink.offset
        var out = LittleEndianBytes()
        out.u32(StoreFileFormat.indexMagic)
        out.u32(UInt32(StoreFileFormat.samplesPerChunk))
        out.u64(UInt64(index.count))
        for e in index {
            out.u64(UInt64(e.offset))
            out.u64(e.firstCode)
            out.u64(e.lastCode)
            out.u32(UInt32(e.count))
            out.u32(0)
            for code in e.samples { out.u64(code) }
        }
        out.u32(out.bytes.withUnsafeBytes { CRC32C.checksum($0) })
        try out.bytes.withUnsafeBytes { try sink.write($0) }
        let header = StoreFileFormat.Header(info: info, chunkCount: index.count, indexOffset: indexOffset, chunkCapacity: capacity).encoded()
        precondition(header.count == headerBytes, "the header changed size")
        try header.withUnsafeBytes { try sink.write($0, at: 0) }
        try sink.finish()
        return info
    }
}
