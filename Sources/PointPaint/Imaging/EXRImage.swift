import EXRCodec

/// One channel of an OpenEXR image as 32-bit floats: how Record3D's "EXR + JPG" export stores
/// depth (metres, one float channel whose name varies: `Z`, `R`, `Y`).
public struct EXRImage: Sendable, Equatable {
    /// Width of the data window.
    public let width: Int
    /// Height of the data window.
    public let height: Int
    /// The channel read.
    public let channel: String
    /// `width × height` samples, row by row from the top of the data window.
    public let values: [Float]

    /// The largest image read unless a caller asks for more.
    public static let defaultMaximumPixels = 8192 * 8192

    /// Reads the channel named `Z`, `depth`, `Y` or `R` (the first present), or the only channel,
    /// of the scanline OpenEXR file at `path` (half, float or unsigned-int samples, any
    /// compression OpenEXR knows). Tiled, deep and subsampled images are refused, and so is an image
    /// larger than `maximumPixels`, before anything is allocated for it.
    public init(contentsOf path: String, maximumPixels: Int = EXRImage.defaultMaximumPixels) throws {
        var pixels: UnsafeMutablePointer<Float>?
        var w: Int32 = 0, h: Int32 = 0
        var name = [CChar](repeating: 0, count: 256)
        var message = [CChar](repeating: 0, count: 512)
        guard pexr_read_channel(path, UInt64(max(maximumPixels, 0)), &pixels, &w, &h, &name, name.count, &message, message.count) == 0,
              let pixels
        else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let kind: PointPaintError.Kind = text.hasPrefix("expected at most") ? .tooLarge
                : text.hasPrefix("expected a scanline") || text.hasPrefix("expected a channel sampled") ? .unsupported : .malformed
            // OpenEXR's message may hold the file's own bytes (an attribute's name): shown bare only
            // when short and visible, else quoted, escaped and cut (found by fuzzing).
            throw PointPaintError(kind, file: path, "cannot read OpenEXR: \(text.isEmpty ? "unknown error" : PointPaintError.name(text, limit: 160))")
        }
        defer { pexr_free(pixels) }
        width = Int(w)
        height = Int(h)
        channel = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        values = Array(UnsafeBufferPointer(start: pixels, count: width * height))
    }
}
