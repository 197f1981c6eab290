import Foundation
import Testing
@testable import PointPaint

/// ZIP archives PointPaint writes (the synthesizer's `.r3d` files): read back by `ZipArchive` and
/// by Python's `zipfile`, an independent reader; names `ZipArchive` would refuse are refused.
@Suite struct ZipWriterTests {
    static let entries: [(String, [UInt8], ZipWriter.Method)] = [
        ("metadata", Array(String(repeating: "{\"w\": 720, \"h\": 960}, ", count: 20).utf8), .deflate),
        ("rgbd/0.depth", (0 ..< 5000).map { UInt8(truncatingIfNeeded: $0 * 7) }, .store),
        ("rgbd/0.conf", [UInt8](repeating: 2, count: 3000), .deflate),
        ("empty", [], .store),
    ]

    static func write(_ path: String) throws {
        var writer = ZipWriter()
        for (name, bytes, method) in entries { try writer.add(name, bytes, method: method) }
        try writer.write(to: path)
    }

    @Test func entriesReadBackInOrder() throws {
        let dir = TemporaryDirectory()
        try Self.write(dir.file("a.zip"))
        let zip = try ZipArchive(path: dir.file("a.zip"))
        #expect(zip.names == Self.entries.map(\.0))
        for (name, bytes, method) in Self.entries {
            #expect(try zip.read(name, maximumSize: 1 << 20) == bytes)
            let entry = try #require(zip.entries[name])
            // Stored entries hold their bytes; deflated ones of repetitive bytes shrink.
            #expect(method == .store ? entry.compressedSize == bytes.count : entry.compressedSize < bytes.count)
        }
        // The temporary file was renamed into place; nothing else is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.zip"])
        // The same entries give the same bytes (fixed modification times).
        try Self.write(dir.file("b.zip"))
        #expect(try FileBytes.read(dir.file("a.zip")) == FileBytes.read(dir.file("b.zip")))
    }

    @Test func pythonsZipfileReadsTheArchive() throws {
        let dir = TemporaryDirectory()
        try Self.write(dir.file("a.zip"))
        let script = """
        import sys, zipfile
        with zipfile.ZipFile(sys.argv[1]) as z:
            assert z.testzip() is None
            for info in z.infolist():
                print(info.filename, info.compress_type, z.read(info).hex())
        """
        let listing = String(decoding: try ExternalTool.run("python3", ["-c", script, dir.file("a.zip")]), as: UTF8.self)
        let expected = Self.entries.map { name, bytes, method in
            ("\(name) \(method == .store ? 0 : 8) " + bytes.map { String(format: "%02x", $0) }.joined()).trimmingCharacters(in: .whitespaces)
        }
        #expect(listing.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0.trimmingCharacters(in: .whitespaces) } == expected)
    }

    @Test(arguments: ["", "/etc/passwd", "../escape", "rgbd/../../escape", "a\\b", "folder/"])
    func namesOutsideTheFolderAreRefused(name: String) throws {
        var writer = ZipWriter()
        let error = try #require(throws: PointPaintError.self) { try writer.add(name, [1]) }
        #expect(error.kind == .malformed && error.place == .part(name))
    }

    @Test func aNameAddedTwiceIsRefused() throws {
        var writer = ZipWriter()
        try writer.add("metadata", [1])
        let error = try #require(throws: PointPaintError.self) { try writer.add("metadata", [2]) }
        #expect(error.kind == .malformed && error.place == .part("metadata"))
    }

    @Test func aFolderThatIsNotThereIsAnError() throws {
        var writer = ZipWriter()
        try writer.add("a", [1])
        let error = try #require(throws: PointPaintError.self) { try writer.write(to: "/nonexistent-folder/a.zip") }
        #expect(error.file == "/nonexistent-folder/a.zip")
    }
}
