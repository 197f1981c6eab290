import LAZCodec

/// The LASzip record of a LAZ file (user `laszip encoded`, record 22204): how its points are
/// compressed. Described in docs/laz.md.
public struct LAZParameters: Sendable, Equatable {
    /// LASzip's compressors: 1 point-wise in one stream, 2 point-wise in chunks, 3 layered in
    /// chunks (LAS 1.4 point formats 6–10).
    public var compressor: UInt16
    /// The entropy coder: 0, arithmetic.
    public var coder: UInt16
    /// The LASzip version that wrote the file (informative).
    public var version: (major: UInt8, minor: UInt8, revision: UInt16)
    /// Option bits (none defined).
    public var options: UInt32
    /// Points a chunk; nil for variable-size chunks (their counts are in the chunk table).
    public var chunkSize: Int?
    /// The items of a point record, in record order.
    public var items: [Item]

    /// One item: its type (`LAZ_ITEM_*`), bytes and compressor version.
    public struct Item: Sendable, Equatable {
        public var type: UInt16, size: UInt16, version: UInt16
        public init(type: UInt16, size: UInt16, version: UInt16) {
            self.type = type
            self.size = size
            self.version = version
        }
    }

    /// The record's user ID and number.
    public static let userID = "laszip encoded"
    public static let recordID: UInt16 = 22204
    /// The chunk size LASzip and lazrs write by default.
    public static let defaultChunkSize = 50_000

    /// Compares every field; the version tuple by its parts.
    public static func == (a: LAZParameters, b: LAZParameters) -> Bool {
        a.compressor == b.compressor && a.coder == b.coder && a.version == b.version && a.options == b.options
            && a.chunkSize == b.chunkSize && a.items == b.items
    }

    /// Bytes a record its items add up to.
    public var recordLength: Int { items.reduce(0) { $0 + Int($1.size) } }

    /// The parameters LASzip and lazrs write for `format` records of `recordLength` bytes: for
    /// point formats 0–3 point-wise compression (compressor 2) of POINT10, then GPS time, colour
    /// and the extra bytes, each version 2; for 6–8 layered compression (compressor 3) of POINT14,
    /// then colour (with near infrared for 8) and the extra bytes, each version 3.
    /// - Throws: `.unsupported` for another format (4, 5, 9 and 10 carry wave packets).
    public static func standard(format: UInt8, recordLength: Int, chunkSize: Int? = defaultChunkSize, file: String) throws -> LAZParameters {
        let v2 = { (type: Int, size: UInt16) in Item(type: UInt16(type), size: size, version: 2) }
        let v3 = { (type: Int, size: UInt16) in Item(type: UInt16(type), size: size, version: 3) }
        var items: [Item]
        switch format {
        case 0: items = [v2(LAZ_ITEM_POINT10, 20)]
        case 1: items = [v2(LAZ_ITEM_POINT10, 20), v2(LAZ_ITEM_GPSTIME11, 8)]
        case 2: items = [v2(LAZ_ITEM_POINT10, 20), v2(LAZ_ITEM_RGB12, 6)]
        case 3: items = [v2(LAZ_ITEM_POINT10, 20), v2(LAZ_ITEM_GPSTIME11, 8), v2(LAZ_ITEM_RGB12, 6)]
        case 6: items = [v3(LAZ_ITEM_POINT14, 30)]
        case 7: items = [v3(LAZ_ITEM_POINT14, 30), v3(LAZ_ITEM_RGB14, 6)]
        case 8: items = [v3(LAZ_ITEM_POINT14, 30), v3(LAZ_ITEM_RGBNIR14, 8)]
        default:
            throw PointPaintError(.unsupported, file: file, "LAZ output of point format \(format) (wave packets) is not written; point formats 0 to 3 and 6 to 8 are")
        }
        let layered = format >= 6
        let core = items.reduce(0) { $0 + Int($1.size) }
        let extra = recordLength - core
        precondition(extra >= 0 && extra <= Int(UInt16.max), "records shorter than their point format")
        if extra > 0 { items.append(layered ? v3(LAZ_ITEM_BYTE14, UInt16(extra)) : v2(LAZ_ITEM_BYTE, UInt16(extra))) }
        return LAZParameters(compressor: layered ? 3 : 2, coder: 0, version: (3, 4, 3), options: 0, chunkSize: chunkSize, items: items)
    }

