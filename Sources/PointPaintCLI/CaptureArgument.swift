import ArgumentParser
import PointPaint

/// The capture a command reads (`replay`, `frame`, `sample`): a PointPaint capture or an app's
/// recording, `Captures/sample` when none is given, read as the format its files show unless
/// `--source-format` names one.
struct CaptureArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("Capture: a PointPaint capture directory, or a recording of Stray Scanner, Record3D (.r3d or its export), Polycam, 3D Scanner App or nerfstudio.",
                                 valueName: "capture"))
    var path: String = defaultCapturePath
    @Option(help: "Read the capture as this format instead of the one its files show.")
    var sourceFormat: CaptureFormat?
}

/// One frame of a capture, as `frame` and `sample` read it: the capture, the frame's index and
/// overrides of the capture's Y′CbCr matrix and range.
struct FrameOptions: ParsableArguments {
    @OptionGroup var capture: CaptureArgument
    @Option(help: "Frame index, from 0.")
    var index = 0
    @Option(help: "Override the capture's matrix.")
    var matrix: YCbCrMatrix?
    @Option(help: "Override the capture's range.")
    var range: YCbCrRange?

    /// Opens the capture (a PointPaint capture without checking every frame's files) and checks
    /// the index.
    /// - Returns: the source and the Y′CbCr encoding to decode the frame with.
    /// - Throws: the capture's errors, and a `CommandError` for an index outside the capture.
    func open() throws -> (source: any CaptureSource, encoding: YCbCrEncoding) {
        let format = try capture.sourceFormat ?? CaptureFormat.detect(capture.path)
        let source: any CaptureSource = format == .pointpaint ? try CaptureReader(path: capture.path, checkFiles: false) : try format.open(capture.path)
        guard (0 ..< source.frameCount).contains(index) else {
            let expected = source.frameCount == 0 ? "a frame, but the capture holds none" : "a frame index from 0 to \(source.frameCount - 1)"
            throw PointPaintError(.outOfRange, file: capture.path, place: .part("--index"), "expected \(expected), found \(index)")
        }
        let info = source.imageInfo
        return (source, YCbCrEncoding(matrix: matrix ?? info.matrix, range: range ?? info.range))
    }
}
