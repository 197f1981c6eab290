import Foundation
import Testing
@testable import PointPaint

/// `PLYCloudLayout` is the one rule by which the whole-file cloud reader (`PLYReader.readCloud`)
/// and the streaming reader (`PLYReader.forEachPointChunk`) decide to read vertex records
/// straight from the bytes. The same headers go through both: each must make the same decision
/// and give the colours (and positions) the full parse gives, bit for bit.
@Suite("PLY cloud layout")
struct PLYCloudLayoutTests {
    /// Five points' colour channels, as 0…1 values before a type quantises them.
    private static let red: [Double] = [1, 0, 0.2, 0.6, 0.5]
    private static let green: [Double] = [0, 1, 0.4, 0.6, 0.25]
    private static let blue: [Double] = [0.5, 0.25, 1, 0, 0.125]

    /// A column of `type` holding `units` (0…1) as that type stores a channel: integers scaled
    /// by their maximum and rounded, floats as they are.
    private static func channel(_ type: PLYScalarType, _ units: [Double]) -> PLYColumn {
        guard let scale = type.integerRange?.upperBound else { return PLYColumn(type, doubles: units) }
        return PLYColumn(type, doubles: units.map { ($0 * scale).rounded() })
    }

    /// The channel value a file holding `unit` as `type` must read as: integers divided by
    /// their type's maximum (8- and 16-bit codes by a multiply with the rounded reciprocal, as
    /// cloud files have always been read), floats as they are.
    private static func expected(_ type: PLYScalarType, _ unit: Double) -> Float {
        switch type {
        case .uint8: Float(UInt8((unit * 255).rounded())) * (1 / 255)
        case .uint16: Float(UInt16((unit * 65535).rounded())) * (1 / 65535)
        case .float32, .float64: Float(unit)
        default: Float((unit * type.integerRange!.upperBound).rounded() / type.integerRange!.upperBound)
        }
    }

