import Foundation

/// Reads LAS files (ASPRS LAS 1.0–1.4, point data record formats 0–10) and LAZ files (their
/// compressed form, `LAZReader`) as clouds: the sibling of `PLYReader`.
///
/// Positions are integer · scale + offset per axis, as `Float`. Formats with colour (2, 3, 5, 7,
/// 8, 10) give each 16-bit channel divided by 65535; a file PointPaint did not write whose
/// channels are all at most 255 is taken to hold 8-bit values, as many writers store them, and
/// divided by 255. Formats without colour read as white. The voxel size comes from PointPaint's
/// `voxel_size` record when present.
///
/// Bad input — a wrong signature, an unknown version or format, LAZ items not supported, sizes and
/// counts the file cannot hold, records that overlap — throws one `PointPaintError` naming the
/// file, the place (`header`, `variable-length record K`, a byte offset) and what was expected;
/// every count is checked against the file's size before anything is allocated.
public enum LASReader {
    /// Reads the header and variable-length records of the LAS file at `path`.
    ///
    /// - Complexity: O(header and records).
    public static func readHeader(path: String) throws -> LASHeader {
        try MappedBytes(mapping: path, expected: "a LAS file").withUnsafeBytes { try header($0, file: path) }
    }

    /// Reads every point of the LAS or LAZ file at `path` as a cloud (counts 1).
    ///
    /// - Complexity: O(points), the file mapped; a LAZ file's records decoded on every core.
    public static func readCloud(path: String) throws -> VoxelCloud {
        try MappedBytes(mapping: path, expected: "a LAS file").withUnsafeBytes { bytes in
            let h = try header(bytes, file: path)
            guard h.compressed else {
                return try cloud(ByteCursor(bytes, position: h.pointDataOffset).records(stride: h.recordLength, count: h.pointCount), header: h, file: path)
            }
            // Grown as chunks decode: a header's count alone never sizes an allocation.
            var records: [UInt8] = []
            records.reserveCapacity(Swift.min(h.pointCount, (1 << 26) / h.recordLength) * h.recordLength)
            try LAZReader.forEachRecords(bytes, header: h, file: path) { records.append(contentsOf: $0) }
            return try records.withUnsafeBytes { try cloud(ByteCursor($0).records(stride: h.recordLength, count: h.pointCount), header: h, file: path) }
        }
    }

    /// The cloud of the uncompressed `records` of a file with header `h`.
    private static func cloud(_ records: ByteCursor.Records, header h: LASHeader, file path: String) throws -> VoxelCloud {
        let n = h.pointCount
        @inline(__always) func world(_ i: Int) -> SIMD3<Double> {
            let x = Int32(bitPattern: records.load(UInt32.self, record: i, offset: 0, byteSwapped: swap))
            let y = Int32(bitPattern: records.load(UInt32.self, record: i, offset: 4, byteSwapped: swap))
            let z = Int32(bitPattern: records.load(UInt32.self, record: i, offset: 8, byteSwapped: swap))
            return SIMD3<Double>(Double(x), Double(y), Double(z)) * h.scale + h.offset
        }
        // The points' own bounds (not the header's, which a writer may get wrong) give the
        // origin the offsets are taken from.
        let bounds = WorldBounds(finite: (0 ..< n).lazy.map(world))
        let origin = try bounds?.origin(file: path) ?? .zero
        let positions = [SIMD3<Float>](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0 ..< n { out[i] = SIMD3<Float>(world(i) - origin) }
            initialized = n
        }
        var colors = [SIMD3<Float>](repeating: SIMD3(1, 1, 1), count: n)
        if let c = LASHeader.colorOffset(format: h.pointFormat), n > 0 {
            var largest: UInt16 = 0
            let codes = (0 ..< n).map { i in
                let v = SIMD3(records.load(UInt16.self, record: i, offset: c, byteSwapped: swap),
                              records.load(UInt16.self, record: i, offset: c + 2, byteSwapped: swap),
                              records.load(UInt16.self, record: i, offset: c + 4, byteSwapped: swap))
                largest = max(largest, v.max())
                return v
            }
            let eightBit = largest <= 255 && !h.records.contains { $0.userID == LASHeader.pointPaintUser }
            let divisor: Float = eightBit ? 255 : 65535
            colors = codes.map { SIMD3<Float>(Float($0.x), Float($0.y), Float($0.z)) / divisor }
        }
        var cloud = VoxelCloud(voxelSize: h.voxelSize, origin: origin, positions: positions, colors: colors)
        if WorldOrigin.needsExactPositions(bounds, origin: origin) { cloud.exactPositions = (0 ..< n).map(world) }
        return cloud
    }

    /// Whether numbers must be swapped to read them (a big-endian machine).
    private static let swap = UInt16(1).bigEndian == 1

