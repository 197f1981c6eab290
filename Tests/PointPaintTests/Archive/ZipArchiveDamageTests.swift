import CZip
import Foundation
import Testing
@testable import PointPaint

/// Damaged ZIP archives, each made by the test: a small archive from `ZipWriter`, then one header
/// field patched. Whatever libzip's error code, the user reads what is wrong, at the entry at
/// fault, with the kind that says so: a damaged `.r3d` is never reported as a missing file.
@Suite struct ZipArchiveDamageTests {
    /// A small archive's bytes, with the offsets of its records, to patch.
    struct Archive {
        static let metadata = Array(String(repeating: "{\"w\": 720, \"h\": 960}, ", count: 20).utf8)
        static let depth = (0 ..< 1024).map { UInt8(truncatingIfNeeded: $0 * 7) }
        static let image = (0 ..< 600).map { UInt8(truncatingIfNeeded: $0 * 13 + 1) }

        var bytes: [UInt8]

        /// metadata (deflated), rgbd/0.depth, rgbd/0.jpg and rgbd/1.jpg (stored; the last entry).
        init() throws {
            let dir = TemporaryDirectory()
            var writer = ZipWriter()
            try writer.add("metadata", Self.metadata, method: .deflate)
            try writer.add("rgbd/0.depth", Self.depth, method: .store)
            try writer.add("rgbd/0.jpg", Self.image, method: .store)
            try writer.add("rgbd/1.jpg", Self.image, method: .store)
            try writer.write(to: dir.file("a.zip"))
            bytes = try FileBytes.read(dir.file("a.zip"))
        }

        /// The offset of the local header of `name`.
        func local(_ name: String) throws -> Int { try find([0x50, 0x4B, 0x03, 0x04], name, nameAt: 30) }

        /// The offset of the central directory entry of `name`.
        func central(_ name: String) throws -> Int { try find([0x50, 0x4B, 0x01, 0x02], name, nameAt: 46) }

        /// The offset of the end of central directory record.
        func end() throws -> Int {
            try #require(stride(from: bytes.count - 22, through: 0, by: -1).first { bytes[$0 ..< $0 + 4].elementsEqual([0x50, 0x4B, 0x05, 0x06]) })
        }

        /// The little-endian 16-bit field at `offset`.
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

        /// The little-endian 32-bit field at `offset`.
        func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }

        /// Sets the little-endian 16-bit field at `offset`.
        mutating func set16(_ offset: Int, _ value: Int) {
            bytes[offset] = UInt8(value & 0xFF)
            bytes[offset + 1] = UInt8(value >> 8 & 0xFF)
        }

        /// Sets the little-endian 32-bit field at `offset`.
        mutating func set32(_ offset: Int, _ value: UInt32) {
            set16(offset, Int(value & 0xFFFF))
            set16(offset + 2, Int(value >> 16))
        }

        /// Writes the bytes to `a.zip` in `dir`, and returns its path.
        func write(in dir: TemporaryDirectory) throws -> String {
            try Data(bytes).write(to: URL(fileURLWithPath: dir.file("a.zip")))
            return dir.file("a.zip")
        }

