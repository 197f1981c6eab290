import CPointPaintKernels

extension CapturedImageSampler {
    /// `sample(_:into:space:)` for bilinear samples in `SampleSpace.capture` through a C kernel
    /// (`kernel`): the codes, the decode and the admission of `codes`, `decode` and `admit`, the
    /// same float operations in the same order, eight points a step where the CPU has AVX2.
    /// - Returns: how many coordinates were admitted (NaN written for the others).
    func sampleBilinear(_ coordinates: UnsafeBufferPointer<SIMD2<Float>>, into output: UnsafeMutableBufferPointer<SIMD3<Float>>) -> Int {
        guard !coordinates.isEmpty else { return 0 }
        precondition(MemoryLayout<SIMD3<Float>>.stride == 4 * MemoryLayout<Float>.stride, "the kernel writes four floats a sample")
        let kernel = kernel.resolved
        return image.luma.withUnsafeBytes { luma in
            image.chroma.withUnsafeBytes { chroma in
                var parameters = PointPaintBilinear(
                    luma: luma.baseAddress!.assumingMemoryBound(to: UInt8.self) + image.lumaOffset,
                    chroma: chroma.baseAddress!.assumingMemoryBound(to: UInt8.self) + image.chromaOffset,
                    lumaBytes: luma.count - image.lumaOffset, chromaBytes: chroma.count - image.chromaOffset,
                    width: Int32(image.width), height: Int32(image.height),
                    chromaWidth: Int32(chromaSize.x), chromaHeight: Int32(chromaSize.y),
                    lumaStride: Int32(image.lumaStride), chromaStride: Int32(image.chromaStride),
                    chromaScaleX: chromaScale.x, chromaScaleY: chromaScale.y, chromaShiftX: chromaShift.x, chromaShiftY: chromaShift.y,
                    yOffset: yOffset, yScale: yScale, rCr: rCr, gCb: gCb, gCr: gCr, bCb: bCb,
                    clamp: edgePolicy == .clamp ? 1 : 0)
                let st = UnsafeRawPointer(coordinates.baseAddress!).assumingMemoryBound(to: Float.self)
                let out = UnsafeMutableRawPointer(output.baseAddress!).assumingMemoryBound(to: Float.self)
                #if arch(x86_64)
                if kernel == .avx2 {
                    return pointpaint_sample_bilinear_avx2(st, coordinates.count, &parameters, out)
                }
                #endif
                return pointpaint_sample_bilinear_c(st, coordinates.count, &parameters, out)
            }
        }
    }
}
