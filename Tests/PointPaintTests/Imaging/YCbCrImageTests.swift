import Testing
@testable import PointPaint

/// The semi-planar image in every subsampling and at odd sizes: geometry, plane access, and
/// the round trip with three decoded planes.
@Suite struct YCbCrImageTests {
    /// Random planes of `subsampling` at `width` × `height`.
    static func randomPlanes(_ subsampling: ChromaSubsampling, width: Int, height: Int, rng: inout SplitMix64) -> YCbCrPlanes {
        let chroma = subsampling.chromaSize(width: width, height: height)
        func plane(_ count: Int) -> [UInt8] { (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &rng) } }
        return YCbCrPlanes(width: width, height: height, subsampling: subsampling, luma: plane(width * height),
                           cb: plane(chroma.width * chroma.height), cr: plane(chroma.width * chroma.height))
    }

    static let sizes = [(1, 1), (1, 4), (5, 3), (6, 4), (7, 8), (33, 17)]

    @Test(arguments: ChromaSubsampling.allCases)
    func planesRoundTripAtEverySize(_ subsampling: ChromaSubsampling) {
        var rng = SplitMix64(seed: 21)
        for (width, height) in Self.sizes {
            let planes = Self.randomPlanes(subsampling, width: width, height: height, rng: &rng)
            let image = YCbCrImage(planes)
            #expect(image.subsampling == subsampling && image.width == width && image.height == height)
            // Chroma of the rounded-up size, as decoders deliver it.
            let cw = (width + subsampling.horizontal - 1) / subsampling.horizontal
            let ch = (height + subsampling.vertical - 1) / subsampling.vertical
            #expect(image.chromaWidth == cw && image.chromaHeight == ch, "\(subsampling) \(width)x\(height)")
            #expect(image.chromaStride == 2 * cw && image.lumaStride == width)
            #expect(image.isEvenNV12 == (subsampling == .yuv420 && width % 2 == 0 && height % 2 == 0))
            #expect(YCbCrPlanes(image) == planes, "\(subsampling) \(width)x\(height)")
            let (x, y) = (cw - 1, ch - 1)
            #expect(image.chromaValue(x: x, y: y) == (planes.cb[y * cw + x], planes.cr[y * cw + x]))
            #expect(image.lumaValue(x: width - 1, y: height - 1) == planes.luma.last)
        }
    }

    @Test func stridesAndOffsetsInOneBuffer() {
        // 5 × 3 in 4:2:2: Y rows of 5 in strides of 7 at offset 1, then 3 CbCr rows of 3 pairs
        // (6 bytes) in strides of 8, with padding bytes of 0xEE everywhere else.
        var bytes = [UInt8](repeating: 0xEE, count: 1 + 7 * 3 + 8 * 3)
        for y in 0 ..< 3 { for x in 0 ..< 5 { bytes[1 + 7 * y + x] = UInt8(10 * y + x) } }
        for y in 0 ..< 3 { for i in 0 ..< 6 { bytes[22 + 8 * y + i] = UInt8(100 + 10 * y + i) } }
        let buffer = MappedBytes(copying: bytes)
        let image = YCbCrImage(width: 5, height: 3, subsampling: .yuv422, luma: buffer, lumaOffset: 1, lumaStride: 7,
                               chroma: buffer, chromaOffset: 22, chromaStride: 8)
        #expect(image.chromaWidth == 3 && image.chromaHeight == 3)
        #expect(image.lumaValue(x: 4, y: 2) == 24)
        #expect(image.chromaValue(x: 2, y: 1) == (114, 115))
        let packed = image.packedPlanes()
        let luma: [UInt8] = (0 ..< 3).flatMap { y in (0 ..< 5).map { x in UInt8(10 * y + x) } }
        let chroma: [UInt8] = (0 ..< 3).flatMap { y in (0 ..< 6).map { i in UInt8(100 + 10 * y + i) } }
        #expect(packed.luma == luma)
        #expect(packed.chroma == chroma)
    }

    @Test func fileSizeCountsTheChromaRows() {
        // The capture format's NV12: height/2 CbCr rows.
        #expect(YCbCrImage.fileSize(height: 1440, lumaStride: 1920, chromaStride: 1920) == 1920 * 1440 * 3 / 2)
        #expect(YCbCrImage.fileSize(height: 5, subsampling: .yuv420, lumaStride: 8, chromaStride: 8) == 8 * 5 + 8 * 3)
        #expect(YCbCrImage.fileSize(height: 5, subsampling: .yuv444, lumaStride: 8, chromaStride: 16) == 8 * 5 + 16 * 5)
    }
}
