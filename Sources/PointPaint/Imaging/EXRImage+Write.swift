import EXRCodec
import Foundation

extension EXRImage {
    /// An image of one float channel named `channel`: `width × height` values, row by row from
    /// the top.
    package init(width: Int, height: Int, channel: String, values: [Float]) {
        precondition(width > 0 && height > 0 && values.count == width * height, "an EXR image needs width × height values")
        precondition(!channel.isEmpty && !channel.utf8.contains(0), "an EXR channel needs a name")
        self.width = width
        self.height = height
        self.channel = channel
        self.values = values
    }

    /// Writes the image to `path` as a single-part scanline OpenEXR file: one 32-bit float
    /// channel, ZIP-compressed (lossless: every value, NaN included, reads back bit for bit),
    /// through a temporary file renamed into place.
    /// - Throws: `PointPaintError` naming `path`, with OpenEXR's own message, when it cannot be written.
    package func write(to path: String) throws {
        try AtomicFile.write(to: path) { temporary in
            var message = [CChar](repeating: 0, count: 512)
            let status = values.withUnsafeBufferPointer { pixels in
                pexr_write_channel(temporary, Int32(width), Int32(height), pixels.baseAddress, channel, &message, message.count)
            }
            guard status == 0 else {
                let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw PointPaintError(.io(errno: EIO), file: path, "cannot write OpenEXR: \(text.isEmpty ? "unknown error" : text)")
            }
        }
    }
}
