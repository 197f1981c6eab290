import Foundation

extension ColorCube {
    /// How the `size³` entries are arranged as an image's rows when written as PNG. Every layout
    /// holds the entries in raster order (row after row, left to right), so any of them — or any
    /// other image with `size³` pixels — reads back the same way.
    public enum PNGLayout: String, Sendable, CaseIterable, Hashable {
        /// Square when `size` is a perfect square (the Hald CLUT shape: 512×512 for 64), otherwise
        /// `strip`.
        case automatic
        /// `size²` wide and `size` tall: one row per blue value.
        case strip
        /// `size` wide and `size²` tall: one row per green-and-blue pair.
        case column
    }

    /// Width and height of the PNG for a cube of `size` points in `layout`.
    public static func pngDimensions(size: Int, layout: PNGLayout = .automatic) -> (width: Int, height: Int) {
        switch layout {
        case .automatic:
            let root = Int(Double(size).squareRoot().rounded())
            if root * root == size { return (root * size, root * size) }
            return (size * size, size)
        case .strip: return (size * size, size)
        case .column: return (size, size * size)
        }
    }

    /// The largest PNG a cube is read from: 256³ pixels.
    static let maximumPNGPixels = 256 * 256 * 256

    /// Reads a cube from a PNG whose pixel count is `N³` (N = 2…256), taking the pixels in raster
    /// order as entries (red fastest, then green, then blue). 8- and 16-bit grey, grey+alpha, RGB and
    /// RGBA are accepted; alpha is ignored.
    /// - Throws: `PointPaintError` when the file is not a PNG or its pixel count is not a cube.
    public init(pngAt path: String) throws {
        let info = try PNGImage.readInfo(path: path)
        try Self.checkPixelCount(width: info.width, height: info.height, file: path)
        try self.init(png: try PNGImage(contentsOf: path, maximumPixels: Self.maximumPNGPixels), file: path)
    }

    /// Reads a cube from a decoded image (see `init(pngAt:)`); `file` names it in errors.
    public init(png image: PNGImage, file: String? = nil) throws {
        let size = try Self.checkPixelCount(width: image.width, height: image.height, file: file)
        let count = size * size * size
        let channels = image.channels
        var entries = [SIMD3<Float>](repeating: .zero, count: count)
        func read<T: FixedWidthInteger & UnsignedInteger>(_ samples: [T]) {
            let maximum = Float(T.max)
            samples.withUnsafeBufferPointer { s in
                for i in 0 ..< count {
                    let o = i * channels
                    entries[i] = channels >= 3
                        ? SIMD3(Float(s[o]), Float(s[o + 1]), Float(s[o + 2])) / maximum
                        : SIMD3(repeating: Float(s[o]) / maximum)
                }
            }
        }
        switch image.samples {
        case .eight(let samples): read(samples)
        case .sixteen(let samples): read(samples)
        }
        self.init(size: size, entries: entries)
    }

    /// The cube size for an image of `width × height` pixels, or an error saying what would fit.
    @discardableResult
    static func checkPixelCount(width: Int, height: Int, file: String?) throws -> Int {
        let pixels = width * height
        let root = Int(cbrt(Double(pixels)).rounded())
        guard root * root * root == pixels, sizeRange.contains(root) else {
            let below = max(2, Int(cbrt(Double(pixels))))
            let hint = sizeRange.contains(below)
                ? " (\(below)³ = \(below * below * below), \(below + 1)³ = \((below + 1) * (below + 1) * (below + 1)))"
                : ""
            throw PointPaintError(
                .malformed, file: file,
                "a colour cube image needs N³ pixels for some N in 2…256 (e.g. 512×512 or 4096×64 for N = 64), "
                    + "found \(width)×\(height) = \(pixels) pixels\(hint)")
        }
        return root
    }

    /// The cube as an RGB PNG image, entries in raster order, each channel quantised by
    /// `ColorMath.code(_:as:)` (clamped to 0…1, rounded).
    /// - Parameters:
    ///   - bitDepth: 8 (what image editors handle everywhere) or 16 (keeps 1/65535 precision).
    ///   - layout: the image's shape; every layout reads back identically.
    public func pngImage(bitDepth: Int = 8, layout: PNGLayout = .automatic) -> PNGImage {
        precondition(bitDepth == 8 || bitDepth == 16, "PNG cubes are 8 or 16 bit")
        let (width, height) = Self.pngDimensions(size: size, layout: layout)
        func quantized<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> [T] {
            var samples = [T](repeating: 0, count: entries.count * 3)
            for (i, e) in entries.enumerated() {
                samples[3 * i] = ColorMath.code(e.x, as: T.self)
                samples[3 * i + 1] = ColorMath.code(e.y, as: T.self)
                samples[3 * i + 2] = ColorMath.code(e.z, as: T.self)
            }
            return samples
        }
        return PNGImage(width: width, height: height, channels: 3,
                        samples: bitDepth == 16 ? .sixteen(quantized(UInt16.self)) : .eight(quantized(UInt8.self)))
    }

    /// Writes the cube as a PNG (atomically); see `pngImage(bitDepth:layout:)`.
    public func writePNG(to path: String, bitDepth: Int = 8, layout: PNGLayout = .automatic) throws {
        try pngImage(bitDepth: bitDepth, layout: layout).write(to: path)
    }
}
