import PNGCodec

/// A decoded PNG: rows of interleaved samples exactly as stored (no gamma or colour conversion).
///
/// Palettes are expanded to RGB, transparency chunks to an alpha channel and sub-byte grey to
/// 8 bits. 16-bit samples are kept as `UInt16` in host byte order.
public struct PNGImage: Sendable, Equatable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA.
    public var channels: Int
    /// 8 or 16.
    public var bitDepth: Int
    /// `width * height * channels` samples, row by row, when `bitDepth == 8`.
    public var samples8: [UInt8]
    /// `width * height * channels` samples, row by row, when `bitDepth == 16`.
    public var samples16: [UInt16]

    /// An 8-bit image; `samples.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples: [UInt8]) {
        precondition(samples.count == width * height * channels, "sample count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = 8
        self.samples8 = samples
        self.samples16 = []
    }

    /// A 16-bit image; `samples.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples16: [UInt16]) {
        precondition(samples16.count == width * height * channels, "sample count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.bitDepth = 16
        self.samples8 = []
        self.samples16 = samples16
    }

    /// The largest image decoded unless a caller asks for more: 256 M pixels.
    public static let defaultMaximumPixels = 1 << 28

    /// Reads only the header of the PNG at `path`: size, channels and bit depth after expansion.
    public static func readInfo(path: String) throws -> (width: Int, height: Int, channels: Int, bitDepth: Int) {
        var info = ppng_info()
        var message = [CChar](repeating: 0, count: 256)
        guard ppng_read_info(path, &info, &message, message.count) == 0 else {
            throw PointPaintError(file: path, "cannot read PNG: \(cText(message))")
        }
        return (Int(info.width), Int(info.height), Int(info.channels), Int(info.bitDepth))
    }

    /// Decodes the PNG at `path`, refusing images larger than `maximumPixels` before allocating.
    public init(contentsOf path: String, maximumPixels: Int = PNGImage.defaultMaximumPixels) throws {
        var info = ppng_info()
        var message = [CChar](repeating: 0, count: 256)
        var pixels: UnsafeMutablePointer<UInt8>?
        guard ppng_read(path, UInt64(maximumPixels), &info, &pixels, &message, message.count) == 0,
              let pixels
        else {
            throw PointPaintError(file: path, "cannot read PNG: \(cText(message))")
        }
        defer { ppng_free(pixels) }
        width = Int(info.width)
        height = Int(info.height)
        channels = Int(info.channels)
        bitDepth = Int(info.bitDepth)
        let count = width * height * channels
        if bitDepth == 16 {
            samples8 = []
            samples16 = pixels.withMemoryRebound(to: UInt16.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        } else {
            samples8 = Array(UnsafeBufferPointer(start: pixels, count: count))
            samples16 = []
        }
    }

    /// Encodes the image to `path` through a temporary file renamed into place.
    /// - Parameter compressionLevel: zlib level 0…9; 6 balances size and time.
    public func write(to path: String, compressionLevel: Int = 6) throws {
        try AtomicFile.write(to: path) { temporary in
            var message = [CChar](repeating: 0, count: 256)
            let status: Int32
            if bitDepth == 16 {
                status = samples16.withUnsafeBytes { raw in
                    ppng_write(temporary, UInt32(width), UInt32(height), Int32(channels), 16,
                               raw.bindMemory(to: UInt8.self).baseAddress, width * channels * 2,
                               Int32(compressionLevel), &message, message.count)
                }
            } else {
                status = samples8.withUnsafeBufferPointer { buffer in
                    ppng_write(temporary, UInt32(width), UInt32(height), Int32(channels), 8,
                               buffer.baseAddress, width * channels,
                               Int32(compressionLevel), &message, message.count)
                }
            }
            guard status == 0 else {
                throw PointPaintError(file: path, "cannot write PNG: \(cText(message))")
            }
        }
    }
}

/// The text of a NUL-terminated C message buffer.
private func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
