import Foundation
import Testing
@testable import PointPaint

/// `PLYReader.forEachPointChunk` streams binary vertex records chunk by chunk; together the
/// chunks must be the cloud the full parse gives, whatever the chunk size, and other files
/// (ascii, boxes, damage) must take the full parse and its errors.
@Suite("PLY point streaming")
struct PLYPointStreamTests {
    /// Every chunk of a file joined: the points counted, the number of chunks, positions,
    /// colours as 0…1 values, and whether they came as 8-bit codes.
    static func streamed(_ path: String, chunk: Int) throws -> (count: Int, chunks: Int, cloud: VoxelCloud, codes: Bool) {
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        var chunks = 0
        var codes = false
        let n = try PLYReader.forEachPointChunk(path: path, chunkPoints: chunk) { c in
            chunks += 1
            positions += c.positions
            if let k = c.codes {
                codes = true
                colors += k.map { SIMD3(PLYFile.unitValue($0.x), PLYFile.unitValue($0.y), PLYFile.unitValue($0.z)) }
            } else {
                colors += c.colors ?? []
            }
        }
        return (n, chunks, VoxelCloud(voxelSize: nil, positions: positions, colors: colors), codes)
    }

    @Test("streamed chunks join into the full parse's cloud",
          arguments: [PLYEncoding.binaryLittleEndian, .binaryBigEndian, .ascii])
    func equalsFullParse(encoding: PLYEncoding) throws {
        let dir = TemporaryDirectory()
        var state: UInt64 = 3
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        let n = 1000
        for (positionType, colorType) in [(PLYScalarType.float32, PLYScalarType.uint8), (.float64, .float32), (.float32, .uint16)] {
            let scale: Double = colorType == .uint8 ? 255 : colorType == .uint16 ? 65535 : 1
            func column(_ t: PLYScalarType, _ f: () -> Double) -> PLYColumn { PLYColumn(t, doubles: (0 ..< n).map { _ in f() }) }
            let vertex = PLYElement(name: "vertex", count: n, properties: [
                PLYProperty(name: "x", values: column(positionType) { next() * 4 - 2 }),
                PLYProperty(name: "red", values: column(colorType) { (next() * scale).rounded() }),
                PLYProperty(name: "y", values: column(positionType) { next() }),
                PLYProperty(name: "green", values: column(colorType) { (next() * scale).rounded() }),
                PLYProperty(name: "z", values: column(positionType) { -next() }),
                PLYProperty(name: "blue", values: column(colorType) { (next() * scale).rounded() }),
            ])
            let ply = PLYFile(encoding: encoding, elements: [
                PLYElement(name: "camera", count: 2, properties: [PLYProperty(name: "f", values: .float64([1, 2]))]), vertex])
            let path = dir.file("s.ply")
            try PLYWriter.write(ply, to: path)
            let expected = try PLYReader.readCloud(path: path)
            for chunk in [1, 7, 333, 1000, 5000] {
                let got = try Self.streamed(path, chunk: chunk)
                #expect(got.count == n && got.cloud.positions == expected.positions && got.cloud.colors == expected.colors,
                        "\(encoding) \(positionType) \(colorType), chunks of \(chunk)")
                let streams = encoding != .ascii
                #expect(got.chunks == (streams ? (n + chunk - 1) / chunk : 1))
                #expect(got.codes == (colorType == .uint8))
            }
        }
    }

    @Test("boxes and damaged files take the full parse")
    func fallbacks() throws {
        let dir = TemporaryDirectory()
        let cloud = VoxelCloud(voxelSize: 0.5, positions: [SIMD3(0.25, 0.25, 0.25), SIMD3(1.25, 0.25, 0.25)], colors: [SIMD3(1, 0, 0), SIMD3(0, 1, 0)])
        try PLYWriter(geometry: .boxes).write(cloud, to: dir.file("boxes.ply"))
        let boxes = try Self.streamed(dir.file("boxes.ply"), chunk: 1)
        #expect(boxes.count == 2 && boxes.chunks == 1 && boxes.cloud.positions == cloud.positions)
        try PLYWriter().write(cloud, to: dir.file("points.ply"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("points.ply"))))
        try Data(bytes.dropLast(4)).write(to: URL(fileURLWithPath: dir.file("short.ply")))
        let error = try #require(throws: PointPaintError.self) { _ = try Self.streamed(dir.file("short.ply"), chunk: 1) }
        #expect(error.kind == .tooLarge && error.message.contains("element 'vertex' declares 2 entries"))
    }
}
