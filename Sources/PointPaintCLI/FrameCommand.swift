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
            throw PointPaintError(file: capture, place: "--index", "expected a frame index from 0 to \(reader.frameCount - 1), found \(index)")
        }
        let info = reader.imageInfo
        let converter = FrameConverter(encoding: YCbCrEncoding(matrix: matrix ?? info.matrix, range: range ?? info.range),
                                       siting: info.chromaSiting)
        var png = converter.image(try reader.image(at: index), layout: .rgb8, interpolation: interpolation,
                                  threads: ProcessInfo.processInfo.activeProcessorCount)
        if info.primaries != .srgb {
            // Wide-colour frames: convert each colour to sRGB and clip what sRGB cannot show.
            let conversion = ColorConversion(from: info.primaries, to: .srgb)
            var cache: [UInt32: (UInt8, UInt8, UInt8)] = [:]
            png.samples8.withUnsafeMutableBufferPointer { p in
                for i in stride(from: 0, to: p.count, by: 3) {
                    let key = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
                    let out = cache[key] ?? {
                        let e = conversion.encoded(SIMD3<Float>(Float(p[i]), Float(p[i + 1]), Float(p[i + 2])) / 255)
                        func byte(_ v: Float) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
                        let value = (byte(e.x), byte(e.y), byte(e.z))
                        cache[key] = value
                        return value
                    }()
                    (p[i], p[i + 1], p[i + 2]) = out
                }
            }
        }
        try png.write(to: output)
        print("wrote \(output): frame \(index) of \(capture), \(info.width)x\(info.height) sRGB")
    }
}
