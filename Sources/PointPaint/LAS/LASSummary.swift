/// What `pointpaint info FILE.las` prints: version, point format, count, scale and offset,
/// stated bounds, LAZ compression, the variable-length records and, for PointPaint's files, the voxel size and
/// comments.
public struct LASSummary: Sendable, CustomStringConvertible {
    /// The file as named by the user.
    public var path: String
    /// The header.
    public var header: LASHeader
    /// A COPC file's `info` record and hierarchy, checked.
    public var copc: COPCFile.Summary?

    /// Reads the header of the LAS file at `path` (and a COPC file's hierarchy).
    public init(path: String) throws {
        self.path = path
        let (header, copc) = try MappedBytes(mapping: path, expected: "a LAS file").withUnsafeBytes { bytes in
            let h = try LASReader.header(bytes, file: path)
            return (h, COPCFile.isCOPC(h) ? try COPCFile.summary(bytes, header: h, file: path) : nil)
        }
        self.header = header
        self.copc = copc
    }

    /// Several lines, the first naming the file, version and format; control and invisible
    /// characters of the file's text (the software, the records' user IDs and descriptions, the
    /// comments) spelled out (`\u{1B}`).
    public var description: String {
        let h = header
        func f(_ v: SIMD3<Double>) -> String { PointPaintError.tuple(v) }
        var lines = ["\(path): LAS \(h.version.major).\(h.version.minor), point format \(h.pointFormat) (\(h.recordLength) bytes a point), \(h.pointCount) point\(h.pointCount == 1 ? "" : "s")"]
        lines.append("  software: \(h.generatingSoftware.isEmpty ? "unknown" : h.generatingSoftware)")
        lines.append("  scale: \(f(h.scale)), offset: \(f(h.offset))")
        lines.append("  bounds: " + (h.pointCount == 0 ? "none (no points)" : "min \(f(h.min)) max \(f(h.max))"))
        if h.compressed {
            // What the LASzip record says, or why it cannot be read (the points then cannot either).
            let how = (try? LAZParameters(header: h, file: path)).map { p in
                let kind = ["", "point-wise", "point-wise, chunked", "layered, chunked"][Int(p.compressor)]
                let chunks = p.chunkSize.map { "chunks of \($0) points" } ?? "variable-size chunks"
                return "LASzip compressor \(p.compressor) (\(kind)), \(chunks): \(LAZChunkDecoder.describe(p.items))"
            } ?? "no valid LASzip record"
            lines.append("  compression: LAZ, \(how)")
        }
        if let c = copc {
            lines.append("  COPC: \(c.nodes) octree nodes holding \(c.points) points in \(c.levels) level\(c.levels == 1 ? "" : "s"), "
                + "root cube centre \(f(c.info.center)) half-size \(c.info.halfsize), spacing \(c.info.spacing)")
        }
        lines.append("  colour: " + (LASHeader.colorOffset(format: h.pointFormat) == nil ? "none" : "red green blue (16-bit)"))
        for r in h.records {
            lines.append("  record \(r.userID) \(r.recordID): \(r.description) (\(r.data.count) bytes)")
        }
        for c in h.comments { lines.append("  comment \(c)") }
        lines.append("  voxel size: " + (h.voxelSize.map { "\($0)" } ?? "unknown"))
        // The header's text is the file's: nothing in it may clear the terminal or break a line.
        return PointPaintError.escapingInvisible(lines: lines)
    }
}