    /// One header to try: its vertex properties and other elements, and whether the one-pass
    /// paths must read it.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var encoding: PLYEncoding = .binaryLittleEndian
        var positionType: PLYScalarType = .float32
        /// Red, green, blue types; nil for no colour.
        var colorTypes: [PLYScalarType]? = [.uint8, .uint8, .uint8]
        var colorNames = ("red", "green", "blue")
        var before: [PLYProperty] = []
        var after: [PLYProperty] = []
        var otherElements: [PLYElement] = []
        var fixed = true
        var description: String { name }
    }

    private static let n = 5

    private static let cases: [Case] = {
        let n = PLYCloudLayoutTests.n
        let normals = ["nx", "ny", "nz"].map { PLYProperty(name: $0, values: .float32([0, 0.5, 1, -1, 0])) }
        let neighbours = PLYProperty(name: "neighbours", countType: .uint8, itemType: .int32,
                                     lists: [[1], [0, 2], [], [4, 2, 1], [3]])
        let camera = PLYElement(name: "camera", count: 2, properties: [PLYProperty(name: "f", values: .float64([1, 2]))])
        return [
            Case(name: "uchar colours"),
            Case(name: "mixed uchar/float colours", colorTypes: [.uint8, .uint8, .float32]),
            Case(name: "mixed float/ushort/uchar colours", colorTypes: [.float32, .uint16, .uint8]),
            Case(name: "ushort colours", colorTypes: [.uint16, .uint16, .uint16]),
            Case(name: "double colours", colorTypes: [.float64, .float64, .float64]),
            Case(name: "signed integer colours", colorTypes: [.int8, .int16, .int32]),
            Case(name: "float colours named r g b", colorTypes: [.float32, .float32, .float32], colorNames: ("r", "g", "b")),
            Case(name: "diffuse_ colours", colorNames: ("diffuse_red", "diffuse_green", "diffuse_blue")),
            Case(name: "double positions", positionType: .float64, colorTypes: [.float32, .float32, .float32]),
            Case(name: "int positions", positionType: .int32),
            Case(name: "no colour", colorTypes: nil),
            Case(name: "alpha present", after: [PLYProperty(name: "alpha", values: .uint8([255, 128, 0, 1, 2]))]),
            Case(name: "extra properties before and after", colorTypes: [.uint8, .float32, .uint8], before: normals,
                 after: [PLYProperty(name: "confidence", values: .uint16([1, 2, 3, 4, 65535])),
                         PLYProperty(name: "views", values: .int32([0, -3, 7, 1 << 25 | 1, 2])),
                         PLYProperty(name: "colour_sd", values: .float64([0, 0.5, 0.125, 1e-9, 2]))],
                 otherElements: [camera]),
            Case(name: "a list property in the vertex element", before: [neighbours], fixed: false),
            Case(name: "a list property in another element",
                 otherElements: [PLYElement(name: "edge", count: 2, properties: [
                     PLYProperty(name: "ends", countType: .uint8, itemType: .int32, lists: [[0, 1], [1, 2]])])],
                 fixed: false),
            Case(name: "faces", otherElements: [PLYElement(name: "face", count: 1, properties: [
                PLYProperty(name: "vertex_indices", countType: .uint8, itemType: .int32, lists: [[0, 1, 2]])])],
                 fixed: false),
            Case(name: "big-endian mixed colours", encoding: .binaryBigEndian, positionType: .float64,
                 colorTypes: [.uint16, .uint8, .float32], after: [PLYProperty(name: "alpha", values: .uint8(Array(repeating: 255, count: n)))]),
            Case(name: "big-endian uchar colours", encoding: .binaryBigEndian),
            Case(name: "ascii mixed colours", encoding: .ascii, colorTypes: [.uint8, .uint8, .float32], fixed: false),
        ]
    }()

    private static func file(_ c: Case) -> PLYFile {
        let xs: [Double] = [0.5, -1.25, 3, 1e6, -0]
        func position(_ values: [Double]) -> PLYColumn {
            PLYColumn(c.positionType, doubles: c.positionType.isInteger ? values.map { $0.rounded() } : values)
        }
        var properties = c.before + [
            PLYProperty(name: "z", values: position(xs.map { $0 * 2 })),
            PLYProperty(name: "x", values: position(xs)),
        ]
        if let t = c.colorTypes {
            properties.append(PLYProperty(name: c.colorNames.2, values: channel(t[2], blue)))
            properties.append(PLYProperty(name: c.colorNames.0, values: channel(t[0], red)))
        }
        properties.append(PLYProperty(name: "y", values: position(xs.reversed())))
        if let t = c.colorTypes { properties.append(PLYProperty(name: c.colorNames.1, values: channel(t[1], green))) }
        properties += c.after
        var elements = c.otherElements
        elements.insert(PLYElement(name: "vertex", count: n, properties: properties), at: min(1, elements.count))
        return PLYFile(encoding: c.encoding, elements: elements)
    }

    private static func bits(_ v: [SIMD3<Float>]) -> [[UInt32]] {
        v.map { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
    }

    @Test("the whole-file and the streaming reader make the same decision and read the same colours",
          arguments: cases)
    func samePathsSameColours(_ c: Case) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("c.ply")
        let bytes = PLYWriter.encode(Self.file(c))
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // The decision: the whole-file reader's one pass, and the streaming reader's chunks.
        let onePass = try bytes.withUnsafeBytes { raw in
            let (header, data) = try PLYReader.parseHeader(raw, file: path)
            #expect((PLYCloudLayout(header, dataBytes: data.remaining) != nil) == c.fixed)
            return try PLYReader.directCloud(header, data, file: path)
        }
        #expect((onePass != nil) == c.fixed, "whole-file reader")
        let stream = try PLYPointStreamTests.streamed(path, chunk: 2)
        #expect(stream.chunks == (c.fixed ? 3 : 1), "streaming reader")
        #expect(stream.codes == (c.colorTypes == [.uint8, .uint8, .uint8]))

        // The values: both readers and the full parse, bit for bit.
        let full = try PLYReader.read(bytes: bytes, file: path).cloud(file: path)
        let whole = try PLYReader.readCloud(path: path)
        #expect(whole == full)
        if let onePass { #expect(onePass == full) }
        #expect(stream.cloud.positions == full.positions)
        #expect(Self.bits(whole.colors) == Self.bits(full.colors))
        #expect(Self.bits(stream.cloud.colors) == Self.bits(full.colors))

        // Each channel scaled by its own type.
        let expected: [SIMD3<Float>] = (0 ..< Self.n).map { i in
            guard let t = c.colorTypes else { return SIMD3(1, 1, 1) }
            return SIMD3(Self.expected(t[0], Self.red[i]), Self.expected(t[1], Self.green[i]), Self.expected(t[2], Self.blue[i]))
        }
        #expect(Self.bits(whole.colors) == Self.bits(expected))
        #expect(whole.worldPosition(1) == SIMD3<Double>(-1.25, 1e6, -2.5) || c.positionType.isInteger)
        if c.after.contains(where: { $0.name == "views" }) {
            // Integer views exactly (2^25 + 1 is not a Float), negatives 0.
            #expect(whole.counts == [0, 0, 7, 1 << 25 | 1, 2])
            #expect(whole.colourSD == [0, 0.5, 0.125, 1e-9, 2])
        }
    }

    @Test("a file past the parallel threshold reads on every core exactly as the full parse reads it",
          arguments: [PLYEncoding.binaryLittleEndian, .binaryBigEndian])
    func manyRecordsInBands(_ encoding: PLYEncoding) throws {
        // An odd count, so the bands are unequal; map coordinates, so positions go through the
        // origin; float and integer colours; views and spreads.
        let n = PLYCloudLayout.parallelThreshold * 2 + 7
        var random = SystemRandomNumberGenerator()
        let xs = (0 ..< n).map { _ in 500_000 + Double.random(in: -50 ... 50, using: &random) }
        let ys = (0 ..< n).map { _ in 5_400_000 + Double.random(in: -50 ... 50, using: &random) }
        let zs = (0 ..< n).map { i in i == n / 2 ? Double.nan : Double.random(in: 0 ... 30, using: &random) }
        let file = PLYFile(encoding: encoding, elements: [PLYElement(name: "vertex", count: n, properties: [
            PLYProperty(name: "x", values: .float64(xs)), PLYProperty(name: "y", values: .float64(ys)),
            PLYProperty(name: "z", values: .float64(zs)),
            PLYProperty(name: "red", values: .uint8((0 ..< n).map { UInt8(truncatingIfNeeded: $0) })),
            PLYProperty(name: "green", values: .uint16((0 ..< n).map { UInt16(truncatingIfNeeded: $0 &* 7) })),
            PLYProperty(name: "blue", values: .float32((0 ..< n).map { Float($0 % 1000) / 999 })),
            PLYProperty(name: "views", values: .int32((0 ..< n).map { Int32($0 % 9) - 1 })),
            PLYProperty(name: "colour_sd", values: .float32((0 ..< n).map { Float($0 % 13) / 100 })),
        ])])
        let bytes = PLYWriter.encode(file)
        let path = "bands.ply"
        let direct = try bytes.withUnsafeBytes { raw in
            let (header, data) = try PLYReader.parseHeader(raw, file: path)
            return try PLYReader.directCloud(header, data, file: path)
        }
        let full = try PLYReader.read(bytes: bytes, file: path).cloud(file: path)
        // Bit for bit (one point is NaN, which == would never match).
        func exact(_ v: [SIMD3<Double>]?) -> [[UInt64]]? { v?.map { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } }
        let same = direct.map { d in
            Self.bits(d.positions) == Self.bits(full.positions) && Self.bits(d.colors) == Self.bits(full.colors)
                && d.counts == full.counts && d.colourSD == full.colourSD && exact(d.exactPositions) == exact(full.exactPositions)
                && d.origin == full.origin
        }
        #expect(same == true && full.origin != .zero)
    }
}
