import Foundation
import Testing
@testable import PointPaint

/// The PNG codec reports what the file itself holds, so callers can refuse formats that
/// decoding would silently widen.
@Suite struct PNGImageTests {
    @Test func subByteGreyIsWidenedButReportedAsStored() throws {
        let dir = TemporaryDirectory()
        // 4×2, 4-bit grey: codes 0, 5, 10, 15 and 15, 10, 5, 0.
        try PNGFixture.write(PNGFixture.bytes(width: 4, height: 2, bitDepth: 4, colorType: 0, rows: [[0x05, 0xAF], [0xFA, 0x50]]),
                             to: dir.file("g4.png"))
        let (image, header) = try PNGImage.read(path: dir.file("g4.png"))
        #expect(image.samples == .eight([0, 85, 170, 255, 255, 170, 85, 0]))
        #expect(header.bitDepth == 8 && header.channels == 1)
        #expect(header.sourceBitDepth == 4 && header.sourceColorType == .grey)
        #expect(!header.isPlain8BitGrey)
        #expect(header.sourceDescription == "4-bit greyscale")
        #expect(try PNGImage.readInfo(path: dir.file("g4.png")) == header)
    }

    @Test func headersOfWhatTheEncoderWrites() throws {
        let dir = TemporaryDirectory()
        try PNGImage(width: 2, height: 2, channels: 1, samples: [1, 2, 3, 4]).write(to: dir.file("g8.png"))
        try PNGImage(width: 2, height: 1, channels: 3, samples16: [1, 2, 3, 4, 5, 6]).write(to: dir.file("rgb16.png"))
        try PNGImage(width: 1, height: 1, channels: 4, samples: [1, 2, 3, 4]).write(to: dir.file("rgba8.png"))
        let grey = try PNGImage.readInfo(path: dir.file("g8.png"))
        #expect(grey.isPlain8BitGrey)
        let rgb = try PNGImage.readInfo(path: dir.file("rgb16.png"))
        #expect(rgb.sourceBitDepth == 16 && rgb.bitDepth == 16 && rgb.sourceColorType == .rgb && !rgb.isPlain8BitGrey)
        #expect(try PNGImage(contentsOf: dir.file("rgb16.png")).samples == .sixteen([1, 2, 3, 4, 5, 6]))
        let rgba = try PNGImage.readInfo(path: dir.file("rgba8.png"))
        #expect(rgba.sourceColorType == .rgbAlpha && rgba.channels == 4)
    }

    /// One sample array, of one depth: the bit depth follows it.
    @Test func samplesCarryTheirBitDepth() {
        let eight = PNGImage(width: 2, height: 1, channels: 1, samples: [3, 4])
        let sixteen = PNGImage(width: 1, height: 1, channels: 2, samples16: [300, 400])
        #expect(eight.bitDepth == 8 && eight.samples == .eight([3, 4]) && eight.samples16.isEmpty)
        #expect(sixteen.bitDepth == 16 && sixteen.samples.count == 2 && sixteen.samples8.isEmpty)
        var changed = eight
        changed.samples = .sixteen([5, 6])
        #expect(changed.bitDepth == 16 && changed != eight)
    }

