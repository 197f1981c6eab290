import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint frame`: one frame of a capture as an sRGB PNG.
public struct FrameCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Write one frame of a capture as an sRGB PNG.")

    @Argument(help: "Capture directory.")
    var capture: String = defaultCapturePath
    @Option(help: "Frame index, from 0.")
    var index = 0
    @Option(name: .shortAndLong, help: "PNG file to write.")
    var output: String
    @Option(help: "Chroma upsampling: nearest (each 2x2 block shares its chroma, as libyuv) or bilinear.")
    var interpolation: Interpolation = .bilinear
    @Option(help: "Override the manifest's matrix (bt601, bt709, bt2020).")
    var matrix: YCbCrMatrix?
    @Option(help: "Override the manifest's range (full, video).")
    var range: YCbCrRange?

    public init() {}

    public func run() throws {
        let reader = try CaptureReader(path: capture, checkFiles: false)
        guard index >= 0, index < reader.frameCount else {
            let expected = reader.frameCount == 0 ? "a frame, but the capture holds none" : "a frame index from 0 to \(reader.frameCount - 1)"
            throw PointPaintError(.outOfRange, file: capture, place: .part("--index"), "expected \(expected), found \(index)")
        }
        let info = reader.imageInfo
        let encoding = YCbCrEncoding(matrix: matrix ?? info.matrix, range: range ?? info.range)
        let image = try reader.image(at: index)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let png: PNGImage
        if info.primaries == .srgb {
            let converter = FrameConverter(encoding: encoding, siting: info.chromaSiting)
            png = converter.image(image, layout: .rgb8, interpolation: interpolation, threads: threads)
        } else {
            // Wide-colour frames: decode each pixel to float, convert to sRGB, clip what sRGB
            // cannot show, and round once. Nearest uses centre siting so that, as in
            // FrameConverter, each 2×2 block shares its chroma sample.
            let sampler = CapturedImageSampler(image: image, encoding: encoding,
                                               siting: interpolation == .nearest ? .center : info.chromaSiting,
                                               primaries: info.primaries, interpolation: interpolation)
            png = PNGImage(width: info.width, height: info.height, channels: 3,
                           samples: sampler.pixelCentres(space: .srgb, layout: .rgb8, threads: threads))
        }
        try png.write(to: output)
        print("wrote \(output): frame \(index) of \(capture), \(info.width)x\(info.height) sRGB")
    }
}
