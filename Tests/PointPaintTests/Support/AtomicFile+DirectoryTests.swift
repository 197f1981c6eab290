import Foundation
import Testing
@testable import PointPaint

/// A folder written as one output appears whole or not at all; a folder a killed writer left is
/// removed by the next write beside it. (Killing `import` at random moments: test_faults.py.)
@Suite struct AtomicFileDirectoryTests {
    func names(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func theFolderAppearsOnlyWhenComplete() throws {
        let dir = TemporaryDirectory()
        let out = dir.file("capture")
        let inside = try AtomicFile.writeDirectory(to: out) { temporary in
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try names(dir.path) == [String(temporary.split(separator: "/").last!)])
            try AtomicFile.write(Array("{}".utf8), to: temporary + "/capture.json")
            return temporary
        }
        #expect(try names(dir.path) == ["capture"])
        #expect(try names(out) == ["capture.json"])
        #expect(AtomicFile.temporaryOwner(String(inside.split(separator: "/").last!)) == getpid())
    }

    @Test func anEmptyFolderIsReplacedAndMissingParentsAreMade() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: false)
        try AtomicFile.writeDirectory(to: dir.file("empty") + "/") { try AtomicFile.write(Array("a".utf8), to: $0 + "/a") }
        #expect(try names(dir.file("empty")) == ["a"])
        try AtomicFile.writeDirectory(to: dir.file("new/deeper/capture")) { try AtomicFile.write(Array("b".utf8), to: $0 + "/b") }
        #expect(try names(dir.file("new/deeper/capture")) == ["b"])
    }

    @Test func aFailedWriteLeavesNothing() throws {
        let dir = TemporaryDirectory()
        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try AtomicFile.writeDirectory(to: dir.file("capture")) { temporary in
                try AtomicFile.write(Array("half".utf8), to: temporary + "/frame.jpg")
                throw Interrupted()
            }
        }
        #expect(try names(dir.path) == [])
    }

    @Test(arguments: [(["a"], "found one holding 1 entry"), (["a", "b"], "found one holding 2 entries")])
    func aFolderHoldingEntriesIsRefused(entries: [String], expected: String) throws {
        let dir = TemporaryDirectory()
        for name in entries { try dir.write("x", to: "capture/" + name) }
        let error = try #require(throws: PointPaintError.self) {
            try AtomicFile.writeDirectory(to: dir.file("capture")) { _ in Issue.record("the body ran") }
        }
        #expect(error.kind == .malformed && error.file == dir.file("capture"))
        #expect(error.message.hasSuffix(expected))
        #expect(try names(dir.file("capture")) == entries)
    }

    /// A folder a killed writer left (`.NAME.tmp-PID-RANDOM` of a process that no longer runs) is
    /// removed, with what it holds, by the next write beside it; a running process's stays.
    @Test func foldersOfDeadWritersAreRemovedByTheNextWrite() throws {
        let dir = TemporaryDirectory()
        let stale = ".capture.tmp-\(try AtomicFileTests.deadProcess())-7", running = ".capture.tmp-1-8"
        try dir.write("partial", to: stale + "/rgb/000000.jpg")
        try dir.write("partial", to: running + "/capture.json")
        try AtomicFile.writeDirectory(to: dir.file("capture")) { try AtomicFile.write(Array("{}".utf8), to: $0 + "/capture.json") }
        #expect(try names(dir.path) == [running, "capture"].sorted())
    }
}
