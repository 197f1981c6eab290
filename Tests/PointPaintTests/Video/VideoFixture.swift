import Foundation
import PointPaint

/// Small test videos made with the `ffmpeg` tool (scripts/setup.sh installs it) from known
/// Y′CbCr planes, so a decoder's output can be compared code for code.
enum VideoFixture {
    /// `count` frames of a smooth pattern that moves from frame to frame, kept inside video
    /// range (luma 16…235, chroma 16…240) so it is valid at either range.
    static func pattern(width: Int = 64, height: Int = 48, subsampling: ChromaSubsampling = .yuv420,
                        count: Int = 8) -> [YCbCrPlanes] {
        let chroma = subsampling.chromaSize(width: width, height: height)
        func plane(_ w: Int, _ h: Int, _ f: (Int, Int) -> Int) -> [UInt8] {
            (0 ..< h).flatMap { y in (0 ..< w).map { x in UInt8(f(x, y)) } }
        }
        return (0 ..< count).map { frame in
            YCbCrPlanes(
                width: width, height: height, subsampling: subsampling,
                luma: plane(width, height) { x, y in 16 + (3 * x + 2 * y + 5 * frame) % 220 },
                cb: plane(chroma.width, chroma.height) { x, y in 16 + (4 * x + y + 7 * frame + 40) % 225 },
                cr: plane(chroma.width, chroma.height) { x, y in 16 + (x + 5 * y + 3 * frame + 90) % 225 })
        }
    }

    /// FFmpeg's name of the 8-bit planar format for `subsampling`.
    static func pixelFormat(_ subsampling: ChromaSubsampling) -> String {
        switch subsampling {
        case .yuv420: "yuv420p"
        case .yuv422: "yuv422p"
        case .yuv440: "yuv440p"
        case .yuv444: "yuv444p"
        }
    }

    /// Writes `frames` as raw planes and encodes them to `path` at 30 frames a second with the
    /// output options `encoder` (codec, quality, colour tags).
    static func encode(_ frames: [YCbCrPlanes], to path: String, _ encoder: [String]) throws {
        let first = frames[0]
        let raw = path + ".yuv"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        var bytes = Data()
        for frame in frames { bytes.append(contentsOf: frame.luma + frame.cb + frame.cr) }
        try bytes.write(to: URL(fileURLWithPath: raw))
        try ffmpeg(["-f", "rawvideo", "-pix_fmt", pixelFormat(first.subsampling), "-s", "\(first.width)x\(first.height)",
                    "-r", "30", "-i", raw] + encoder + [path])
    }

    /// Lossless H.264 (x264 at QP 0; x264 makes no B-frames when lossless).
    static let losslessH264 = ["-c:v", "libx264", "-qp", "0"]

    /// Lossless HEVC with two B-frames between references, fixed so they are always there.
    static let losslessHEVC = ["-c:v", "libx265", "-x265-params", "lossless=1:log-level=error:bframes=2:b-adapt=0:scenecut=0"]

    /// Runs `ffmpeg` quietly with `arguments`; throws its error output when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        _ = try run("ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments)
    }

    /// Runs a tool found on the PATH and returns its standard output; throws its error output
    /// when it exits with a failure.
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pointpaint-ffmpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: nothing can fill up and stall the tool while the test waits.
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
            throw FixtureError(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(message)")
        }
        return try Data(contentsOf: outURL)
    }

    /// Every frame `decoder` delivers, in order.
    static func decodeAll(_ decoder: VideoDecoder) throws -> [VideoFrame] {
        var frames: [VideoFrame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return frames
    }

    /// A tool failed while making a fixture.
    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }
}
