import Foundation
import Testing
@testable import PointPaint

/// `count` points on a noisy spiral a few hundred metres across, with colours, so every field
/// of the codec changes from point to point.
private func spiral(_ count: Int) -> (positions: [SIMD3<Float>], colors: [SIMD3<Float>]) {
    var rng = SplitMix64(seed: 11)
    var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
    for i in 0 ..< count {
        let t = Float(i) * 0.001
        let r = 50 + Float(rng.next() % 1000) * 0.01
        positions.append(SIMD3(r * cos(t), r * sin(t), Float(rng.next() % 5000) * 0.001))
        colors.append(SIMD3(Float(i % 256) / 255, Float(rng.next() % 65536) / 65535, 0.5))
    }
    return (positions, colors)
}

/// Writes the points to `path` (LAS, LAZ or COPC by its name) and returns the file's bytes.
func writtenBytes(_ points: (positions: [SIMD3<Float>], colors: [SIMD3<Float>]), to path: String) throws -> [UInt8] {
    try LASWriter().write(positions: points.positions, colors: points.colors, to: path)
    return try StoreFixtures.bytes(path)
}

/// Writes the points to `path` and, beside it, to `x.las`.
func writeWithLAS(_ points: (positions: [SIMD3<Float>], colors: [SIMD3<Float>]), to path: String) throws {
    try LASWriter().write(positions: points.positions, colors: points.colors, to: path)
    let las = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("x.las").path
    try LASWriter().write(positions: points.positions, colors: points.colors, to: las)
}

