import Foundation

/// The byte layout of a converted frame: interleaved 8-bit R′G′B′ samples, row after row,
/// `width * bytesPerPixel` bytes a row with no padding.
public enum PixelLayout: String, Sendable, CaseIterable, Hashable {
    /// R, G, B, A (A = 255) — four bytes a pixel, the layout textures and PNG RGBA use.
    case rgba8
    /// R, G, B — three bytes a pixel.
    case rgb8

    /// Bytes per pixel: 4 or 3.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8: 4
        case .rgb8: 3
        }
    }
}

/// Converts whole Y′CbCr frames of every subsampling to 8-bit R′G′B′ (in the capture's own
/// primaries: no gamut conversion), clamped to 0…255 and rounded, for PNG export and the
/// viewer's camera view.
///
/// NV12 (4:2:0 of even size, what ARKit and the capture format hold) takes the fast paths:
/// - `.nearest`: every 2×2 block of pixels shares its chroma sample, as libyuv does and as a
///   nearest sampler at pixel centres gives with centre siting. Siting is ignored. A vectorised
///   16-bit fixed-point kernel whose output stays within 1 level of the double-precision
///   reference, and almost always equals it. On x86-64 it is chosen at run time, as libyuv
///   does: C with AVX-512BW (64 pixels × 2 rows a step) or AVX2 (32 × 2) where the CPU has them,
///   otherwise Swift SIMD (16 × 2; SSE2 in the baseline build, NEON on arm64). All of them
///   compute the same integers.
/// - `.bilinear`: chroma upsampled per docs/DESIGN.md, "Texel positions and chroma siting"
///   (chroma texel position (x+0.5)/2 − 0.5, plus 0.25 texel for left siting, edges clamped),
///   then the matrix; also vectorised (three passes a row over 16-bit scratch rows),
///   bit-identical to its scalar model `convertBilinearScalar`, and several times slower than
///   the nearest path (figures in Benchmarks/README.md, "Sampling").
///
/// 4:2:2, 4:4:0, 4:4:4 and 4:2:0 of odd size take the bilinear kernel's passes, generalised per
/// axis (`FrameConverter+Subsampled.swift`): nearest shares each chroma sample among the block
/// of pixels it covers (siting ignored, as above); bilinear places chroma samples per
/// docs/DESIGN.md, "Texel positions and chroma siting", scaled by each axis's subsampling factor
/// (4:4:4 chroma at the luma centres). Within 1 level of the reference too.
///
/// `convertReference` is the plain, scalar, double-precision version of the same conversion;
/// tests hold the fast one to it.
///
/// ```swift
/// let converter = FrameConverter(encoding: .arkit)
/// var rgba: [UInt8] = []
/// converter.convert(frame.image, into: &rgba)   // 1920×1440 → 11 MB of RGBA
/// ```
public struct FrameConverter: Sendable, Hashable {
    /// Matrix and range used to decode.
    public var encoding: YCbCrEncoding
    /// Chroma siting, used by bilinear conversion of images with half-width chroma.
    public var siting: ChromaSiting

    /// A converter for frames encoded with `encoding` whose chroma sits at `siting`.
    public init(encoding: YCbCrEncoding = .arkit, siting: ChromaSiting = .center) {
        self.encoding = encoding
        self.siting = siting
    }

    /// Converts `image` into `output`, resizing it to `width * height * layout.bytesPerPixel`
    /// bytes when its size differs (so a reused array is not reallocated).
    ///
    /// - Parameters:
    ///   - threads: how many cores to split the rows over (`DispatchQueue.concurrentPerform`);
    ///     1 converts on the calling thread. The output is identical for any count.
    /// - Complexity: O(width × height).
    public func convert(_ image: YCbCrImage, to layout: PixelLayout = .rgba8, interpolation: Interpolation = .nearest,
                        threads: Int = 1, into output: inout [UInt8]) {
        convert(image, to: layout, interpolation: interpolation, threads: threads, kernel: .automatic, into: &output)
    }

    /// `convert(_:to:interpolation:threads:into:)` with the nearest-chroma kernel of even NV12
    /// chosen by the caller (tests hold each one to the scalar model); it must be available on
    /// this CPU.
    func convert(_ image: YCbCrImage, to layout: PixelLayout, interpolation: Interpolation, threads: Int,
                 kernel: NearestKernel, into output: inout [UInt8]) {
        let count = image.width * image.height * layout.bytesPerPixel
        if output.count != count { output = [UInt8](repeating: 0, count: count) }
        let constants = FrameConverterConstants(encoding: encoding, siting: siting)
        image.luma.withUnsafeBytes { luma in
            image.chroma.withUnsafeBytes { chroma in
                output.withUnsafeMutableBytes { out in
                    let planes = FramePlanes(image: image, luma: luma, chroma: chroma, output: out, layout: layout)
                    guard image.isEvenNV12 else {
                        let subsampling = image.subsampling
                        Self.forEachBand(image.height, threads: threads) { rows in
                            planes.convertSubsampled(rows: rows, subsampling: subsampling, interpolation: interpolation, constants)
                        }
                        return
                    }
                    Self.forEachBand(image.height / 2, threads: threads) { pairs in
                        switch interpolation {
                        case .nearest: planes.convertNearest(rowPairs: pairs, constants, kernel: kernel)
                        case .bilinear: planes.convertBilinear(rowPairs: pairs, constants)
                        }
                    }
                }
            }
        }
    }

    /// The converted frame as a new array (see `convert(_:to:interpolation:threads:into:)`).
    public func converted(_ image: YCbCrImage, to layout: PixelLayout = .rgba8, interpolation: Interpolation = .nearest,
                          threads: Int = 1) -> [UInt8] {
        var output: [UInt8] = []
        convert(image, to: layout, interpolation: interpolation, threads: threads, into: &output)
        return output
    }

    /// The converted frame as an 8-bit PNG image (RGB or RGBA), ready to write.
    public func image(_ image: YCbCrImage, layout: PixelLayout = .rgb8, interpolation: Interpolation = .nearest,
                      threads: Int = 1) -> PNGImage {
        PNGImage(width: image.width, height: image.height, channels: layout.bytesPerPixel,
                 samples: converted(image, to: layout, interpolation: interpolation, threads: threads))
    }

    /// Splits `count` rows (or row pairs) into contiguous bands and runs `body` on each, over
    /// `threads` cores.
    private static func forEachBand(_ count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = min(max(threads, 1) == 1 ? 1 : max(threads, 1) * 4, count)
        guard bands > 1 else {
            body(0 ..< count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body(count * band / bands ..< count * (band + 1) / bands)
        }
    }
}
