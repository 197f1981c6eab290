/// The records that make a LAZ file a COPC file (Cloud Optimized Point Cloud 1.0, copc.io): the
/// `info` record (user `copc`, record 1, 160 bytes, first after the header) and the hierarchy
/// (user `copc`, record 1000, an extended record): pages of 32-byte entries, each an octree node's
/// key and its chunk's offset, size and point count, or (count −1) a child page. Described in
/// docs/laz.md.
public enum COPCFile {
    /// The user ID of COPC's records.
    public static let userID = "copc"
    /// Where the `info` record's data starts: after the 375-byte header and a record header.
    static let infoOffset = 375 + 54
    /// Bytes of an extended record's header.
    static let extendedHeaderSize = 60

    /// Whether `header` is a COPC file's: LAS 1.4, compressed, the `info` record first.
    public static func isCOPC(_ header: LASHeader) -> Bool {
        header.compressed && header.headerSize == 375
            && header.records.first.map { $0.userID == userID && $0.recordID == 1 && $0.data.count == 160 } == true
    }

    /// Whether `path` names a COPC file to write (`.copc.laz`, any case).
    public static func named(_ path: String) -> Bool { path.lowercased().hasSuffix(".copc.laz") }

    /// The `info` record.
    public struct Info: Sendable, Equatable {
        public var center: SIMD3<Double>, halfsize: Double, spacing: Double
        /// The root hierarchy page: its offset in the file and its size.
        public var rootOffset: Int, rootSize: Int
        public var gpsTime: (low: Double, high: Double)

        public static func == (a: Info, b: Info) -> Bool {
            a.center == b.center && a.halfsize == b.halfsize && a.spacing == b.spacing && a.rootOffset == b.rootOffset
                && a.rootSize == b.rootSize && a.gpsTime == b.gpsTime
        }

        /// The record's 160 bytes.
        var encoded: [UInt8] {
            var out = LittleEndianBytes()
            for v in [center.x, center.y, center.z, halfsize, spacing] { out.u64(v.bitPattern) }
            out.u64(UInt64(rootOffset))
            out.u64(UInt64(rootSize))
            out.u64(gpsTime.low.bitPattern)
            out.u64(gpsTime.high.bitPattern)
            for _ in 0 ..< 11 { out.u64(0) }
            return out.bytes
        }
    }

    /// A hierarchy entry: a node and its chunk (or, `pointCount` −1, a child page).
    struct Entry: Equatable {
        var key: COPCOctree.Key
        var offset: Int, byteSize: Int, pointCount: Int
    }

    /// The `info` record as written before the points are known (filled in at the end).
    static var placeholder: LASHeader.VariableLengthRecord {
        LASHeader.VariableLengthRecord(userID: userID, recordID: 1, description: "COPC info VLR", data: [UInt8](repeating: 0, count: 160))
    }

    /// A hierarchy page of `entries`.
    static func encode(_ entries: [Entry]) -> [UInt8] {
        var out = LittleEndianBytes()
        for e in entries {
            for v in [e.key.level, e.key.x, e.key.y, e.key.z] { out.u32(UInt32(bitPattern: v)) }
            out.u64(UInt64(e.offset))
            out.u32(UInt32(truncatingIfNeeded: e.byteSize))
            out.u32(UInt32(truncatingIfNeeded: e.pointCount))
        }
        return out.bytes
    }

    /// The hierarchy's extended record: its 60-byte header, then `page`.
    static func extendedRecord(_ page: [UInt8]) -> [UInt8] {
        var out = LittleEndianBytes()
        out.append([0, 0])  // reserved
        out.append(Array(userID.utf8) + [UInt8](repeating: 0, count: 16 - userID.utf8.count))
        out.append([0xE8, 0x03])  // record 1000
        out.u64(UInt64(page.count))
        let description = "EPT hierarchy"
        out.append(Array(description.utf8) + [UInt8](repeating: 0, count: 32 - description.utf8.count))
        return out.bytes + page
    }

    /// What `info` says of a COPC file: its `info` record and the nodes of its hierarchy.
    public struct Summary: Sendable {
        public var info: Info
        /// Nodes with points, points in them, and the deepest level.
        public var nodes: Int, points: Int, levels: Int
    }

    /// Reads and checks the hierarchy of the COPC file `bytes` (with header `header`): every
    /// page inside the file, none visited twice, every node's chunk inside the file.
    /// - Throws: one `PointPaintError` at the page or entry that is wrong.
    public static func summary(_ bytes: UnsafeRawBufferPointer, header: LASHeader, file: String) throws -> Summary {
        let info = Info(header.records[0].data)
        var summary = Summary(info: info, nodes: 0, points: 0, levels: 0)
        var visited = Set<Int>()
        var pages = [(offset: info.rootOffset, size: info.rootSize)]
        let cursor = ByteCursor(bytes)
        while let page = pages.popLast() {
            let place = PointPaintError.Place.part("COPC hierarchy page at byte offset \(page.offset)")
            guard page.offset >= 0, page.size >= 0, page.size % 32 == 0, page.offset <= bytes.count, page.size <= bytes.count - page.offset else {
                throw PointPaintError(.malformed, file: file, place: place,
                                      "expected a page of whole 32-byte entries inside the file's \(bytes.count) bytes, found \(page.size) bytes")
            }
            guard visited.insert(page.offset).inserted else {
                throw PointPaintError(.malformed, file: file, place: place, "the hierarchy refers to this page twice (a loop)")
            }
            for k in 0 ..< page.size / 32 {
                let o = page.offset + 32 * k
                func i32(_ d: Int) -> Int { Int(Int32(bitPattern: cursor.load(UInt32.self, at: o + d, byteSwapped: false).littleEndian)) }
                let level = i32(0)
                let offset = Int(truncatingIfNeeded: cursor.load(UInt64.self, at: o + 16, byteSwapped: false).littleEndian)
                let size = i32(24), count = i32(28)
                let entry = PointPaintError.Place.element("COPC hierarchy entry", k)
                if count == -1 {
                    pages.append((offset, size))
                } else if count > 0 {
                    guard offset >= header.pointDataOffset, size > 0, offset <= bytes.count, size <= bytes.count - offset else {
                        throw PointPaintError(.malformed, file: file, place: entry,
                                              "node \(level)-\(i32(4))-\(i32(8))-\(i32(12)) points at \(size) bytes at byte offset \(offset), outside the file's points")
                    }
                    summary.nodes += 1
                    summary.points += count
                    summary.levels = Swift.max(summary.levels, level + 1)
                } else if count < -1 {
                    throw PointPaintError(.malformed, file: file, place: entry, "expected a point count of -1 or more, found \(count)")
                }
            }
        }
        return summary
    }
}

extension COPCFile.Info {
    /// Reads the record's data.
    init(_ data: [UInt8]) {
        let r = LittleEndianReader(bytes: data)
        func f(_ k: Int) -> Double { Double(bitPattern: r.u64(8 * k)) }
        center = SIMD3(f(0), f(1), f(2))
        halfsize = f(3)
        spacing = f(4)
        rootOffset = Int(truncatingIfNeeded: r.u64(40))
        rootSize = Int(truncatingIfNeeded: r.u64(48))
        gpsTime = (f(7), f(8))
    }
}
