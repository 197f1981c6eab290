import Foundation
import Testing
@testable import PointPaint

/// Whole-file reads refuse what is not a regular file, and files past their limit, by name.
@Suite struct FileBytesTests {
    @Test func fileBytesNameWhatStandsWhereAFileShouldBe() throws {
        let dir = TemporaryDirectory()
        let error = try #require(pointPaintError { _ = try FileBytes.read(dir.path, expected: "the manifest") })
        #expect(error.kind == .missing && error.file == dir.path && error.message.hasSuffix("found a directory"))
        let absent = try #require(pointPaintError { _ = try FileBytes.read(dir.file("none"), expected: "the manifest") })
        #expect(absent.kind == .missing)
        try dir.write("12345", to: "five")
        let large = try #require(pointPaintError { _ = try FileBytes.read(dir.file("five"), limit: 4) })
        #expect(large.kind == .tooLarge)
        #expect(try FileBytes.read(dir.file("five"), limit: 5) == Array("12345".utf8))
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let dir = TemporaryDirectory()
        try #require(mkfifo(dir.file("fifo"), 0o600) == 0)
        let error = try #require(pointPaintError { _ = try FileBytes.read(dir.file("fifo")) })
        #expect(error.kind == .missing && error.message.hasSuffix("found a FIFO"))
        let size = try #require(pointPaintError { _ = try FileBytes.regularSize(dir.file("fifo"), expected: "points") })
        #expect(size.kind == .missing)
    }

    @Test func aFileThatShrankOrIsLargerThanExpectedIsNamed() throws {
        let dir = TemporaryDirectory()
        try dir.write("abc", to: "three")
        #expect(try FileBytes.regularSize(dir.file("three"), expected: "a file") == 3)
        let error = try #require(pointPaintError { _ = try FileBytes.regularSize(dir.file("none"), name: "shown", expected: "a file") })
        #expect(error.kind == .missing && error.file == "shown")
    }
}
