@testable import PointPaint

/// A JPEG colour frame (Stray, Record3D, Polycam, 3D Scanner App and nerfstudio frames), read as
/// a capture source reads it: its description first, then decoded straight to Y′CbCr planes.
enum JPEGHarness: FuzzHarness {
    static let name = "jpeg"

    static func fuzz(_ bytes: [UInt8]) throws {
        let info = try SourceFiles.jpegImageInfo(bytes: bytes, file: "frame.jpg", frame: 0)
        let image = try SourceFiles.jpegImage(bytes, file: "frame.jpg", frame: 0, info: info)
        Fuzz.require(image.width == info.width && image.height == info.height, "a \(info.width)x\(info.height) frame decoded as \(image.width)x\(image.height)")
    }
}
