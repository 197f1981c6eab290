@testable import PointPaint
import Testing

/// Copying planes out of a decoder's padded rows keeps exactly the picture's samples.
struct YCbCrPlanesStridedTests {
    /// `rows` rows of `width` bytes (sample = 7·x + 13·y), padded to `stride` with 0xEE.
    private func padded(width: Int, rows: Int, stride: Int, seed: Int = 0) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: rows * stride)
        for y in 0 ..< rows { for x in 0 ..< width { bytes[y * stride + x] = UInt8((7 * x + 13 * y + seed) & 0xFF) } }
        return bytes
    }

    private func packed(width: Int, rows: Int, seed: Int = 0) -> [UInt8] { padded(width: width, rows: rows, stride: width, seed: seed) }

    @Test("planar copies honour each plane's stride", arguments: [ChromaSubsampling.yuv420, .yuv422, .yuv444])
    func planar(_ subsampling: ChromaSubsampling) {
        let width = 10, height = 6
        let chroma = subsampling.chromaSize(width: width, height: height)
        let y = padded(width: width, rows: height, stride: 16)
        let cb = padded(width: chroma.width, rows: chroma.height, stride: 32, seed: 1)
        let cr = padded(width: chroma.width, rows: chroma.height, stride: chroma.width, seed: 2)
        let planes = y.withUnsafeBufferPointer { yp in
            cb.withUnsafeBufferPointer { cbp in
                cr.withUnsafeBufferPointer { crp in
                    YCbCrPlanes(width: width, height: height, subsampling: subsampling,
                                luma: StridedPlane(base: yp.baseAddress!, stride: 16),
                                cb: StridedPlane(base: cbp.baseAddress!, stride: 32),
                                cr: StridedPlane(base: crp.baseAddress!, stride: chroma.width))
                }
            }
        }
        #expect(planes.luma == packed(width: width, rows: height))
        #expect(planes.cb == packed(width: chroma.width, rows: chroma.height, seed: 1))
        #expect(planes.cr == packed(width: chroma.width, rows: chroma.height, seed: 2))
    }

    @Test("NV12's interleaved chroma splits into Cb and Cr")
    func nv12() {
        let width = 8, height = 4
        let y = padded(width: width, rows: height, stride: 12)
        var uv = [UInt8](repeating: 0xEE, count: 2 * 12)
        for row in 0 ..< 2 { for x in 0 ..< 4 { uv[row * 12 + 2 * x] = UInt8(10 * row + x); uv[row * 12 + 2 * x + 1] = UInt8(100 + 10 * row + x) } }
        let planes = y.withUnsafeBufferPointer { yp in
            uv.withUnsafeBufferPointer { uvp in
                YCbCrPlanes(width: width, height: height, nv12Luma: StridedPlane(base: yp.baseAddress!, stride: 12),
                            chroma: StridedPlane(base: uvp.baseAddress!, stride: 12))
            }
        }
        #expect(planes.subsampling == .yuv420)
        #expect(planes.luma == packed(width: width, rows: height))
        #expect(planes.cb == [0, 1, 2, 3, 10, 11, 12, 13])
        #expect(planes.cr == [100, 101, 102, 103, 110, 111, 112, 113])
    }

    @Test("a negative stride reads rows bottom-up")
    func negativeStride() {
        let rows: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 0]
        let plane = rows.withUnsafeBufferPointer { StridedPlane(base: $0.baseAddress! + 4, stride: -4).packed(width: 3, rows: 2) }
        #expect(plane == [4, 5, 6, 1, 2, 3])
    }
}
