import Foundation
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
    /// `width * height * channels` samples, row by row, 8 or 16 bits each.
    public var samples: PNGSamples

    /// 8 or 16, from `samples`.
    public var bitDepth: Int { samples.bitDepth }

    /// An image of `samples`, whose count must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples: PNGSamples) {
        precondition(samples.count == width * height * channels, "sample count does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// An 8-bit image; `samples.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples: [UInt8]) {
        self.init(width: width, height: height, channels: channels, samples: .eight(samples))
    }

    /// A 16-bit image; `samples16.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples16: [UInt16]) {
        self.init(width: width, height: height, channels: channels, samples: .sixteen(samples16))
    }

    /// The samples of an 8-bit image; empty for a 16-bit one (switch over `samples` to handle
    /// both).
    public var samples8: [UInt8] {
        if case .eight(let s) = samples { s } else { [] }
    }

    /// The samples of a 16-bit image; empty for an 8-bit one (switch over `samples` to handle
    /// both).
    public var samples16: [UInt16] {
        if case .sixteen(let s) = samples { s } else { [] }
    }

    /// The largest image decoded unless a caller asks for more: 256 M pixels.
    public static let defaultMaximumPixels = 1 << 28

    /// Reads only the header of the PNG at `path`: size, channels and bit depth after expansion,
    /// and the header's own bit depth and colour type.
    public static func readInfo(path: String) throws -> PNGHeader {
        var info = ppng_info()
        var message = [CChar](repeating: 0, count: 256)
        let status = try withFile(path) { ppng_read_info($0, &info, &message, message.count) }
        guard status == 0 else { throw pngError(status, message, file: path, action: "cannot read PNG") }
        return PNGHeader(info)
    }

    /// Decodes the PNG at `path`, refusing images larger than `maximumPixels` before allocating.
    public init(contentsOf path: String, maximumPixels: Int = PNGImage.defaultMaximumPixels) throws {
        self = try Self.read(path: path, maximumPixels: maximumPixels).image
    }

    /// Decodes the PNG at `path` and returns it with the header it was decoded from, so a caller
    /// can check what the file itself held (bit depth, colour type) in the same read.
    public static func read(path: String, maximumPixels: Int = PNGImage.defaultMaximumPixels) throws -> (image: PNGImage, header: PNGHeader) {
        var info = ppng_info()
        var message = [CChar](repeating: 0, count: 256)
        var pixels: UnsafeMutablePointer<UInt8>?
        let status = try withFile(path) { ppng_read($0, UInt64(max(maximumPixels, 0)), &info, &pixels, &message, message.count) }
        guard status == 0, let pixels else { throw pngError(status, message, file: path, action: "cannot read PNG") }
        defer { ppng_free(pixels) }
        let header = PNGHeader(info)
        let count = header.width * header.height * header.channels
        let image: PNGImage
        if header.bitDepth == 16 {
            image = PNGImage(width: header.width, height: header.height, channels: header.channels,
                             samples16: pixels.withMemoryRebound(to: UInt16.self, capacity: count) {
                                 Array(UnsafeBufferPointer(start: $0, count: count))
                             })
        } else {
            image = PNGImage(width: header.width, height: header.height, channels: header.channels,
                             samples: Array(UnsafeBufferPointer(start: pixels, count: count)))
        }
        return (image, header)
    }

    /// Encodes the image to `path` through a temporary file renamed into place.
    /// - Parameter compressionLevel: zlib level 0…9; 6 balances size and time.
    public func write(to path: String, compressionLevel: Int = 6) throws {
        try AtomicFile.write(to: path) { temporary in
            var message = [CChar](repeating: 0, count: 256)
            let status: Int32
            switch samples {
            case .sixteen(let samples):
                status = samples.withUnsafeBytes { raw in
                    ppng_write(temporary, UInt32(width), UInt32(height), Int32(channels), 16,
                               raw.bindMemory(to: UInt8.self).baseAddress, width * channels * 2,
                               Int32(compressionLevel), &message, message.count)
                }
            case .eight(let samples):
                status = samples.withUnsafeBufferPointer { buffer in
                    ppng_write(temporary, UInt32(width), UInt32(height), Int32(channels), 8,
                               buffer.baseAddress, width * channels,
                               Int32(compressionLevel), &message, message.count)
                }
            }
            guard status == 0 else { throw pngError(status, message, file: path, action: "cannot write PNG") }
        }
    }
}

