import Foundation
import Testing
@testable import PointPaint

/// OpenEXR files PointPaint writes (Record3D's "EXR + JPG" depth): read back bit for bit, equal
/// to what the OpenEXR project's own binding wrote for the same values, and with the header
/// Record3D's readers expect (one float channel, scanlines, ZIP compression).
@Suite struct EXRImageWriteTests {
    /// The attributes of an OpenEXR header by name: (type, value bytes).
    static func attributes(_ bytes: [UInt8]) throws -> [String: (String, [UInt8])] {
        #expect(bytes.prefix(4) == [0x76, 0x2F, 0x31, 0x01])  // magic 20000630
        var offset = 8  // magic, then version and flags
        func string() throws -> String {
            let end = try #require(bytes[offset...].firstIndex(of: 0))
            defer { offset = end + 1 }
            return String(decoding: bytes[offset ..< end], as: UTF8.self)
        }
        var out: [String: (String, [UInt8])] = [:]
        while bytes[offset] != 0 {
            let name = try string(), type = try string()
            let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            out[name] = (type, Array(bytes[offset + 4 ..< offset + 4 + size]))
            offset += 4 + size
        }
        return out
    }

    @Test func writtenDepthReadsBackAsTheReferenceEncodersFile() throws {
        let reference = try EXRImage(contentsOf: EXRImageTests.fixture("z_zip_float.exr"))
        let values = (0 ..< 48).flatMap { y in (0 ..< 64).map { x in EXRImageTests.ramp(x, y) } }
        #expect(values.map(\.bitPattern) == reference.values.map(\.bitPattern))

        let dir = TemporaryDirectory()
        try EXRImage(width: 64, height: 48, channel: "Z", values: values).write(to: dir.file("d.exr"))
        let back = try EXRImage(contentsOf: dir.file("d.exr"))
        #expect(back.width == 64 && back.height == 48 && back.channel == "Z")
        #expect(back.values.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["d.exr"])

        let header = try Self.attributes(FileBytes.read(dir.file("d.exr")))
        let theirs = try Self.attributes(FileBytes.read(EXRImageTests.fixture("z_zip_float.exr")))
        #expect(header["compression"]?.1 == [3])  // ZIP_COMPRESSION
        // One channel "Z" of pixel type 2 (FLOAT), sampled at every pixel: as the binding wrote it.
        #expect(header["channels"]?.1 == Array("Z".utf8) + [0, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0])
        for name in ["channels", "compression", "dataWindow", "displayWindow", "lineOrder"] {
            #expect(header[name]?.0 == theirs[name]?.0 && header[name]?.1 == theirs[name]?.1, "\(name)")
        }
    }

    @Test func aFolderThatIsNotThereIsAnError() throws {
        let error = try #require(throws: PointPaintError.self) {
            try EXRImage(width: 2, height: 2, channel: "Z", values: [1, 2, 3, 4]).write(to: "/nonexistent-folder/d.exr")
        }
        #expect(error.file == "/nonexistent-folder/d.exr")
    }
}
