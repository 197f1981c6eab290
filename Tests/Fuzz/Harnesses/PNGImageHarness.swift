@testable import PointPaint

/// The image `lut apply --to` grades: any PNG up to the command's pixel limit, decoded through
/// our libpng wrapper from a file, then graded with a small cube.
enum PNGImageHarness: FuzzHarness {
    static let name = "png-image"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(Fuzz.fixingPNGChecksums(bytes), to: "image.png")
        let image = try PNGImage(contentsOf: path, maximumPixels: ColorCube.maximumImagePixels)
        Fuzz.require(image.samples.count == image.width * image.height * image.channels, "samples do not fill the image")
        _ = cube.applied(to: image)
    }
}

private let cube = ColorCube.identity(size: 3)
