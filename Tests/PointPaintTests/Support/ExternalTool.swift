import Foundation

/// Runs programs other than PointPaint for tests that check against outside references (ffmpeg).
enum ExternalTool {
    /// Runs `tool` (looked up on PATH) with `arguments`; returns standard output, or throws with
    /// the tool's standard error when it exits non-zero.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        // Output goes to files, not pipes: Foundation's pipe reads trap on EINTR, which the
        // signals of other tests' child processes cause.
        let scratch = TemporaryDirectory("pointpaint-tool")
        let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: outPath) ?? Data()
        guard process.terminationStatus == 0 else {
            let err = FileManager.default.contents(atPath: errPath) ?? Data()
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: err, as: UTF8.self))")
        }
        return out
    }

    /// A tool that failed, with what it said.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The raw planes ffmpeg's own JPEG decoder gives for `path` in `pixelFormat` (such as
    /// `yuvj420p` or `gray`), decoded with the JPEG reference integer IDCT (`-idct int`), which is
    /// libjpeg's accurate one: an independent decoder that should agree with libjpeg-turbo byte
    /// for byte.
    static func ffmpegJPEGPlanes(_ path: String, pixelFormat: String) throws -> [UInt8] {
        let data = try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-idct", "int", "-i", path,
                                      "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
        return [UInt8](data)
    }
}