/// The samples of a `PNGImage`, row by row, interleaved: 8 or 16 bits each.
public enum PNGSamples: Sendable, Equatable {
    /// 8-bit samples.
    case eight([UInt8])
    /// 16-bit samples, in host byte order.
    case sixteen([UInt16])

    /// 8 or 16.
    public var bitDepth: Int {
        switch self {
        case .eight: 8
        case .sixteen: 16
        }
    }

    /// The number of samples.
    public var count: Int {
        switch self {
        case .eight(let s): s.count
        case .sixteen(let s): s.count
        }
    }
}

/// What a PNG file's header says, and what decoding delivers from it.
public struct PNGHeader: Sendable, Equatable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// Channels after expansion: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA.
    public var channels: Int
    /// Bits a sample after expansion: 8 or 16.
    public var bitDepth: Int
    /// The header's own bits a sample: 1, 2, 4, 8 or 16 (a palette index for palette images).
    public var sourceBitDepth: Int
    /// The header's own colour type.
    public var sourceColorType: PNGColorType
    /// Whether the file has a transparency (tRNS) chunk, which decoding turns into alpha.
    public var sourceHasTransparency: Bool

    init(_ info: ppng_info) {
        width = Int(info.width)
        height = Int(info.height)
        channels = Int(info.channels)
        bitDepth = Int(info.bitDepth)
        sourceBitDepth = Int(info.sourceBitDepth)
        sourceColorType = PNGColorType(rawValue: Int(info.sourceColorType)) ?? .rgbAlpha
        sourceHasTransparency = info.sourceHasTransparency != 0
    }

    /// Whether the file is plain 8-bit greyscale as stored: no palette, alpha, transparency,
    /// widening from fewer bits or 16-bit samples.
    public var isPlain8BitGrey: Bool {
        sourceColorType == .grey && sourceBitDepth == 8 && !sourceHasTransparency
    }

    /// The file's format in words, for messages: "4-bit greyscale", "8-bit RGB with alpha".
    public var sourceDescription: String {
        "\(sourceBitDepth)-bit \(sourceColorType.name)" + (sourceHasTransparency ? " with transparency" : "")
    }
}

/// A PNG colour type, as the header (IHDR) stores it.
public enum PNGColorType: Int, Sendable, CaseIterable {
    /// Greyscale.
    case grey = 0
    /// Red, green, blue.
    case rgb = 2
    /// Palette indices.
    case palette = 3
    /// Greyscale with alpha.
    case greyAlpha = 4
    /// Red, green, blue with alpha.
    case rgbAlpha = 6

    /// The type in words.
    public var name: String {
        switch self {
        case .grey: "greyscale"
        case .rgb: "RGB"
        case .palette: "palette"
        case .greyAlpha: "greyscale with alpha"
        case .rgbAlpha: "RGB with alpha"
        }
    }
}

/// Calls `body` with the regular file at `path` open for reading; a directory, FIFO or device is
/// refused before libpng could block on it or read it.
private func withFile<R>(_ path: String, _ body: (UnsafeMutablePointer<FILE>) -> R) throws -> R {
    let (fd, _) = try FileBytes.openRegular(path, expected: "a PNG image")
    guard let stream = fdopen(fd, "rb") else {
        let code = errno
        close(fd)
        throw PointPaintError.system("cannot read PNG", file: path, errno: code)
    }
    defer { fclose(stream) }
    return body(stream)
}

/// The error for a failed `ppng_` call: its status says the kind (a negative errno for a failed
/// system call), its message the details.
private func pngError(_ status: Int32, _ message: [CChar], file: String, action: String) -> PointPaintError {
    if status < 0 { return PointPaintError.system(action, file: file, errno: -status) }
    switch Int(status) {
    case Int(PPNG_TRUNCATED):
        return PointPaintError(.malformed, file: file, "\(action): the PNG is truncated or damaged: \(cText(message))")
    case Int(PPNG_TOO_LARGE):
        return PointPaintError(.tooLarge, file: file, "\(action): \(cText(message))")
    case Int(PPNG_UNSUPPORTED):
        return PointPaintError(.unsupported, file: file, "\(action): \(cText(message))")
    default:
        return PointPaintError(.malformed, file: file, "\(action): damaged or not a PNG: \(cText(message))")
    }
}

/// The text of a NUL-terminated C message buffer.
private func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
