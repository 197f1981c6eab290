import Foundation
import Testing
import PointPaint

/// Cloud files told apart by their first bytes, whatever their names say.
@Suite struct CloudFileContentTests {
    @Test func signatures() {
        #expect(CloudFileContent(head: Array("ply\nformat".utf8)) == .ply)
        #expect(CloudFileContent(head: Array("ply\r\n".utf8)) == .ply)
        #expect(CloudFileContent(head: Array("plyx".utf8)) == nil)
        #expect(CloudFileContent(head: Array("LASF\0\0".utf8)) == .las)
        #expect(CloudFileContent(head: [0x89, 0x50, 0x50, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]) == .store)
        #expect(CloudFileContent(head: Array("PK\u{3}\u{4}".utf8)) == nil)
        #expect(CloudFileContent(head: []) == nil)
    }

    @Test func contentWinsOverTheName() throws {
        let path = NSTemporaryDirectory() + "/pointpaint-\(UUID().uuidString).ply"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("LASF and the rest".utf8).write(to: URL(fileURLWithPath: path))
        #expect(CloudFileContent.of(path) == .las)
        #expect(CloudFileContent.of("/no/such/file.laz") == .las)
        #expect(CloudFileContent.of("/no/such/file.ppstore") == .store)
        #expect(CloudFileContent.of("/no/such/file.xyz") == .ply)
    }

    @Test func aFIFOIsNeverOpened() throws {
        let path = NSTemporaryDirectory() + "/pointpaint-\(UUID().uuidString).las"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #require(mkfifo(path, 0o600) == 0)
        // Opening it would wait for a writer forever; it goes by its name instead.
        #expect(CloudFileContent(path: path) == nil)
        #expect(CloudFileContent.of(path) == .las)
    }
}
