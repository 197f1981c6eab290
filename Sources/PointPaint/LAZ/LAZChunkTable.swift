import LAZCodec

/// One chunk of a LAZ file's points: where its bytes are and how many points they hold.
public struct LAZChunk: Sendable, Equatable {
    /// Byte offset of the chunk in the file, and its length.
    public var offset: Int, size: Int
    /// Points in the chunk.
    public var points: Int

    public init(offset: Int, size: Int, points: Int) {
        self.offset = offset
        self.size = size
        self.points = points
    }
}

/// The chunk table of a LAZ file: after the points, `version` (0) and the number of chunks as
/// 32-bit integers, then each chunk's byte size (and point count, for variable-size chunks)
/// arithmetic-coded as differences from the previous chunk's; the 64-bit offset of the table is
/// the first thing at the point data offset. Described in docs/laz.md.
public enum LAZChunkTable {
    /// The chunks of the file `bytes`, whose header and LASzip parameters are given, each
    /// checked to lie between the points' start and the table, in order, holding the header's
    /// point count between them; empty chunks are left out.
    /// - Throws: one `PointPaintError` (at the table's byte offset or the chunk's) for a table
    ///   that points past the end or at itself, a count the bytes cannot hold, chunks that
    ///   overlap, or fewer points than the header states.
    public static func read(_ bytes: UnsafeRawBufferPointer, header: LASHeader, parameters: LAZParameters, file: String) throws -> [LAZChunk] {
        let size = bytes.count
        let start = header.pointDataOffset
        let pointsEnd = header.extendedRecordsOffset.map { Swift.min($0, size) } ?? size
        if header.pointCount == 0 { return [] }
        if parameters.compressor == 1 {
            // One stream, no table: it runs to the extended records or the file's end.
            return [LAZChunk(offset: start, size: pointsEnd - start, points: header.pointCount)]
        }
        guard size - start >= 8 else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(start),
                                  "expected the 8-byte offset of the LAZ chunk table, found the end of the file")
        }
        let cursor = ByteCursor(bytes)
        var tableOffset = Int64(bitPattern: cursor.load(UInt64.self, at: start, byteSwapped: swap))
        if tableOffset == -1, size >= 8 {
            // A writer that could not seek back put the offset in the file's last 8 bytes.
            tableOffset = Int64(bitPattern: cursor.load(UInt64.self, at: size - 8, byteSwapped: swap))
        }
        let place = PointPaintError.Place.part("chunk table")
        guard tableOffset != Int64(start) else {
            throw PointPaintError(.malformed, file: file, place: place, "the chunk table's offset \(tableOffset) points at itself")
        }
        guard tableOffset != Int64(start + 8) else {
            throw PointPaintError(.malformed, file: file, place: place,
                                  "the chunk table is missing (offset \(tableOffset) is where the points begin): the writer was interrupted")
        }
        guard tableOffset > Int64(start + 8), tableOffset <= Int64(size - 8) else {
            throw PointPaintError(.malformed, file: file, place: place,
                                  "expected the chunk table between the points' start (\(start + 8)) and the file's end (\(size)), found offset \(tableOffset)")
        }
        let table = Int(tableOffset)
        let version = cursor.load(UInt32.self, at: table, byteSwapped: swap)
        let count = Int(cursor.load(UInt32.self, at: table + 4, byteSwapped: swap))
        guard version == 0 else {
            throw PointPaintError(.unsupported, file: file, place: .byteOffset(table), "expected chunk table version 0, found \(version)")
        }
        // A chunk of points starts with a whole record, raw: a count past what the bytes hold
        // cannot be real (one empty chunk more is allowed: lazrs ends some files with one).
        guard count >= 1, count <= (table - (start + 8)) / header.recordLength + 1 else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(table + 4),
                                  "the chunk table lists \(count) chunks for \(header.pointCount) points in \(table - start - 8) bytes")
        }
        var sizes = [UInt32](repeating: 0, count: count)
        var counts = [UInt32](repeating: 0, count: parameters.chunkSize == nil ? count : 0)
        let body = UnsafeRawBufferPointer(rebasing: bytes[(table + 8)...])
        let status = Int(sizes.withUnsafeMutableBufferPointer { s in
            counts.withUnsafeMutableBufferPointer { c in
                laz_chunk_table_decode(body.baseAddress?.assumingMemoryBound(to: UInt8.self), body.count, UInt32(count),
                                       parameters.chunkSize == nil ? c.baseAddress : nil, s.baseAddress)
            }
        })
        guard status == LAZ_OK else {
            throw PointPaintError(status == LAZ_NO_MEMORY ? .tooLarge : .malformed, file: file, place: .byteOffset(table + 8),
                                  status == LAZ_TRUNCATED ? "the chunk table's \(count) entries run past the end of the file" : "the chunk table is damaged")
        }
        var chunks: [LAZChunk] = []
        chunks.reserveCapacity(count)
        var offset = start + 8
        var remaining = header.pointCount
        for k in 0 ..< count {
            let bytes = Int(sizes[k])
            let points = parameters.chunkSize.map { Swift.min($0, remaining) } ?? Int(counts[k])
            guard bytes <= table - offset else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k),
                                      "the chunk table gives chunk \(k) \(bytes) bytes at byte offset \(offset), past the table at \(table)")
            }
            guard points >= (parameters.chunkSize == nil ? 0 : 1), points <= remaining else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k),
                                      "the chunk table gives chunk \(k) \(points) points, but \(remaining) of the header's \(header.pointCount) remain")
            }
            guard points == 0 || bytes >= header.recordLength else {
                throw PointPaintError(.malformed, file: file, place: .element("chunk", k),
                                      "the chunk table gives chunk \(k) of \(points) points only \(bytes) bytes, less than its first record")
            }
            if points > 0 { chunks.append(LAZChunk(offset: offset, size: bytes, points: points)) }
            offset += bytes
            remaining -= points
        }
        guard remaining == 0 else {
            throw PointPaintError(.malformed, file: file, place: place,
                                  "the header states \(header.pointCount) points, but the \(count) chunks hold \(header.pointCount - remaining)")
        }
        return chunks
    }

    /// The table of `chunks` as written after them: version, count and the coded sizes (and
    /// counts, when `variable`).
    public static func encode(_ chunks: [LAZChunk], variable: Bool) -> [UInt8] {
        var out = LittleEndianBytes()
        out.u32(0)
        out.u32(UInt32(chunks.count))
        let sizes = chunks.map { UInt32($0.size) }, counts = chunks.map { UInt32($0.points) }
        var coded = laz_bytes()
        defer { laz_bytes_free(&coded) }
        let status = Int(sizes.withUnsafeBufferPointer { s in
            counts.withUnsafeBufferPointer { c in
                laz_chunk_table_encode(variable ? c.baseAddress : nil, s.baseAddress, UInt32(chunks.count), &coded)
            }
        })
        precondition(status == LAZ_OK, "out of memory coding a chunk table")
        if coded.size > 0 { out.append(Array(UnsafeBufferPointer(start: coded.data, count: coded.size))) }
        return out.bytes
    }

    /// Whether numbers must be swapped to read them (a big-endian machine).
    private static let swap = UInt16(1).bigEndian == 1
}