    @Test func paletteAndTransparencyAreReported() throws {
        let dir = TemporaryDirectory()
        try PNGFixture.write(PNGFixture.bytes(width: 2, height: 1, bitDepth: 8, colorType: 3, rows: [[0, 1]],
                                              extraChunks: [("PLTE", [10, 20, 30, 40, 50, 60])]), to: dir.file("p.png"))
        let (palette, header) = try PNGImage.read(path: dir.file("p.png"))
        #expect(header.sourceColorType == .palette && header.channels == 3)
        #expect(palette.samples == .eight([10, 20, 30, 40, 50, 60]))
        try PNGFixture.write(PNGFixture.bytes(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[7, 9]],
                                              extraChunks: [("tRNS", [0, 7])]), to: dir.file("t.png"))
        let transparent = try PNGImage.readInfo(path: dir.file("t.png"))
        #expect(transparent.sourceHasTransparency && transparent.channels == 2 && !transparent.isPlain8BitGrey)
        #expect(transparent.sourceDescription == "8-bit greyscale with transparency")
    }

    @Test func aHeaderClaimingHugeDimensionsIsRefusedBeforeAllocating() throws {
        let dir = TemporaryDirectory()
        try PNGFixture.write(PNGFixture.bytes(width: 100_000, height: 100_000, bitDepth: 8, colorType: 0, rows: [[1, 2]]),
                             to: dir.file("huge.png"))
        let header = try PNGImage.readInfo(path: dir.file("huge.png"))
        #expect(header.width == 100_000 && header.height == 100_000)
        let error = try #require(throws: PointPaintError.self) { try PNGImage(contentsOf: dir.file("huge.png"), maximumPixels: 1 << 20) }
        #expect(error.kind == .tooLarge && error.file == dir.file("huge.png"))
    }

    /// A header may claim no more image data than deflate could expand the rest of the file to
    /// (1032:1): a 100-byte file claiming 16384² pixels is refused before the 256 MiB buffer is
    /// allocated, while the most compressible real image, all zeros at zlib's level 9, reads.
    @Test func aHeaderClaimingMoreThanTheFileCouldHoldIsRefusedBeforeAllocating() throws {
        let dir = TemporaryDirectory()
        try PNGFixture.write(PNGFixture.bytes(width: 16384, height: 16384, bitDepth: 8, colorType: 0, rows: [[1, 2]]),
                             to: dir.file("liar.png"))
        let error = try #require(throws: PointPaintError.self) { try PNGImage(contentsOf: dir.file("liar.png")) }
        #expect(error.kind == .tooLarge && error.file == dir.file("liar.png"), "\(error)")
        let side = 2048
        try PNGImage(width: side, height: side, channels: 1, samples: [UInt8](repeating: 0, count: side * side))
            .write(to: dir.file("zeros.png"), compressionLevel: 9)
        let size = try #require(FileBytes.size(of: dir.file("zeros.png")))
        #expect(size * 500 < side * side, "compressed more than 500:1 (\(size) bytes)")
        let zeros = try PNGImage(contentsOf: dir.file("zeros.png"))
        #expect(zeros.width == side && zeros.samples8.allSatisfy { $0 == 0 })
    }

    /// Found by fuzzing (png-image, Tests/Fuzz/Regressions): a 41-byte file whose iTXt chunk
    /// declares 1.7 GB made libpng allocate all of it before reading a byte. Chunks decoding
    /// does not use are now skipped unread; the file is refused as truncated.
    @Test func aTextChunkDeclaringGigabytesIsSkippedNotAllocated() throws {
        let dir = TemporaryDirectory()
        let header = PNGFixture.chunk("IHDR", PNGFixture.bigEndian(4) + PNGFixture.bigEndian(4) + [8, 3, 0, 0, 0])
        let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header + Array("fuzziTXt".utf8)
        try PNGFixture.write(bytes, to: dir.file("text.png"))
        let error = try #require(throws: PointPaintError.self) { try PNGImage(contentsOf: dir.file("text.png")) }
        #expect(error.kind == .malformed && error.message.contains("truncated"), "\(error)")
        // The same chunk, whole and valid, is skipped and the image reads.
        let rows = (0 ..< 4).map { r in (0 ..< 4).map { UInt8(r * 4 + $0) } }
        let withText = PNGFixture.bytes(width: 4, height: 4, bitDepth: 8, colorType: 0, rows: rows,
                                        extraChunks: [("iTXt", Array("key\0\0\0\0\0text".utf8)), ("zTXt", [1, 2, 3])])
        try PNGFixture.write(withText, to: dir.file("ok.png"))
        #expect(try PNGImage(contentsOf: dir.file("ok.png")).samples8 == rows.flatMap { $0 })
    }

    /// The one wording test of the PNG family: libpng's own reader said only "Read Error".
    @Test func aTruncatedDataStreamIsAnError() throws {
        let dir = TemporaryDirectory()
        let rows = (0 ..< 16).map { r in (0 ..< 16).map { UInt8(r * 16 + $0) } }
        let whole = PNGFixture.bytes(width: 16, height: 16, bitDepth: 8, colorType: 0, rows: rows)
        try PNGFixture.write(Array(whole.prefix(whole.count - 120)), to: dir.file("cut.png"))
        #expect(try PNGImage.readInfo(path: dir.file("cut.png")).isPlain8BitGrey, "the header alone is intact")
        let error = try #require(throws: PointPaintError.self) { try PNGImage(contentsOf: dir.file("cut.png")) }
        #expect(error.kind == .malformed)
        #expect(error.description == dir.file("cut.png")
            + ": cannot read PNG: the PNG is truncated or damaged: the file ends before its image data does")
    }
}
