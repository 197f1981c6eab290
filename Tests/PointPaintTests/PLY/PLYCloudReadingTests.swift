import Foundation
import Testing
@testable import PointPaint

/// `PLYReader.readCloud` reads plain binary vertex records in one pass; it must give exactly the
/// cloud the full parse gives, and leave damaged files to the full parse's errors.
@Suite("PLY cloud reading")
struct PLYCloudReadingTests {
    private static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/pointpaint-cloud-\(UInt32.random(in: 0 ... .max)).ply"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `ply` written to a file and read back by `readCloud` (one pass when it can), after checking
    /// that the full parse gives the same cloud.
    private static func readBothWays(_ ply: PLYFile) throws -> VoxelCloud {
        let bytes = PLYWriter.encode(ply)
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let direct = try PLYReader.readCloud(path: path)
        let parsed = try PLYReader.read(bytes: bytes, file: path).cloud(file: path)
        #expect(direct == parsed)
        return direct
    }

    /// A vertex element with doubles or floats for x, y, z, colours of `colorType`, an extra
    /// property in between, and an element before and after the vertices.
    private static func file(_ encoding: PLYEncoding, positionType: PLYScalarType, colorType: PLYScalarType?) -> PLYFile {
        let n = 5
        let xs: [Double] = [0.5, -1.25, 3e-5, 1e6, -0.0]
        func column(_ type: PLYScalarType, _ values: [Double]) -> PLYColumn { PLYColumn(type, doubles: values) }
        var properties = [
            PLYProperty(name: "z", values: column(positionType, xs.map { $0 * 2 })),
            PLYProperty(name: "confidence", values: column(.uint16, [1, 2, 3, 4, 65535])),
            PLYProperty(name: "x", values: column(positionType, xs)),
            PLYProperty(name: "y", values: column(positionType, xs.reversed())),
        ]
        if let colorType {
            let scale: Double = colorType == .uint8 ? 255 : colorType == .uint16 ? 65535 : 1
            properties.append(PLYProperty(name: "blue", values: column(colorType, [0, 0.2, 0.4, 0.6, 1].map { ($0 * scale).rounded() })))
            properties.append(PLYProperty(name: "red", values: column(colorType, [1, 0.2, 0, 0.6, 0].map { ($0 * scale).rounded() })))
            properties.append(PLYProperty(name: "green", values: column(colorType, [0, 1, 0.4, 0.6, 1].map { ($0 * scale).rounded() })))
        }
        return PLYFile(encoding: encoding, comments: ["voxel_size 0.125"], elements: [
            PLYElement(name: "camera", count: 2, properties: [PLYProperty(name: "f", values: .float64([1, 2]))]),
            PLYElement(name: "vertex", count: n, properties: properties),
            PLYElement(name: "extra", count: 3, properties: [PLYProperty(name: "k", values: .int8([-1, 0, 1]))]),
        ])
    }

    @Test("one-pass reading equals the full parse",
          arguments: [PLYEncoding.binaryLittleEndian, .binaryBigEndian, .ascii],
          [PLYScalarType.float32, .float64])
    func equalsFullParse(encoding: PLYEncoding, positionType: PLYScalarType) throws {
        for colorType in [PLYScalarType.uint8, .float32, .uint16, nil] {
            let ply = Self.file(encoding, positionType: positionType, colorType: colorType)
            let direct = try Self.readBothWays(ply)
            #expect(direct.count == 5)
            #expect(direct.voxelSize == 0.125)
            // 1e6 lies past ±1024 m: the cloud is measured from its rounded centre, exactly.
            #expect(direct.origin != .zero && direct.worldPosition(1) == SIMD3<Double>(-1.25, 1e6, -2.5))
            if colorType != nil { #expect(direct.colors[0].x == 1 && direct.colors[0].y == 0) }
        }
    }

    @Test("'views' and 'colour_sd' become the cloud's counts and colour spreads, in one pass or parsed, whatever their type",
          arguments: [PLYEncoding.binaryLittleEndian, .binaryBigEndian, .ascii],
          [PLYScalarType.uint32, .uint16, .float32])
    func qualityProperties(encoding: PLYEncoding, viewsType: PLYScalarType) throws {
        let views: [Double] = [0, 1, 7, 260]
        let spread: [Float] = [0, 0.5, 0.0125, 0.25]
        let ply = PLYFile(encoding: encoding, comments: [], elements: [
            PLYElement(name: "vertex", count: 4, properties: [
                PLYProperty(name: "x", values: .float32([0, 1, 2, 3])),
                PLYProperty(name: "y", values: .float32([0, 0, 0, 0])),
                PLYProperty(name: "z", values: .float32([0, 0, 0, 0])),
                PLYProperty(name: "red", values: .uint8([255, 0, 0, 9])),
                PLYProperty(name: "green", values: .uint8([0, 255, 0, 9])),
                PLYProperty(name: "blue", values: .uint8([0, 0, 255, 9])),
                PLYProperty(name: "views", values: PLYColumn(viewsType, doubles: views)),
                PLYProperty(name: "colour_sd", values: .float32(spread)),
            ]),
        ])
        let direct = try Self.readBothWays(ply)
        #expect(direct.counts == [0, 1, 7, 260])
        #expect(direct.colourSD == spread)
        #expect(direct.hasViewCounts)
    }

    @Test("paint's PLY with --quality-properties reads back with its views and spreads; without them the counts are ones")
    func paintedQualityRoundTrip() throws {
        let cloud = VoxelCloud(voxelSize: nil, positions: [SIMD3(0, 0, 1), SIMD3(1, 0, 1), SIMD3(2, 0, 1)],
                               colors: [SIMD3(0.25, 0.5, 0.75), SIMD3(1, 1, 1), SIMD3(0, 0, 0)], counts: [3, 0, 12])
        let result = PaintResult(cloud: cloud, painted: [true, false, true], statistics: CloudPainter.Statistics(),
                                 colourSD: [0.03, 0, 0.001])
        for quality in [true, false] {
            let bytes = PLYWriter.encode(result.plyFile(qualityProperties: quality))
            let read = try PLYReader.readCloud(bytes: bytes, file: "painted.ply")
            #expect(read.counts == (quality ? [3, 0, 12] : [1, 1, 1]))
            #expect(read.colourSD == (quality ? [0.03, 0, 0.001] : nil))
            #expect(read.hasViewCounts == quality)
        }
    }

    @Test("a truncated binary file is refused with the full parse's error")
    func truncated() throws {
        var bytes = PLYWriter.encode(Self.file(.binaryLittleEndian, positionType: .float32, colorType: .uint8))
        bytes.removeLast(2)  // the last element loses its last entry
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(pointPaintError { _ = try PLYReader.readCloud(path: path) })
        #expect(error.kind == .tooLarge && error.file == path && error.place == .byteOffset(bytes.count - 1))
    }

    @Test("a missing file and a directory are named in the error")
    func notAFile() throws {
        let dir = FileManager.default.temporaryDirectory.path
        let directory = try #require(pointPaintError { _ = try PLYReader.readCloud(path: dir) })
        #expect(directory.kind == .missing && directory.file == dir)
        let path = dir + "/no-such-\(UInt32.random(in: 0 ... .max)).ply"
        let absent = try #require(pointPaintError { _ = try PLYReader.readCloud(path: path) })
        #expect(absent.kind == .missing && absent.file == path)
    }
}
