import Foundation

/// Converts LAS to LAZ and back, keeping every field of every point, the header (but for what
/// compression changes: the format byte's compression bit, the point data offset, the record
/// counts and the extended records' offset), every variable-length record but the LASzip one,
/// and the extended records: `pointpaint convert`. A COPC file converts to plain LAS or LAZ: its
/// `info` record and hierarchy describe an arrangement the output does not keep, so they go.
/// Described in docs/laz.md.
public enum LASConverter {
    /// What a conversion did.
    public struct Summary: Sendable, Equatable {
        public var points: Int
        public var pointFormat: UInt8
        /// Whether the input, and the output, are LAZ.
        public var inputCompressed: Bool, outputCompressed: Bool
    }

    /// Writes the LAS or LAZ file at `input` to `output`, LAZ when its name ends in `.laz`.
    /// - Throws: what reading the input throws; `.unsupported` for LAZ output of a point format
    ///   the writer does not compress (wave packets), or for COPC output (`.copc.laz`: the
    ///   commands that write clouds write COPC).
    @discardableResult
    public static func convert(_ input: String, to output: String) throws -> Summary {
        guard !COPCFile.named(output) else {
            throw PointPaintError(.unsupported, file: output, place: .part("-o"),
                                  "convert writes LAS and LAZ; write COPC with the command that makes the cloud (replay, voxelize, paint or merge -o x.copc.laz)")
        }
        return try MappedBytes(mapping: input, expected: "a LAS file").withUnsafeBytes { bytes in
            let h = try LASReader.header(bytes, file: input)
            let compress = LASWriter.compresses(path: output)
            let parameters = compress ? try LAZParameters.standard(format: h.pointFormat, recordLength: h.recordLength, file: output) : nil
            let extended = try extendedRecords(bytes, header: h, file: input).filter { !$0.copc }
            var records = h.records.filter {
                !($0.userID == LAZParameters.userID && $0.recordID == LAZParameters.recordID) && $0.userID != COPCFile.userID
            }
            if let parameters { records.append(parameters.record) }
            let vlrs = LASWriter.encoded(records: records)
            var head = Array(UnsafeRawBufferPointer(rebasing: bytes[..<h.headerSize]))
            func put<T: FixedWidthInteger>(_ v: T, at o: Int) { withUnsafeBytes(of: v.littleEndian) { head.replaceSubrange(o ..< o + $0.count, with: $0) } }
            put(UInt32(h.headerSize + vlrs.count), at: 96)
            put(UInt32(records.count), at: 100)
            head[104] = h.pointFormat | (compress ? 0x80 : 0)
            if h.headerSize >= 375 {
                put(UInt32(extended.count), at: 243)
                if extended.isEmpty { put(UInt64(0), at: 235) }
            }
            try AtomicFile.write(to: output) { temporary in
                var sink = try LASRecordSink.start(FileSink(creating: temporary, file: output), headerBytes: head + vlrs, parameters: parameters)
                if h.compressed {
                    try LAZReader.forEachRecords(bytes, header: h, file: input) { try sink.write($0) }
                } else {
                    try sink.write(UnsafeRawBufferPointer(rebasing: bytes[h.pointDataOffset ..< h.pointDataOffset + h.pointCount * h.recordLength]))
                }
                // The extended records follow the points (and a LAZ file's chunk table); their new
                // offset goes into the header.
                if !extended.isEmpty, h.headerSize >= 375 {
                    try sink.finish(trailer: extended.flatMap { Array(UnsafeRawBufferPointer(rebasing: bytes[$0.range])) }, offsetAt: 235)
                } else {
                    try sink.finish()
                }
            }
            return Summary(points: h.pointCount, pointFormat: h.pointFormat, inputCompressed: h.compressed, outputCompressed: compress)
        }
    }

    /// The file's extended variable-length records (LAS 1.4): each one's byte range, and whether
    /// it is COPC's; checked record by record.
    static func extendedRecords(_ bytes: UnsafeRawBufferPointer, header h: LASHeader, file: String) throws -> [(range: Range<Int>, copc: Bool)] {
        guard let start = h.extendedRecordsOffset else { return [] }
        let cursor = ByteCursor(bytes)
        let count = Int(cursor.load(UInt32.self, at: 243, byteSwapped: UInt16(1).bigEndian == 1))
        var at = start
        var records: [(range: Range<Int>, copc: Bool)] = []
        for k in 0 ..< count {
            guard bytes.count - at >= 60 else {
                throw PointPaintError(.malformed, file: file, place: .element("extended variable-length record", k),
                                      "expected a 60-byte record header at byte offset \(at), found the end of the file")
            }
            let length = cursor.load(UInt64.self, at: at + 20, byteSwapped: UInt16(1).bigEndian == 1)
            guard length <= UInt64(bytes.count - at - 60) else {
                throw PointPaintError(.malformed, file: file, place: .element("extended variable-length record", k),
                                      "declares \(length) bytes of data, past the end of the file")
            }
            let user = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 2) ..< (at + 18)]).prefix { $0 != 0 }, as: UTF8.self)
            records.append((at ..< at + 60 + Int(length), user == COPCFile.userID))
            at += 60 + Int(length)
        }
        return records
    }
}
