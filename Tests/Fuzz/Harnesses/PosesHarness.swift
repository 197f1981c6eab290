@testable import PointPaint

/// Poses files (`--poses`, `import --poses`): the file read, written back (the text it writes
/// must read back to the same poses), then checked against a small recording the synthesizer
/// makes at start, as the commands check it.
enum PosesHarness: FuzzHarness {
    static let name = "poses"
    static let recording = AppRecording.make("poses") { _ = try AppRecording.synthesizer.write(to: $0, encoding: .nv12) }

    static func fuzz(_ bytes: [UInt8]) throws {
        let recording = recording  // made before the first input is read
        let path = Fuzz.write(bytes, to: "poses.json")
        let poses = try CameraPoses(contentsOf: path)
        let again = try CameraPoses(contentsOf: Fuzz.write(Array(poses.jsonText().utf8), to: "again.json"))
        Fuzz.require(again == poses, "the poses written back read as other poses")
        try poses.check(against: try CaptureReader(path: recording), file: path)
    }
}