@Suite("LAZ")
struct LAZTests {
    @Test("points written as LAZ (three chunks, point format 7 layered) read back as the same LAS points, every coordinate and colour")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        try writeWithLAS(spiral(120_001), to: dir.file("x.laz"))
        let h = try LASReader.readHeader(path: dir.file("x.laz"))
        #expect(h.compressed && h.pointFormat == 7 && h.recordLength == 36 && h.pointCount == 120_001)
        let parameters = try LAZParameters(header: h, file: "x.laz")
        #expect(parameters.compressor == 3 && parameters.chunkSize == 50_000 && parameters.items.map(\.type) == [10, 11])
        let laz = try LASReader.readCloud(path: dir.file("x.laz")), las = try LASReader.readCloud(path: dir.file("x.las"))
        #expect(laz.count == las.count && laz.origin == las.origin)
        #expect(laz.positions == las.positions)
        #expect(laz.colors == las.colors)
        // Three chunks, as the table says: 50,000, 50,000 and 20,001 points.
        let chunks = try MappedBytes(mapping: dir.file("x.laz"), expected: "LAZ").withUnsafeBytes {
            try LAZChunkTable.read($0, header: h, parameters: parameters, file: "x.laz")
        }
        #expect(chunks.map(\.points) == [50_000, 50_000, 20_001])
    }

    @Test("LAZ to LAS and back gives the same bytes; the LAS holds the records uncompressed")
    func convertRoundTrip() throws {
        let dir = TemporaryDirectory()
        let (positions, colors) = spiral(60_000)
        try LASWriter().write(positions: positions, colors: colors, to: dir.file("a.laz"))
        let down = try LASConverter.convert(dir.file("a.laz"), to: dir.file("b.las"))
        #expect(down == LASConverter.Summary(points: 60_000, pointFormat: 7, inputCompressed: true, outputCompressed: false))
        let h = try LASReader.readHeader(path: dir.file("b.las"))
        #expect(!h.compressed && h.pointFormat == 7 && !h.records.contains { $0.userID == LAZParameters.userID })
        try LASConverter.convert(dir.file("b.las"), to: dir.file("c.laz"))
        #expect(try StoreFixtures.bytes(dir.file("a.laz")) == StoreFixtures.bytes(dir.file("c.laz")))
        let file = try StoreFixtures.bytes(dir.file("b.las"))
        #expect(file.count == h.pointDataOffset + 60_000 * 36)
        // The LAS file's records are those LASWriter writes uncompressed.
        try LASWriter().write(positions: positions, colors: colors, to: dir.file("d.las"))
        let plain = try StoreFixtures.bytes(dir.file("d.las"))
        #expect(Array(file.suffix(60_000 * 36)) == Array(plain.suffix(60_000 * 36)))
    }

    @Test("an empty cloud gives a LAZ file of no points")
    func empty() throws {
        let dir = TemporaryDirectory()
        try LASWriter().write(positions: [], colors: [], to: dir.file("e.laz"))
        #expect(try LASReader.readHeader(path: dir.file("e.laz")).pointCount == 0)
        #expect(try LASReader.readCloud(path: dir.file("e.laz")).count == 0)
    }

    @Test("damaged LAZ gives one error naming the place: chunk table, chunk or stream")
    func damaged() throws {
        let dir = TemporaryDirectory()
        let (positions, colors) = spiral(120_000)
        let good = try writtenBytes((positions, colors), to: dir.file("ok.laz"))
        let h = try LASReader.readHeader(path: dir.file("ok.laz"))
        let start = h.pointDataOffset
        let table = good.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: start, as: Int64.self)) }
        func failure(_ bytes: [UInt8]) throws -> PointPaintError {
            try StoreFixtures.write(bytes, to: dir.file("bad.laz"))
            return try #require(throws: PointPaintError.self) { _ = try LASReader.readCloud(path: dir.file("bad.laz")) }
        }
        func patched(_ value: Int64, at offset: Int, in bytes: [UInt8] = good) -> [UInt8] {
            var out = bytes
            withUnsafeBytes(of: value.littleEndian) { out.replaceSubrange(offset ..< offset + 8, with: $0) }
            return out
        }
        // The file cut in its second chunk: the table's offset points past the end.
        let cut = try failure(Array(good[..<(start + 8 + (table - start) / 2)]))
        #expect(cut.kind == .malformed && cut.place == .part("chunk table") && cut.message.contains("file's end"))
        // The table's offset pointing at itself, or where the points begin.
        #expect(try failure(patched(Int64(start), at: start)).message.contains("points at itself"))
        #expect(try failure(patched(Int64(start + 8), at: start)).message.contains("missing"))
        // The table itself cut short: its coded entries run out.
        let shortTable = try failure(Array(good[..<(table + 10)]))
        #expect(shortTable.kind == .malformed && shortTable.place == .byteOffset(table + 8))
        // A table that gives the first chunk fewer bytes than it has: its stream runs out.
        let chunks = try MappedBytes(copying: good).withUnsafeBytes {
            try LAZChunkTable.read($0, header: h, parameters: LAZParameters(header: h, file: "ok.laz"), file: "ok.laz")
        }
        var shrunk = chunks
        shrunk[0].size = 2_000
        var truncated = Array(good[..<table])
        truncated += LAZChunkTable.encode(shrunk, variable: false)
        let runsOut = try failure(truncated)
        #expect(runsOut.place == .element("chunk", 0) && runsOut.message.contains("run out at point"))
        // A header that states more points than the chunks hold.
        let count = try failure(patched(Int64(150_001), at: 247))
        #expect(count.place == .part("chunk table") && count.message.contains("150001 points"))
        // Items the codec does not have: one line naming them.
        var layered = good
        let record = try #require(h.records.firstIndex { $0.userID == LAZParameters.userID })
        let vlr = h.headerSize + h.records[..<record].reduce(0) { $0 + 54 + $1.data.count } + 54
        layered[vlr + 38] = 2  // POINT14 at version 2: no such compressor
        let unsupported = try failure(layered)
        #expect(unsupported.kind == .unsupported && unsupported.message.contains("POINT14 v2, RGB14 v3"))
        // A LAS file with the compression bit but no LASzip record.
        try LASWriter().write(positions: Array(positions[..<10]), colors: Array(colors[..<10]), to: dir.file("plain.las"))
        var flagged = try StoreFixtures.bytes(dir.file("plain.las"))
        flagged[104] |= 0x80
        #expect(try failure(flagged).kind == .missing)
    }

    @Test("LASzip records that are cut short or disagree with the header are refused")
    func parameters() throws {
        let good = LASRecordSink.parameters
        let record = good.record
        #expect(record.data.count == 34 + 6 * 2)
        func header(_ data: [UInt8], length: Int = 36) -> LASHeader {
            LASHeader(version: (1, 4), headerSize: 375, pointDataOffset: 600, pointFormat: 7, recordLength: length, pointCount: 1,
                      globalEncoding: 0, systemIdentifier: "", generatingSoftware: "", scale: .one, offset: .zero, min: .zero, max: .zero,
                      records: [LASHeader.VariableLengthRecord(userID: LAZParameters.userID, recordID: LAZParameters.recordID, description: "", data: data)],
                      compressed: true)
        }
        #expect(try LAZParameters(header: header(record.data), file: "f") == good)
        #expect(throws: PointPaintError.self) { try LAZParameters(header: header(Array(record.data[..<40])), file: "f") }
        #expect(throws: PointPaintError.self) { try LAZParameters(header: header(record.data, length: 34), file: "f") }
        var coder = record.data
        coder[2] = 1
        #expect(throws: PointPaintError.self) { try LAZParameters(header: header(coder), file: "f") }
    }
}
