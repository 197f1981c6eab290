/// A plane of 8-bit samples in someone else's memory, `stride` bytes from one row to the next
/// (a decoder's rows are usually padded, and may run bottom-up with a negative stride).
package struct StridedPlane {
    /// The first sample of the first row.
    package var base: UnsafePointer<UInt8>
    /// Bytes from the start of one row to the start of the next.
    package var stride: Int

    /// Wraps a plane.
    package init(base: UnsafePointer<UInt8>, stride: Int) {
        self.base = base
        self.stride = stride
    }

    /// `rows` rows of `width` samples, packed.
    /// - Complexity: O(`width × rows`); one copy per row, or one in all when rows are unpadded.
    package func packed(width: Int, rows: Int) -> [UInt8] {
        precondition(width > 0 && rows > 0 && abs(stride) >= width, "a row must fit in its stride")
        return [UInt8](unsafeUninitializedCapacity: width * rows) { buffer, count in
            let out = buffer.baseAddress!
            if stride == width {
                out.initialize(from: base, count: width * rows)
            } else {
                for row in 0 ..< rows {
                    (out + row * width).initialize(from: base + row * stride, count: width)
                }
            }
            count = width * rows
        }
    }

    /// Splits `rows` rows of `width` interleaved pairs (NV12's CbCr plane) into two packed planes.
    /// - Complexity: O(`width × rows`).
    package func deinterleaved(width: Int, rows: Int) -> (first: [UInt8], second: [UInt8]) {
        precondition(width > 0 && rows > 0 && abs(stride) >= 2 * width, "a row must fit in its stride")
        var second = [UInt8]()
        let first = [UInt8](unsafeUninitializedCapacity: width * rows) { firstBuffer, firstCount in
            second = [UInt8](unsafeUninitializedCapacity: width * rows) { secondBuffer, secondCount in
                let a = firstBuffer.baseAddress!, b = secondBuffer.baseAddress!
                for row in 0 ..< rows {
                    let source = base + row * stride
                    let offset = row * width
                    for column in 0 ..< width {
                        (a + offset + column).initialize(to: source[2 * column])
                        (b + offset + column).initialize(to: source[2 * column + 1])
                    }
                }
                secondCount = width * rows
            }
            firstCount = width * rows
        }
        return (first, second)
    }
}

extension YCbCrPlanes {
    /// Copies three strided planes (luma at `width`×`height`, chroma at the subsampled size).
    /// - Complexity: O(`width × height`).
    package init(width: Int, height: Int, subsampling: ChromaSubsampling,
                 luma: StridedPlane, cb: StridedPlane, cr: StridedPlane) {
        let chroma = subsampling.chromaSize(width: width, height: height)
        self.init(width: width, height: height, subsampling: subsampling,
                  luma: luma.packed(width: width, rows: height),
                  cb: cb.packed(width: chroma.width, rows: chroma.height),
                  cr: cr.packed(width: chroma.width, rows: chroma.height))
    }

    /// Copies NV12: a strided luma plane and a strided plane of interleaved Cb, Cr pairs at
    /// half width and half height.
    /// - Complexity: O(`width × height`).
    package init(width: Int, height: Int, nv12Luma luma: StridedPlane, chroma: StridedPlane) {
        let size = ChromaSubsampling.yuv420.chromaSize(width: width, height: height)
        let (cb, cr) = chroma.deinterleaved(width: size.width, rows: size.height)
        self.init(width: width, height: height, subsampling: .yuv420,
                  luma: luma.packed(width: width, rows: height), cb: cb, cr: cr)
    }
}
