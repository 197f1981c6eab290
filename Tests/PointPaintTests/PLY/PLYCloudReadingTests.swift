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
            let bytes = PLYWriter.encode(ply)
            let path = try Self.temporaryFile(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let direct = try PLYReader.readCloud(path: path)
            let parsed = try PLYReader.read(bytes: bytes, file: path).cloud(file: path)
            #expect(direct == parsed)
            #expect(direct.count == 5)
            #expect(direct.voxelSize == 0.125)
            #expect(direct.positions[1] == SIMD3(-1.25, 1e6, -2.5))
            if colorType != nil { #expect(direct.colors[0].x == 1 && direct.colors[0].y == 0) }
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
