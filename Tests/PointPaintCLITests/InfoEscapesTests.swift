import Foundation
import PointPaint
import Testing

/// `info` prints what files say (names, comments, paths) with their control and invisible
/// characters spelled out, so that no file can clear the terminal (`ESC[2J`), retitle it or ring
/// its bell. Found by fuzzing the release binary with LAS files.
@Suite struct InfoEscapesTests {
    /// Runs `info` on `path`, expecting success and no raw ESC or BEL byte on either stream;
    /// returns the lines it printed.
    private static func infoLines(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try Tool.run(["info", path])
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        for text in [result.stdout, result.stderr] {
            #expect(!text.utf8.contains(0x1B) && !text.utf8.contains(0x07), "\(text.debugDescription)", sourceLocation: sourceLocation)
        }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func aLASFilesSoftwareRecordsAndCommentsAreSpelledOut() throws {
        let dir = temporaryDirectory()
        let path = dir + "/escapes.las"
        // PointPaint's own file, its source comment holding the escapes, then patched: the
        // software field (32 bytes at 58) and the first record's description (32 bytes at 375 + 22).
        try SceneStore(voxelSize: 0.1).writeLAS(to: path, provenance: StoreProvenance(kind: .points, source: "cap\u{1B}[2J\u{7}"))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func patch(_ at: Int, _ text: String) {
            bytes.replaceSubrange(at ..< at + 32, with: Array(text.utf8) + [UInt8](repeating: 0, count: 32 - text.utf8.count))
        }
        patch(58, "soft\u{1B}]0;title\u{7}")
        patch(375 + 22, "size\u{1B}[31m")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let lines = try Self.infoLines(path)
        #expect(lines.contains("  software: soft\\u{1B}]0;title\\u{7}"), "\(lines)")
        #expect(lines.contains("  record PointPaint 1: size\\u{1B}[31m (3 bytes)"), "\(lines)")
        #expect(lines.contains("  comment source cap\\u{1B}[2J\\u{7}"), "\(lines)")
    }

    @Test func aStoresGradeAndSourceAreSpelledOut() throws {
        let dir = temporaryDirectory()
        let path = dir + "/escapes.ppstore"
        let provenance = StoreProvenance(kind: .replay, source: "cap\u{1B}[2J", grade: "look\u{1B}[2J\u{7}", frameCount: 1)
        _ = try SceneStore(voxelSize: 0.1).writeStore(to: path, provenance: provenance)
        let lines = try Self.infoLines(path)
        #expect(lines.contains("  grade: look\\u{1B}[2J\\u{7}"), "\(lines)")
        #expect(lines.contains("  from: replay of 1 frame of 'cap\\u{1B}[2J'"), "\(lines)")
    }

    @Test func aRecordingsPathIsSpelledOut() throws {
        let dir = temporaryDirectory()
        let path = dir + "/stray\u{1B}[2J\u{7}"
        try Tool.synth(["-o", path, "--layout", "stray", "--frames", "2", "--size", "160x120", "--points", "10"])
        let lines = try Self.infoLines(path)
        #expect(lines.contains("capture:      \(dir)/stray\\u{1B}[2J\\u{7}") && lines.contains("format:       Stray Scanner"), "\(lines)")
    }
}
