import Foundation
import Testing
@testable import PointPaint

/// Atomic writes leave the destination absent, the previous file or the new one, and no
/// temporary beside it; temporaries a killed process left are removed by the next write.
/// (Killing writers at random moments and signals during a write: Tests/python/test_faults.py.)
@Suite struct AtomicFileTests {
    /// The names in `directory`, sorted.
    func names(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func aWriteLeavesOnlyTheDestination() throws {
        let dir = TemporaryDirectory()
        try AtomicFile.write(Array("first".utf8), to: dir.file("out.txt"))
        try AtomicFile.write(Array("second".utf8), to: dir.file("out.txt"))
        #expect(try names(dir) == ["out.txt"])
        #expect(try String(contentsOfFile: dir.file("out.txt"), encoding: .utf8) == "second")
        #expect(FileBytes.size(of: dir.file("out.txt")) == 6)
    }

    @Test func aFailedWriteKeepsThePreviousFileAndLeavesNoTemporary() throws {
        let dir = TemporaryDirectory()
        try dir.write("previous", to: "out.txt")
        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try AtomicFile.write(to: dir.file("out.txt")) { temporary in
                var sink = try FileSink(creating: temporary, file: dir.file("out.txt"))
                try Array("half of the new".utf8).withUnsafeBytes { try sink.write($0) }
                try sink.finish()
                throw Interrupted()
            }
        }
        #expect(try names(dir) == ["out.txt"])
        #expect(try String(contentsOfFile: dir.file("out.txt"), encoding: .utf8) == "previous")
    }

    /// While the body writes, the directory shows no temporary where the kernel offers unnamed
    /// files (Linux), and exactly one hidden `.NAME.tmp-PID-RANDOM` elsewhere.
    @Test func theTemporaryHasNoNameWhileItIsWritten() throws {
        let dir = TemporaryDirectory()
        try dir.write("previous", to: "out.txt")
        let during = try AtomicFile.write(to: dir.file("out.txt")) { temporary in
            try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
            return (temporary, try names(dir))
        }
        if during.0.hasPrefix("/proc/self/fd/") {
            #expect(during.1 == ["out.txt"])
        } else {
            #expect(during.1.count == 2 && during.1.contains { AtomicFile.temporaryOwner($0) == getpid() })
        }
        #expect(try names(dir) == ["out.txt"])
        #expect(try String(contentsOfFile: dir.file("out.txt"), encoding: .utf8) == "new")
    }

    /// libzip writes its own temporary beside the path it is given: such a body gets a named
    /// temporary in the directory.
    @Test func aNamedTemporaryWhenTheBodyNeedsOne() throws {
        let dir = TemporaryDirectory()
        let temporary = try AtomicFile.write(to: dir.file("a.zip"), named: true) { temporary in
            try Data("zip".utf8).write(to: URL(fileURLWithPath: temporary))
            return temporary
        }
        #expect(URL(fileURLWithPath: temporary).deletingLastPathComponent().standardized == URL(fileURLWithPath: dir.path).standardized)
        #expect(AtomicFile.temporaryOwner((temporary as NSString).lastPathComponent) == getpid())
        #expect(try names(dir) == ["a.zip"])
    }

    @Test func aDirectoryAtTheDestinationIsOneClearError() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("out.ply"), withIntermediateDirectories: false)
        let error = try #require(pointPaintError { try AtomicFile.write(Array("x".utf8), to: dir.file("out.ply")) })
        #expect(error.kind == .io(errno: EISDIR) && error.file == dir.file("out.ply"))
        #expect(try names(dir) == ["out.ply"])
    }

    /// Renaming over `/dev/null` would replace the device (as root) with a regular file.
    @Test func aDeviceAtTheDestinationIsWrittenDirectly() throws {
        try AtomicFile.write(Array("discarded".utf8), to: "/dev/null")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test(arguments: [
        (".out.ply.tmp-123-4567", 123 as pid_t?), (".a-b.tmp.tmp-9-0", 9), (".x.tmp-1-4294967295", 1),
        ("out.ply.tmp-123-4567", nil), (".out.ply.tmp-abc-1", nil), (".out.ply.tmp-12-", nil), (".tmp-1-2", nil),
        (".out.ply.tmp-0-1", nil), (".out.ply.tmp-1-4294967296", nil), (".out.ply", nil),
        (".x.r3d.tmp-77-12.Ab3dEf", 77), (".x.r3d.tmp-77-12.", nil),
    ])
    func temporaryNamesAreRecognisedExactly(name: String, owner: pid_t?) {
        #expect(AtomicFile.temporaryOwner(name) == owner)
    }

    /// The id of a process that ran and has ended (`/bin/true`).
    static func deadProcess() throws -> Int32 {
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        return finished.processIdentifier
    }

    /// A temporary of a process that no longer runs is removed by the next write into its
    /// directory; those of running processes, and other hidden files, stay.
    @Test func temporariesOfDeadProcessesAreRemovedByTheNextWrite() throws {
        let dir = TemporaryDirectory()
        let dead = try Self.deadProcess()
        let stale = ".cloud.ply.tmp-\(dead)-17", mine = ".cloud.ply.tmp-\(getpid())-18", running = ".cloud.ply.tmp-1-19"
        for name in [stale, mine, running, ".cloud.ply.tmp-x-20", ".hidden"] { try dir.write("partial", to: name) }
        try AtomicFile.write(Array("done".utf8), to: dir.file("cloud.ply"))
        #expect(try names(dir) == [mine, ".cloud.ply.tmp-x-20", running, ".hidden", "cloud.ply"].sorted())
        #expect(AtomicFile.removeStaleTemporaries(in: dir.path) == 0)
    }
}
