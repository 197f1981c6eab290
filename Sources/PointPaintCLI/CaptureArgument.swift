import ArgumentParser
import PointPaint

/// The capture directory a command reads (`replay`, `frame`, `sample`): `Captures/sample` when
/// none is given.
struct CaptureArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("Capture directory.", valueName: "capture"))
    var path: String = defaultCapturePath
}

/// One frame of a capture, as `frame` and `sample` read it: the capture, the frame's index and
/// overrides of the manifest's Y′CbCr matrix and range.
struct FrameOptions: ParsableArguments {
    @OptionGroup var capture: CaptureArgument
    @Option(help: "Frame index, from 0.")
    var index = 0
    @Option(help: "Override the manifest's matrix.")
    var matrix: YCbCrMatrix?
    @Option(help: "Override the manifest's range.")
    var range: YCbCrRange?

    /// Opens the capture (without checking every frame's files) and checks the index.
    /// - Returns: the reader and the Y′CbCr encoding to decode the frame with.
    /// - Throws: the capture's errors, and a `CommandError` for an index outside the capture.
    func open() throws -> (reader: CaptureReader, encoding: YCbCrEncoding) {
        let reader = try CaptureReader(path: capture.path, checkFiles: false)
        guard (0 ..< reader.frameCount).contains(index) else {
            let expected = reader.frameCount == 0 ? "a frame, but the capture holds none" : "a frame index from 0 to \(reader.frameCount - 1)"
            throw PointPaintError(.outOfRange, file: capture.path, place: .part("--index"), "expected \(expected), found \(index)")
        }
        let info = reader.imageInfo
        return (reader, YCbCrEncoding(matrix: matrix ?? info.matrix, range: range ?? info.range))
    }
}
