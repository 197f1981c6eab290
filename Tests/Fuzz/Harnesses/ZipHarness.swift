@testable import PointPaint

/// ZIP archives (Record3D's `.r3d`), through our libzip wrapper from a file: the directory, then
/// every entry read as the source reads them.
enum ZipHarness: FuzzHarness {
    static let name = "zip"

    static func fuzz(_ bytes: [UInt8]) throws {
        let archive = try ZipArchive(path: Fuzz.write(bytes, to: "archive.r3d"))
        for name in archive.names {
            do {
                let data = try archive.read(name, maximumSize: 16 << 20)
                Fuzz.require(data.count == archive.entries[name]?.size, "entry \(name) read as \(data.count) bytes")
            } catch {
                Fuzz.check(error)
            }
        }
    }
}