        private func find(_ signature: [UInt8], _ name: String, nameAt: Int) throws -> Int {
            let name = Array(name.utf8)
            return try #require((0 ..< bytes.count - nameAt - name.count).first { at in
                bytes[at ..< at + 4].elementsEqual(signature) && bytes[at + nameAt ..< at + nameAt + name.count].elementsEqual(name)
            })
        }
    }

    // Field offsets in a local header and a central directory entry.
    static let localFlags = 6, localMethod = 8, localTime = 10, localCRC = 14, localStored = 18, localSize = 22, localVersion = 4
    static let centralFlags = 8, centralMethod = 10, centralCRC = 16, centralStored = 20, centralSize = 24, centralOffset = 42

    /// The test archive with entry `name` claiming `size` bytes, stored and uncompressed, in both
    /// its local header and its central directory entry.
    static func claiming(_ size: UInt32, for name: String) throws -> Archive {
        var archive = try Archive()
        let local = try archive.local(name), central = try archive.central(name)
        for field in [local + localSize, local + localStored, central + centralSize, central + centralStored] {
            archive.set32(field, size)
        }
        return archive
    }

    /// The error opening `archive` throws.
    static func openError(_ archive: Archive) throws -> (PointPaintError, String) {
        let dir = TemporaryDirectory()
        let path = try archive.write(in: dir)
        return (try #require(throws: PointPaintError.self) { try ZipArchive(path: path) }, path)
    }

    /// The error reading `name` from `archive` throws (the archive opens).
    static func readError(_ archive: Archive, _ name: String) throws -> (PointPaintError, String) {
        let dir = TemporaryDirectory()
        let path = try archive.write(in: dir)
        let zip = try ZipArchive(path: path)
        return (try #require(throws: PointPaintError.self) { try zip.read(name, maximumSize: 1 << 20) }, path)
    }

    /// Checks `error` is of `kind`, at `place` (an entry's `.part(name)`; nil: none), and that its
    /// one line names `path`, the place and holds each of `words`.
    static func expect(_ error: PointPaintError, _ kind: PointPaintError.Kind, at place: PointPaintError.Place?, path: String, says words: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        #expect(error.place == place, "\(error)", sourceLocation: sourceLocation)
        #expect(error.file == path, sourceLocation: sourceLocation)
        let line = error.description
        #expect(line.hasPrefix(path + ": " + (place.map { "\($0): " } ?? "")), "\(line)", sourceLocation: sourceLocation)
        for word in words { #expect(line.contains(word), "\(line) should say \(word)", sourceLocation: sourceLocation) }
        #expect(!line.contains("no such file"), "\(line)", sourceLocation: sourceLocation)
    }

    // MARK: the archive refused when it opens

    /// The fuzzer's case: a local header that claims 0xFFFFFFFF bytes, the ZIP64 marker, without the
    /// ZIP64 field (libzip says "no such file"), in either size or both.
    @Test(arguments: [[localSize, localStored], [localSize], [localStored]])
    func aLocalHeaderClaimingTheZip64MarkerIsDamageNotAMissingFile(fields: [Int]) throws {
        var archive = try Archive()
        let local = try archive.local("rgbd/0.depth")
        for field in fields { archive.set32(local + field, 0xFFFF_FFFF) }
        let (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path,
                    says: ["damaged archive", "local header claims 4294967295", "ZIP64", "central directory says 1024 bytes"])
    }

    /// The same marker in both headers, where libzip stops at the central directory: refused when
    /// the archive opens, so nothing is read or allocated for the 4 GiB it claims.
    @Test func aCentralEntryClaimingTheZip64MarkerIsRefusedWhenOpening() throws {
        let archive = try Self.claiming(0xFFFF_FFFF, for: "rgbd/0.depth")
        let (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path, says: ["damaged archive", "central directory claims 4294967295", "ZIP64"])
    }

    /// A stored entry that claims 4 GiB - 2 in both headers (no marker, no ZIP64 field needed):
    /// its data would run past the central directory, so the archive is refused on opening.
    @Test func aStoredEntryClaimingFourGiBIsRefusedBeforeAnyRead() throws {
        let archive = try Self.claiming(0xFFFF_FFFE, for: "rgbd/1.jpg")
        let (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/1.jpg"), path: path, says: ["damaged archive", "claims 4294967294 stored bytes", "past the start of the central directory"])
    }

    /// Local headers that disagree with the central directory (libzip: "zip archive inconsistent").
    @Test func localHeadersThatDisagreeWithTheCentralDirectoryNameTheEntry() throws {
        let cases: [(String, Int, (inout Archive, Int) -> Void, [String])] = [
            ("rgbd/0.depth", Self.localSize, { $0.set32($1, 1025) }, ["local header claims 1025 bytes, 1024 stored", "central directory 1024, 1024 stored"]),
            ("rgbd/0.depth", Self.localStored, { $0.set32($1, 1000) }, ["1000 stored", "central directory 1024, 1024 stored"]),
            ("metadata", Self.localCRC, { $0.set32($1, 0x1234_5678) }, ["CRC-32 0x12345678, the central directory 0x"]),
            ("rgbd/0.depth", Self.localMethod, { $0.set16($1, 8) }, ["compression method 8 (deflate), the central directory 0 (stored)"]),
            ("rgbd/0.depth", Self.localVersion, { $0.set16($1, 63) }, ["needs ZIP version 6.3"]),
            ("rgbd/0.depth", Self.localTime, { let time = $0.u16($1); $0.set16($1, time ^ 1) }, ["modification time"]),
            ("rgbd/0.depth", 0, { $0.bytes[$1 + 2] = 0x07 }, ["expected the entry's local header at byte offset", "other bytes"]),
            ("rgbd/0.depth", 30 + 5, { $0.bytes[$1] = UInt8(ascii: "X") }, ["local header names another entry, 'rgbd/X.depth'"]),
        ]
        for (name, field, patch, words) in cases {
            var archive = try Archive()
            patch(&archive, try archive.local(name) + field)
            let (error, path) = try Self.openError(archive)
            Self.expect(error, .malformed, at: .part(name), path: path, says: ["damaged archive"] + words)
        }
    }

    /// A central entry that places its local header where none is (libzip: "not a zip archive").
    @Test func aCentralEntryPointingAtNoLocalHeaderNamesTheEntry() throws {
        var archive = try Archive()
        let central = try archive.central("rgbd/0.depth")
        archive.set32(central + Self.centralOffset, archive.u32(central + Self.centralOffset) + 7)
        var (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path, says: ["damaged archive", "expected the entry's local header at byte offset"])

        archive.set32(central + Self.centralOffset, UInt32(try archive.end()))
        (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path, says: ["damaged archive", "past the start of the central directory"])
    }

    /// Damage to the end of central directory record: bytes after it, a wrong entry count (or
    /// two that disagree), a central directory offset that misses it or a size too small for it,
    /// and a split archive (unsupported, not damage).
    @Test func theEndRecordDamagedOrSplit() throws {
        var archive = try Archive()
        archive.bytes += Array("junk".utf8)
        var (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: nil, path: path, says: ["damaged archive", "0-byte comment, but 4 bytes follow it"])

        archive = try Archive()
        var end = try archive.end()
        archive.set16(end + 8, 5)
        archive.set16(end + 10, 5)
        (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: nil, path: path, says: ["counts 5 entries", "holds 4"])

        archive = try Archive()
        end = try archive.end()
        archive.set16(end + 8, 0xFF04)
        (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: nil, path: path, says: ["counts 65284 entries on this disk but 4 in all"])

        archive = try Archive()
        end = try archive.end()
        archive.set32(end + 16, archive.u32(end + 16) - 5)
        (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .element("entry", 0), path: path, says: ["damaged archive", "expected a central directory entry at byte offset"])

        archive = try Archive()
        end = try archive.end()
        archive.set32(end + 12, 10)
        (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .element("entry", 0), path: path, says: ["runs past the end of the directory, which the end record makes 10 bytes"])

        archive = try Archive()
        end = try archive.end()
        archive.set16(end + 4, 1)
        (error, path) = try Self.openError(archive)
        Self.expect(error, .unsupported, at: nil, path: path, says: ["single-file archive", "split"])
    }

    /// Two entries of one name (libzip: "file already exists").
    @Test func twoEntriesOfOneNameAreNamed() throws {
        var archive = try Archive()
        for header in [try archive.local("rgbd/1.jpg") + 30, try archive.central("rgbd/1.jpg") + 46] { archive.bytes[header + 5] = UInt8(ascii: "0") }
        let (error, path) = try Self.openError(archive)
        Self.expect(error, .malformed, at: .part("rgbd/0.jpg"), path: path, says: ["expected each entry name once, found it twice"])
    }

    /// A missing file, a folder, and a file that is no archive at all.
    @Test func onlyAnAbsentFileIsMissing() throws {
        let dir = TemporaryDirectory()
        let none = try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("none.zip")) }
        #expect(none.kind == .missing && none.description.hasSuffix("expected a ZIP archive, found no such file"))
        try FileManager.default.createDirectory(atPath: dir.file("folder.zip"), withIntermediateDirectories: false)
        let folder = try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("folder.zip")) }
        #expect(folder.kind == .missing && folder.description.contains("found a directory"))
        try dir.write("a text file, with no end of central directory record", to: "text.zip")
        let text = try #require(throws: PointPaintError.self) { try ZipArchive(path: dir.file("text.zip")) }
        #expect(text.kind == .malformed && text.description.contains("expected a ZIP archive"))
    }

    // MARK: entries refused when read

    /// Both CRCs changed alike: libzip's CRC error, at the end of the data.
    @Test func dataThatFailsItsCRCIsDamage() throws {
        var archive = try Archive()
        archive.set32(try archive.local("rgbd/0.depth") + Self.localCRC, 0x1234_5678)
        archive.set32(try archive.central("rgbd/0.depth") + Self.centralCRC, 0x1234_5678)
        let (error, path) = try Self.readError(archive, "rgbd/0.depth")
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path, says: ["damaged archive", "does not match its CRC-32"])
    }

    /// A stored entry that claims 4 bytes more in both headers (not the last entry): the read stops
    /// at what it claims, inside the next local header, and the CRC refuses it.
    @Test func aStoredEntryClaimingMoreThanItHoldsReadsNoFurther() throws {
        let archive = try Self.claiming(1028, for: "rgbd/0.depth")
        let (error, path) = try Self.readError(archive, "rgbd/0.depth")
        Self.expect(error, .malformed, at: .part("rgbd/0.depth"), path: path, says: ["CRC-32"])
    }

    /// A deflate stream overwritten with an invalid block: zlib's data error.
    @Test func corruptDeflateDataIsDamage() throws {
        var archive = try Archive()
        let local = try archive.local("metadata")
        let data = local + 30 + archive.u16(local + 26) + archive.u16(local + 28)
        archive.bytes.replaceSubrange(data ..< data + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let (error, path) = try Self.readError(archive, "metadata")
        Self.expect(error, .malformed, at: .part("metadata"), path: path, says: ["damaged archive", "deflate data is corrupt", "zlib"])
    }

    /// A deflated entry relabelled bzip2 (method 12) in both headers: libzip's "compressed data
    /// invalid" where it reads bzip2, else its "compression method not supported".
    @Test func dataThatIsNotWhatItsMethodSaysIsDamage() throws {
        var archive = try Archive()
        archive.set16(try archive.local("metadata") + Self.localMethod, 12)
        archive.set16(try archive.central("metadata") + Self.centralMethod, 12)
        let (error, path) = try Self.readError(archive, "metadata")
        if zip_compression_method_supported(12, 0) != 0 {
            Self.expect(error, .malformed, at: .part("metadata"), path: path, says: ["damaged archive", "bzip2 data (compression method 12) is corrupt"])
        } else {
            Self.expect(error, .unsupported, at: .part("metadata"), path: path, says: ["compression method 12 (bzip2)"])
        }
    }

    /// A compression method no ZIP reader knows: unsupported, not damage.
    @Test func anUnknownCompressionMethodIsUnsupported() throws {
        var archive = try Archive()
        archive.set16(try archive.local("rgbd/0.depth") + Self.localMethod, 200)
        archive.set16(try archive.central("rgbd/0.depth") + Self.centralMethod, 200)
        let (error, path) = try Self.readError(archive, "rgbd/0.depth")
        Self.expect(error, .unsupported, at: .part("rgbd/0.depth"), path: path, says: ["expected a stored or deflated entry, found compression method 200"])
    }

    /// The encryption flag (in the central directory, which libzip goes by): unsupported when the
    /// archive opens.
    @Test func anEncryptedEntryIsUnsupported() throws {
        var archive = try Archive()
        let central = try archive.central("rgbd/0.depth")
        archive.set16(central + Self.centralFlags, archive.u16(central + Self.centralFlags) | 1)
        let (error, path) = try Self.openError(archive)
        Self.expect(error, .unsupported, at: .part("rgbd/0.depth"), path: path, says: ["expected an unencrypted entry, found an encrypted one"])
    }

    /// A deflated entry whose size both headers state 10 bytes too large or too small: its data
    /// ends early, or runs on past the size.
    @Test(arguments: [10, -10])
    func aDeflatedEntryWhoseSizeIsWrongInBothHeaders(change: Int) throws {
        var archive = try Archive()
        let local = try archive.local("metadata"), central = try archive.central("metadata")
        let size = UInt32(Archive.metadata.count + change)
        archive.set32(local + Self.localSize, size)
        archive.set32(central + Self.centralSize, size)
        let (error, path) = try Self.readError(archive, "metadata")
        let words = change > 0 ? ["ends after \(Archive.metadata.count) of the \(size) bytes it claims"] : ["runs on past the \(size) bytes it claims"]
        Self.expect(error, .malformed, at: .part("metadata"), path: path, says: ["damaged archive"] + words)
    }

    // MARK: every code mapped

    /// One libzip error code, with the kind and words it must give.
    struct Mapping: Sendable, CustomTestStringConvertible {
        var code: Int32
        var system: Int32 = 0
        var kind: PointPaintError.Kind
        /// Words the message holds, reading an entry.
        var entry: String
        /// Words the message holds, opening the archive.
        var archive: String
        var testDescription: String { "ZIP_ER \(code) (\(system))" }
    }

    static let mappings: [Mapping] = [
        Mapping(code: ZIP_ER_CRC, kind: .malformed, entry: "the entry's data does not match its CRC-32", archive: "an entry's data does not match its CRC-32"),
        Mapping(code: ZIP_ER_ZLIB, system: -3, kind: .malformed, entry: "the entry's deflate data is corrupt after 10 bytes (zlib error: data error)", archive: "deflate data is corrupt"),
        Mapping(code: ZIP_ER_COMPRESSED_DATA, kind: .malformed, entry: "the entry's stored data (compression method 0) is corrupt after 10 bytes", archive: "an entry's compressed data is corrupt"),
        Mapping(code: ZIP_ER_EOF, kind: .malformed, entry: "the entry's data ends after 10 of the 1024 bytes it claims", archive: "it ends before the data its headers describe"),
        Mapping(code: ZIP_ER_INCONS, kind: .malformed, entry: "the entry's local and central headers disagree", archive: "its local and central headers disagree"),
        Mapping(code: ZIP_ER_EXISTS, kind: .malformed, entry: "another entry has the entry's name", archive: "two entries have the same name"),
        Mapping(code: ZIP_ER_NOENT, kind: .malformed, entry: "the entry's header claims 4294967295", archive: "a header claims 4294967295 (0xFFFFFFFF, the ZIP64 marker)"),
        Mapping(code: ZIP_ER_NOZIP, kind: .malformed, entry: "the entry's local header is not where", archive: "expected a ZIP archive, found no central directory"),
        Mapping(code: ZIP_ER_MULTIDISK, kind: .unsupported, entry: "split (multi-disk) archive", archive: "split (multi-disk) archive"),
        Mapping(code: ZIP_ER_COMPNOTSUPP, kind: .unsupported, entry: "found compression method 0 (stored), which this libzip does not read",
                archive: "found a compression method libzip does not read"),
        Mapping(code: ZIP_ER_ENCRNOTSUPP, kind: .unsupported, entry: "expected an unencrypted entry", archive: "expected unencrypted entries"),
        Mapping(code: ZIP_ER_NOPASSWD, kind: .unsupported, entry: "expected an unencrypted entry", archive: "expected unencrypted entries"),
        Mapping(code: ZIP_ER_WRONGPASSWD, kind: .unsupported, entry: "expected an unencrypted entry", archive: "expected unencrypted entries"),
        Mapping(code: ZIP_ER_READ, system: EIO, kind: .io(errno: EIO), entry: "cannot read the entry after 10 bytes: read failed: input/output error",
                archive: "cannot open the archive: read failed: input/output error"),
        Mapping(code: ZIP_ER_SEEK, system: ESPIPE, kind: .io(errno: ESPIPE), entry: "cannot read the entry after 10 bytes: seek failed: illegal seek",
                archive: "cannot open the archive: seek failed: illegal seek"),
        Mapping(code: ZIP_ER_OPEN, system: EACCES, kind: .io(errno: EACCES), entry: "open failed: permission denied", archive: "cannot open the archive: open failed: permission denied"),
        Mapping(code: ZIP_ER_TELL, kind: .io(errno: EIO), entry: "tell failed: input/output error", archive: "cannot open the archive: tell failed: input/output error"),
        Mapping(code: ZIP_ER_MEMORY, kind: .io(errno: ENOMEM), entry: "cannot read the entry: out of memory", archive: "cannot open the archive: out of memory"),
        Mapping(code: ZIP_ER_INTERNAL, kind: .malformed, entry: "cannot read the entry after 10 bytes: internal error", archive: "expected a ZIP archive: internal error"),
    ]

    /// Each code as `failure` maps it, reading an entry and opening the archive: the kind, the
    /// place, and words that say what it means (the codes no archive here can provoke among them:
    /// system errors, memory, passwords).
    @Test(arguments: mappings)
    func eachLibzipCodeSaysWhatItMeans(mapping: Mapping) {
        let entry = ZipArchive.Entry(name: "rgbd/0.depth", size: 1024, compressedSize: 1024, method: 0, index: 1)
        let read = ZipArchive.failure(code: mapping.code, system: mapping.system, path: "a.r3d", entry: entry,
                                      after: mapping.code == ZIP_ER_MEMORY ? nil : 10)
        Self.expect(read, mapping.kind, at: .part("rgbd/0.depth"), path: "a.r3d", says: [mapping.entry])
        let open = ZipArchive.failure(code: mapping.code, system: mapping.system, path: "a.r3d", entry: nil)
        Self.expect(open, mapping.kind, at: nil, path: "a.r3d", says: [mapping.archive])
    }
}
