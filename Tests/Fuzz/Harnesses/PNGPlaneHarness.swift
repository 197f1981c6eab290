import Foundation
@testable import PointPaint

/// A capture frame stored as PNG planes: the input is the luma plane of an 8×6 frame (its chroma
/// planes fixed and valid), checked as `info` checks it and decoded as `replay` decodes it.
enum PNGPlaneHarness: FuzzHarness {
    static let name = "png-plane"

    static func fuzz(_ bytes: [UInt8]) throws {
        let capture = reader  // made (with its directory) before the first plane is written
        _ = Fuzz.write(Fuzz.fixingPNGChecksums(bytes), to: "capture/y.png")
        try capture.checkFiles(ofFrame: 0)
        let image = try capture.image(at: 0)
        Fuzz.require(image.width == 8 && image.height == 6, "a frame of \(image.width)×\(image.height)")
    }
}

/// A one-frame capture of 8×6 PNG planes in the scratch directory.
private let reader: CaptureReader = {
    let directory = Fuzz.scratch + "/capture"
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let chroma = PNGImage(width: 4, height: 3, channels: 1, samples: [UInt8](repeating: 128, count: 12))
    try! chroma.write(to: directory + "/cb.png")
    try! chroma.write(to: directory + "/cr.png")
    _ = Fuzz.write([], to: "capture/points.xyz")
    let manifest = """
        {"format": "pointpaint.capture", "version": 1,
         "image": {"width": 8, "height": 6, "range": "full", "matrix": "bt601", "primaries": "srgb"},
         "frames": [{"timestamp": 0, "image": {"y": "y.png", "cb": "cb.png", "cr": "cr.png"}, "points": "points.xyz",
                     "camera": {"intrinsics": [8, 8, 4, 3], "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}}]}
        """
    _ = Fuzz.write(Array(manifest.utf8), to: "capture/capture.json")
    return try! CaptureReader(path: directory, checkFiles: false)
}()
