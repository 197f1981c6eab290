import Foundation
import Testing
@testable import PointPaint

/// The ZIP reader against archives Python's `zipfile` writes, and hostile ones made from them.
@Suite struct ZipArchiveTests {
    /// Writes `entries` (name → (bytes as Latin-1 text, deflate?)) to `path` with Python's zipfile.
    static func makeZip(_ path: String, _ entries: [(String, String, Bool)]) throws {
        let script = """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            for i in range(2, len(sys.argv), 3):
                method = zipfile.ZIP_DEFLATED if sys.argv[i + 2] == "1" else zipfile.ZIP_STORED
                z.writestr(zipfile.ZipInfo(sys.argv[i]), sys.argv[i + 1].encode("latin-1"), compress_type=method)
        """
        try ExternalTool.run("python3", ["-c", script, path] + entries.flatMap { [$0.0, $0.1, $0.2 ? "1" : "0"] })
    }

    @Test func entriesReadBackExactly() throws {
        let dir = TemporaryDirectory()
        let long = String(repeating: "depth ", count: 5000)
        try Self.makeZip(dir.file("a.zip"), [("metadata", "{\"w\": 720}", false), ("rgbd/0.depth", long, true), ("rgbd/1.conf", "", true)])
        let zip = try ZipArchive(path: dir.file("a.zip"))
        #expect(zip.names == ["metadata", "rgbd/0.depth", "rgbd/1.conf"])
        #expect(try zip.read("metadata", maximumSize: 100) == Array("{\"w\": 720}".utf8))
        #expect(try zip.read("rgbd/0.depth", maximumSize: 1 << 20) == Array(long.utf8))
        #expect(try zip.read("rgbd/1.conf", maximumSize: 10) == [])
        let missing = try #require(throws: PointPaintError.self) { try zip.read("rgbd/2.jpg", maximumSize: 10) }
        #expect(missing.kind == .missing && missing.place == .part("rgbd/2.jpg"))
        let big = try #require(throws: PointPaintError.self) { try zip.read("rgbd/0.depth", maximumSize: 100) }
        #expect(big.kind == .tooLarge)
    }

    @Test(arguments: ["../escape", "rgbd/../../escape", "/etc/passwd", "a\\b"])
    func namesThatEscapeTheFolderAreRefused(name: String) throws {
        let dir = TemporaryDirectory()
        try Self.makeZip(dir.file("e.zip"), [("metadata", "{}", false), (name, "x", false)])
        let error = try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("e.zip")) }
        #expect(error.kind == .malformed && error.place == .element("entry", 1))
    }

    @Test func anEntryClaimingAHugeSizeIsRefusedBeforeReading() throws {
        let dir = TemporaryDirectory()
        try Self.makeZip(dir.file("bomb.zip"), [("rgbd/0.depth", String(repeating: "a", count: 1000), true)])
        var bytes = try FileBytes.read(dir.file("bomb.zip"))
        // Claim 2 GB decompressed, in the local header (offset 22) and the central directory (24).
        let claim: [UInt8] = [0x00, 0x00, 0x00, 0x80 - 1]
        bytes.replaceSubrange(22 ..< 26, with: claim)
        let central = try #require(Self.find([0x50, 0x4B, 0x01, 0x02], in: bytes))
        bytes.replaceSubrange(central + 24 ..< central + 28, with: claim)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("bomb.zip")))
        let error = try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("bomb.zip")) }
        #expect(error.kind == .tooLarge && error.place == .part("rgbd/0.depth"))
    }

    @Test func corruptDataIsCaughtByTheChecksum() throws {
        let dir = TemporaryDirectory()
        try Self.makeZip(dir.file("c.zip"), [("data", String(repeating: "0123456789", count: 100), false)])
        var bytes = try FileBytes.read(dir.file("c.zip"))
        bytes[30 + 4 + 500] ^= 0x55  // inside the stored data, after the 30-byte header and the 4-byte name
        try Data(bytes).write(to: URL(fileURLWithPath: dir.file("c.zip")))
        let zip = try ZipArchive(path: dir.file("c.zip"))
        let error = try #require(throws: PointPaintError.self) { try zip.read("data", maximumSize: 10_000) }
        #expect(error.kind == .malformed && error.place == .part("data"))
    }

    @Test func notAZipOrTruncatedOrMissing() throws {
        let dir = TemporaryDirectory()
        try dir.write("plain text, not an archive", to: "t.zip")
        #expect(try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("t.zip")) }.kind == .malformed)
        try Self.makeZip(dir.file("z.zip"), [("metadata", "{}", false), ("rgbd/0.jpg", String(repeating: "j", count: 400), true)])
        let bytes = try FileBytes.read(dir.file("z.zip"))
        for cut in [10, bytes.count / 2, bytes.count - 5] {
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: dir.file("cut.zip")))
            #expect(throws: PointPaintError.self) { try ZipArchive(path: dir.file("cut.zip")) }
        }
        #expect(try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("none.zip")) }.kind == .missing)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0 ... haystack.count - needle.count).first { haystack[$0 ..< $0 + needle.count].elementsEqual(needle) }
    }
}
