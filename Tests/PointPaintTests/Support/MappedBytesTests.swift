import Foundation
import Testing
@testable import PointPaint

/// One owner of read-only bytes, mapped or copied, reached only inside `withUnsafeBytes`.
@Suite struct MappedBytesTests {
    @Test func copiesHoldTheirBytes() {
        let bytes = MappedBytes(copying: [1, 2, 3, 255])
        #expect(bytes.count == 4)
        #expect(bytes.withUnsafeBytes { Array($0) } == [1, 2, 3, 255])
        #expect(MappedBytes(copying: [UInt8]()).withUnsafeBytes { $0.count } == 0)
        let filled = MappedBytes(count: 3) { out in for i in out.indices { out[i] = UInt8(i * 2) } }
        #expect(filled.withUnsafeBytes { Array($0) } == [0, 2, 4])
    }

    @Test func mappingsHoldTheFile() throws {
        let dir = TemporaryDirectory()
        try dir.write("hello", to: "h")
        #expect(try MappedBytes(mapping: dir.file("h")).withUnsafeBytes { Array($0) } == Array("hello".utf8))
        #expect(try MappedBytes(mapping: dir.file("h"), count: 2).withUnsafeBytes { Array($0) } == Array("he".utf8))
        try dir.write("", to: "empty")
        #expect(try MappedBytes(mapping: dir.file("empty")).count == 0)
    }

    @Test func aShortFileOrADirectoryIsRefused() throws {
        let dir = TemporaryDirectory()
        try dir.write("hello", to: "h")
        let short = try #require(pointPaintError { _ = try MappedBytes(mapping: dir.file("h"), count: 6, place: .frame(2)) })
        #expect(short.kind == .malformed && short.place == .frame(2) && short.file == dir.file("h"))
        let directory = try #require(pointPaintError { _ = try MappedBytes(mapping: dir.path, file: "shown") })
        #expect(directory.kind == .missing && directory.file == "shown")
    }
}
