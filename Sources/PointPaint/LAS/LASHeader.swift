/// The public header block of a LAS file (ASPRS LAS 1.0–1.4) and its variable-length records,
/// as `LASReader` reads them and `LASWriter` writes them.
public struct LASHeader: Sendable, Equatable {
    /// Major and minor version: 1.0 … 1.4.
    public var version: (major: UInt8, minor: UInt8)
    /// Bytes of the public header block (227 for 1.0–1.2, 235 for 1.3, 375 for 1.4).
    public var headerSize: Int
    /// Byte offset of the first point record.
    public var pointDataOffset: Int
    /// Point data record format, 0 … 10.
    public var pointFormat: UInt8
    /// Bytes a point record (at least the format's minimum; more when extra bytes follow).
    public var recordLength: Int
    /// Points in the file.
    public var pointCount: Int
    /// Global encoding bits (bit 4: the coordinate reference system is WKT).
    public var globalEncoding: UInt16
    /// Who made the points, and with what.
    public var systemIdentifier: String, generatingSoftware: String
    /// Coordinate = integer · scale + offset, per axis.
    public var scale: SIMD3<Double>, offset: SIMD3<Double>
    /// The bounds the header states.
    public var min: SIMD3<Double>, max: SIMD3<Double>
    /// The variable-length records between the header and the points.
    public var records: [VariableLengthRecord]
    /// Whether the points are LAZ-compressed (bit 7 of the format byte; `LAZReader`).
    public var compressed: Bool
    /// Byte offset of the first extended variable-length record (LAS 1.4), when there are any.
    public var extendedRecordsOffset: Int?

    /// Creates a header.
    public init(version: (major: UInt8, minor: UInt8), headerSize: Int, pointDataOffset: Int, pointFormat: UInt8, recordLength: Int,
                pointCount: Int, globalEncoding: UInt16, systemIdentifier: String, generatingSoftware: String,
                scale: SIMD3<Double>, offset: SIMD3<Double>, min: SIMD3<Double>, max: SIMD3<Double>, records: [VariableLengthRecord],
                compressed: Bool = false, extendedRecordsOffset: Int? = nil) {
        self.version = version
        self.headerSize = headerSize
        self.pointDataOffset = pointDataOffset
        self.pointFormat = pointFormat
        self.recordLength = recordLength
        self.pointCount = pointCount
        self.globalEncoding = globalEncoding
        self.systemIdentifier = systemIdentifier
        self.generatingSoftware = generatingSoftware
        self.scale = scale
        self.offset = offset
        self.min = min
        self.max = max
        self.records = records
        self.compressed = compressed
        self.extendedRecordsOffset = extendedRecordsOffset
    }

    /// One variable-length record.
    public struct VariableLengthRecord: Sendable, Equatable {
        /// Who defined it (`LASF_Projection`, `PointPaint`, …).
        public var userID: String
        /// Its number under that user.
        public var recordID: UInt16
        /// A description.
        public var description: String
        /// Its payload.
        public var data: [UInt8]

        /// Creates a record.
        public init(userID: String, recordID: UInt16, description: String, data: [UInt8]) {
            self.userID = userID
            self.recordID = recordID
            self.description = description
            self.data = data
        }
    }

    /// The byte offset of the red channel in a record of `format`, or nil when it has no colour.
    public static func colorOffset(format: UInt8) -> Int? {
        switch format {
        case 2: 20
        case 3, 5: 28
        case 7, 8, 10: 30
        default: nil
        }
    }

    /// The smallest record of each point format 0 … 10.
    public static let minimumRecordLength: [Int] = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67]

    /// The voxel size PointPaint records (user `PointPaint`, record 1), when the file has it.
    public var voxelSize: Float? {
        records.first { $0.userID == LASHeader.pointPaintUser && $0.recordID == 1 }.flatMap { Float(String(decoding: $0.data, as: UTF8.self)) }
    }

    /// The comment lines PointPaint records (user `PointPaint`, record 2).
    public var comments: [String] {
        guard let r = records.first(where: { $0.userID == LASHeader.pointPaintUser && $0.recordID == 2 }) else { return [] }
        return String(decoding: r.data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The user ID of PointPaint's records.
    public static let pointPaintUser = "PointPaint"

    /// Compares every field; the version tuple by its parts.
    public static func == (a: LASHeader, b: LASHeader) -> Bool {
        a.version == b.version && a.headerSize == b.headerSize && a.pointDataOffset == b.pointDataOffset && a.pointFormat == b.pointFormat
            && a.recordLength == b.recordLength && a.pointCount == b.pointCount && a.globalEncoding == b.globalEncoding
            && a.systemIdentifier == b.systemIdentifier && a.generatingSoftware == b.generatingSoftware && a.scale == b.scale
            && a.offset == b.offset && a.min == b.min && a.max == b.max && a.records == b.records && a.compressed == b.compressed
            && a.extendedRecordsOffset == b.extendedRecordsOffset
    }
}