    /// Creates parameters.
    public init(compressor: UInt16, coder: UInt16, version: (major: UInt8, minor: UInt8, revision: UInt16), options: UInt32,
                chunkSize: Int?, items: [Item]) {
        self.compressor = compressor
        self.coder = coder
        self.version = version
        self.options = options
        self.chunkSize = chunkSize
        self.items = items
    }

    /// The parameters `header`'s LASzip record states, checked against the header's point
    /// format and record length.
    /// - Throws: `.missing` without the record, `.malformed` for a record that is cut short or
    ///   disagrees with the header, `.unsupported` for a coder, compressor or item this reader
    ///   does not have.
    public init(header: LASHeader, file: String) throws {
        guard let index = header.records.firstIndex(where: { $0.userID == Self.userID && $0.recordID == Self.recordID }) else {
            throw PointPaintError(.missing, file: file, place: .part("header"),
                                  "the points are LAZ-compressed, but the file has no LASzip record ('\(Self.userID)', \(Self.recordID))")
        }
        let data = header.records[index].data
        let place = PointPaintError.Place.element("variable-length record", index)
        func fail(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError { PointPaintError(kind, file: file, place: place, message) }
        guard data.count >= 34 else { throw fail(.malformed, "expected a LASzip record of at least 34 bytes, found \(data.count)") }
        func u16(_ o: Int) -> UInt16 { UInt16(data[o]) | UInt16(data[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { UInt32(u16(o)) | UInt32(u16(o + 2)) << 16 }
        let count = Int(u16(32))
        guard data.count >= 34 + 6 * count else {
            throw fail(.malformed, "the LASzip record lists \(count) items of 6 bytes, but holds \(data.count - 34) bytes for them")
        }
        compressor = u16(0)
        coder = u16(2)
        version = (data[4], data[5], u16(6))
        options = u32(8)
        let size = u32(12)
        chunkSize = size == UInt32.max ? nil : Int(size)
        items = (0 ..< count).map { k in Item(type: u16(34 + 6 * k), size: u16(36 + 6 * k), version: u16(38 + 6 * k)) }
        guard coder == 0 else { throw fail(.unsupported, "expected LASzip's arithmetic coder (0), found coder \(coder)") }
        guard (1 ... 3).contains(compressor) else {
            throw fail(.unsupported, "expected LASzip compressor 1, 2 or 3, found \(compressor)")
        }
        guard chunkSize != 0 else { throw fail(.malformed, "expected a chunk size of at least 1 point, found 0") }
        guard recordLength == header.recordLength else {
            throw fail(.malformed, "the LASzip items add up to \(recordLength)-byte records, but the header states \(header.recordLength)")
        }
    }

    /// The record, as written after the header.
    public var record: LASHeader.VariableLengthRecord {
        var out = LittleEndianBytes()
        func u16(_ v: UInt16) { out.u8(UInt8(v & 0xFF)); out.u8(UInt8(v >> 8)) }
        u16(compressor)
        u16(coder)
        out.u8(version.major)
        out.u8(version.minor)
        u16(version.revision)
        out.u32(options)
        out.u32(chunkSize.map(UInt32.init) ?? UInt32.max)
        out.u64(UInt64(bitPattern: -1))  // number of special EVLRs: none
        out.u64(UInt64(bitPattern: -1))  // offset of special EVLRs: none
        u16(UInt16(items.count))
        for item in items {
            u16(item.type)
            u16(item.size)
            u16(item.version)
        }
        return LASHeader.VariableLengthRecord(userID: Self.userID, recordID: Self.recordID, description: "by PointPaint (LASzip format)", data: out.bytes)
    }
}