    /// Parses and checks the header and variable-length records of `bytes`.
    static func header(_ bytes: UnsafeRawBufferPointer, file: String) throws -> LASHeader {
        let size = bytes.count
        func fail(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError {
            PointPaintError(kind, file: file, place: .part("header"), message)
        }
        guard size >= 227 else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(size),
                                  "expected a LAS header of at least 227 bytes, found the end of the file after \(size)")
        }
        let cursor = ByteCursor(bytes)
        func u8(_ o: Int) -> UInt8 { cursor.load(UInt8.self, at: o, byteSwapped: false) }
        func u16(_ o: Int) -> UInt16 { cursor.load(UInt16.self, at: o, byteSwapped: swap) }
        func u32(_ o: Int) -> UInt32 { cursor.load(UInt32.self, at: o, byteSwapped: swap) }
        func u64(_ o: Int) -> UInt64 { cursor.load(UInt64.self, at: o, byteSwapped: swap) }
        func f64(_ o: Int) -> Double { Double(bitPattern: u64(o)) }
        func text(_ o: Int, _ n: Int) -> String {
            String(decoding: cursor[o ..< o + n].prefix { $0 != 0 }, as: UTF8.self)
        }
        guard cursor[0 ..< 4].elementsEqual("LASF".utf8) else {
            throw fail(.malformed, "expected the signature 'LASF', found \(PointPaintError.quote(bytes: cursor[0 ..< 4]))")
        }
        let major = u8(24), minor = u8(25)
        guard major == 1, minor <= 4 else { throw fail(.unsupported, "expected LAS version 1.0 to 1.4, found \(major).\(minor)") }
        let headerSize = Int(u16(94))
        let minimumHeader = minor >= 4 ? 375 : minor == 3 ? 235 : 227
        guard headerSize >= minimumHeader, headerSize <= size else {
            throw fail(.malformed, "expected a header of \(minimumHeader) to \(size) bytes for LAS 1.\(minor), found \(headerSize)")
        }
        let pointDataOffset = Int(u32(96))
        let recordCount = Int(u32(100))
        let formatByte = u8(104)
        // Bit 7 marks LAZ compression (bit 6 too, in files of early LASzip versions).
        let compressed = formatByte & 0x80 != 0
        let format = formatByte & 0x3F
        guard Int(format) < LASHeader.minimumRecordLength.count else { throw fail(.unsupported, "expected point data record format 0 to 10, found \(format)") }
        let recordLength = Int(u16(105))
        guard recordLength >= LASHeader.minimumRecordLength[Int(format)] else {
            throw fail(.malformed, "expected records of at least \(LASHeader.minimumRecordLength[Int(format)]) bytes for format \(format), found \(recordLength)")
        }
        let legacyCount = Int(u32(107))
        var count = legacyCount
        if headerSize >= 375, minor >= 4 {
            let wide = u64(247)
            guard wide <= UInt64(Int.max) else { throw fail(.tooLarge, "declares \(wide) points") }
            if wide > 0 || legacyCount == 0 { count = Int(wide) }
        }
        let scale = SIMD3(f64(131), f64(139), f64(147)), offset = SIMD3(f64(155), f64(163), f64(171))
        guard (0 ..< 3).allSatisfy({ scale[$0].isFinite && scale[$0] != 0 && offset[$0].isFinite }) else {
            throw fail(.outOfRange, "expected finite, non-zero scales and finite offsets, found scale \(PointPaintError.tuple(scale)), offset \(PointPaintError.tuple(offset))")
        }
        let max = SIMD3(f64(179), f64(195), f64(211)), min = SIMD3(f64(187), f64(203), f64(219))
        guard pointDataOffset >= headerSize, pointDataOffset <= size else {
            throw fail(.malformed, "expected the points to start between the header's end (\(headerSize)) and the file's (\(size)), found \(pointDataOffset)")
        }
        let available = size - pointDataOffset
        let (needed, overflow) = count.multipliedReportingOverflow(by: recordLength)
        // Compressed points are checked against their chunk table instead (`LAZChunkTable`).
        guard compressed || (!overflow && needed <= available) else {
            throw PointPaintError(.tooLarge, file: file, place: .byteOffset(pointDataOffset),
                                  "the header declares \(count) points of \(recordLength) bytes, but only \(available) bytes follow")
        }
        // Variable-length records between the header and the points.
        var records: [LASHeader.VariableLengthRecord] = []
        var at = headerSize
        for k in 0 ..< recordCount {
            guard pointDataOffset - at >= 54 else {
                throw PointPaintError(.malformed, file: file, place: .element("variable-length record", k),
                                      "expected a 54-byte record header at byte offset \(at), before the points at \(pointDataOffset)")
            }
            let length = Int(u16(at + 20))
            guard pointDataOffset - at - 54 >= length else {
                throw PointPaintError(.malformed, file: file, place: .element("variable-length record", k),
                                      "declares \(length) bytes of data, which run past the start of the points at byte offset \(pointDataOffset)")
            }
            records.append(LASHeader.VariableLengthRecord(userID: text(at + 2, 16), recordID: u16(at + 18), description: text(at + 22, 32),
                                                          data: Array(cursor[at + 54 ..< at + 54 + length])))
            at += 54 + length
        }
        var extended: Int?
        if headerSize >= 375, minor >= 4, u32(243) > 0 {
            let start = u64(235)
            if start >= UInt64(pointDataOffset), start <= UInt64(size) { extended = Int(start) }
        }
        return LASHeader(version: (major, minor), headerSize: headerSize, pointDataOffset: pointDataOffset, pointFormat: format,
                         recordLength: recordLength, pointCount: count, globalEncoding: u16(6), systemIdentifier: text(26, 32),
                         generatingSoftware: text(58, 32), scale: scale, offset: offset, min: min, max: max, records: records,
                         compressed: compressed, extendedRecordsOffset: extended)
    }
}
