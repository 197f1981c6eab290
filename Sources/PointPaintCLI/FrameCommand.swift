import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint frame`: one frame of a capture as an sRGB PNG.
struct FrameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frame",
        abstract: "Write one frame of a capture as an sRGB PNG.")

    @OptionGroup var frame: FrameOptions
    @Option(name: .shortAndLong, help: "PNG file to write.")
    var output: String
    @Option(help: "Chroma upsampling (nearest: each 2x2 block shares its chroma, as libyuv).")
    var interpolation: Interpolation = .bilinear

    func run() throws {
        let (source, encoding) = try frame.open()
        let index = frame.index
        let info = source.imageInfo
        let image = try source.frame(at: index).image
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let png: PNGImage
        if info.primaries == .srgb {
            let converter = FrameConverter(encoding: encoding, siting: info.chromaSiting)
            png = converter.image(image, layout: .rgb8, interpolation: interpolation, threads: threads)
        } else {
            // Wide-colour frames: decode each pixel to float, convert to sRGB, clip what sRGB
            // cannot show, and round once. Nearest uses centre siting so that, as in
            // FrameConverter, each block of pixels (2×2 in 4:2:0) shares its chroma sample.
            let sampler = CapturedImageSampler(image: image, encoding: encoding,
                                               siting: interpolation == .nearest ? .center : info.chromaSiting,
                                               primaries: info.primaries, interpolation: interpolation)
            png = PNGImage(width: info.width, height: info.height, channels: 3,
                           samples: sampler.pixelCentres(space: .srgb, layout: .rgb8, threads: threads))
        }
        try png.write(to: output)
        print("wrote \(output): frame \(index) of \(frame.capture.path), \(info.width)x\(info.height) sRGB")
    }
}
