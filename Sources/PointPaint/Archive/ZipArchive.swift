import CZip
import Foundation

/// A ZIP archive read with libzip, entry by entry into memory (Record3D's `.r3d` files are ZIPs).
///
/// Nothing is ever extracted to disk, and every entry is checked when the archive opens: a name
/// that is absolute or climbs out with `..` (an archive built to escape its folder), and an entry
/// that claims more bytes than its compressed data could expand to, are refused before anything
/// is read. Reads are serialised inside the archive (libzip's handle is not thread-safe), so one
/// archive may serve several threads; decoding what was read happens outside the lock.
///
/// libzip's error codes say little ("no such file" for a local header that claims 0xFFFFFFFF
/// bytes), so each is turned into what it means, with its kind (`failure(code:system:path:entry:after:)`),
/// and an archive libzip refuses to open is walked record by record to name the entry at fault and
/// what is wrong with it (`diagnose(path:)`).
package final class ZipArchive: @unchecked Sendable {
    /// One entry's name, sizes and compression method, from the central directory.
    package struct Entry: Sendable, Equatable {
        /// Path inside the archive, `/`-separated.
        package var name: String
        /// Bytes when decompressed, as the archive claims.
        package var size: Int
        /// Bytes stored.
        package var compressedSize: Int
        /// The ZIP compression method: 0 stored, 8 deflate (libzip reads some others).
        package var method: Int
        /// Position in libzip's index.
        package var index: Int
    }

    /// The archive's path, for error messages.
    package let path: String
    /// Every file entry by name (directory entries are left out).
    package let entries: [String: Entry]
    /// Entry names in the archive's order.
    package let names: [String]

    /// The largest ratio of decompressed to compressed size accepted: deflate cannot exceed about
    /// 1032:1, so an entry claiming more is lying about its size.
    static let maximumExpansion = 1100

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Opens the archive at `path` and checks its directory, and each entry's local header against it.
    /// - Throws: `.missing` when no regular file stands at `path`; `.malformed` for a damaged
    ///   archive, naming the entry at fault where one is; `.unsupported` for a split archive or an
    ///   encrypted entry; `.io` when the file cannot be read.
    package init(path: String) throws {
        _ = try FileBytes.regularSize(path, expected: "a ZIP archive")
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw Self.openError(code: code, system: errno, path: path)
        }
        var entries: [String: Entry] = [:]
        var names: [String] = []
        do {
            let count = zip_get_num_entries(handle, 0)
            guard count >= 0 else { throw PointPaintError(.malformed, file: path, "expected a ZIP central directory, found none") }
            for index in 0 ..< Int(count) {
                var stat = zip_stat_t()
                zip_stat_init(&stat)
                guard zip_stat_index(handle, zip_uint64_t(index), 0, &stat) == 0, let raw = stat.name else {
                    throw PointPaintError(.malformed, file: path, place: .element("entry", index), "expected a readable directory entry")
                }
                let name = String(cString: raw)
                guard !name.hasSuffix("/") else { continue }
                try Self.checkName(name, path: path, index: index)
                let size = Int(clamping: stat.size), compressed = Int(clamping: stat.comp_size)
                guard stat.encryption_method == ZIP_EM_NONE else {
                    throw PointPaintError(.unsupported, file: path, place: .part(name), "expected an unencrypted entry, found an encrypted one")
                }
                if stat.comp_method != ZIP_CM_STORE {
                    guard size <= max(compressed, 1).multipliedReportingOverflow(by: Self.maximumExpansion).partialValue else {
                        throw PointPaintError(.tooLarge, file: path, place: .part(name),
                                              "claims \(size) bytes from \(compressed) compressed: more than any deflate stream expands to")
                    }
                } else if size != compressed {
                    throw PointPaintError(.malformed, file: path, place: .part(name),
                                          "a stored entry must hold as many bytes as it claims: \(size) claimed, \(compressed) stored")
                }
                guard entries[name] == nil else {
                    throw PointPaintError(.malformed, file: path, place: .part(name), "expected each name once, found it twice")
                }
                entries[name] = Entry(name: name, size: size, compressedSize: compressed, method: Int(stat.comp_method), index: index)
                names.append(name)
            }
        } catch {
            zip_discard(handle)
            throw error
        }
        self.path = path
        self.handle = handle
        self.entries = entries
        self.names = names
    }

    deinit { zip_discard(handle) }

    /// Whether the archive holds a file named `name`.
    package func contains(_ name: String) -> Bool { entries[name] != nil }

    /// The whole decompressed entry `name`, refused before reading when it claims more than
    /// `maximumSize` bytes (so no more than that is ever allocated). libzip checks the entry's CRC
    /// as it reaches the end.
    /// - Throws: `.missing` for an entry the archive does not hold; `.tooLarge` past
    ///   `maximumSize`; `.malformed` for damaged data (a CRC that does not match, a corrupt
    ///   deflate stream, data that ends early or runs on); `.unsupported` for a compression
    ///   method libzip does not read; `.io` when the file cannot be read.
    package func read(_ name: String, maximumSize: Int) throws -> [UInt8] {
        guard let entry = entries[name] else {
            throw PointPaintError(.missing, file: path, place: .part(name), "no such entry in the archive")
        }
        guard entry.size <= maximumSize else {
            throw PointPaintError(.tooLarge, file: path, place: .part(name), "expected at most \(maximumSize) bytes, found an entry of \(entry.size)")
        }
        var bytes = [UInt8](repeating: 0, count: entry.size)
        lock.lock()
        defer { lock.unlock() }
        guard let file = zip_fopen_index(handle, zip_uint64_t(entry.index), 0) else {
            throw Self.failure(zip_get_error(handle), path: path, entry: entry)
        }
        defer { zip_fclose(file) }
        var done = 0
        while done < entry.size {
            let n = bytes.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress! + done, zip_uint64_t(entry.size - done)) }
            guard n > 0 else {
                guard n == 0 else { throw Self.failure(zip_file_get_error(file), path: path, entry: entry, after: done) }
                throw PointPaintError(.malformed, file: path, place: .part(name),
                                      "damaged archive: the entry's data ends after \(done) of the \(entry.size) bytes it claims")
            }
            done += Int(n)
        }
        // One more read reaches the end of the stream, where libzip compares the CRC.
        var extra: UInt8 = 0
        let tail = zip_fread(file, &extra, 1)
        guard tail == 0 else {
            guard tail > 0 else { throw Self.failure(zip_file_get_error(file), path: path, entry: entry, after: done) }
            throw PointPaintError(.malformed, file: path, place: .part(name), "damaged archive: the entry's data runs on past the \(entry.size) bytes it claims")
        }
        return bytes
    }

    /// Whether `name` stays inside the archive's folder: not empty, not absolute, without
    /// backslashes and without a `..` part (the ZIP writer holds its names to this too).
    static func isInsideFolder(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.contains("\\")
            && !name.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// Refuses names that are absolute or climb out of the archive's folder.
    private static func checkName(_ name: String, path: String, index: Int) throws {
        guard isInsideFolder(name) else {
            throw PointPaintError(.malformed, file: path, place: .element("entry", index),
                                  "expected a name inside the archive's folder, found \(PointPaintError.quote(name))")
        }
    }

    /// The error for `zip_open`'s `code` (`system`: the `errno` it left): what `diagnose(path:)`
    /// finds wrong in the file, else what the code means.
    private static func openError(code: Int32, system: Int32, path: String) -> PointPaintError {
        if code == ZIP_ER_NOENT, FileBytes.size(of: path) == nil {
            return PointPaintError(.missing, file: path, "expected a ZIP archive, found no such file")
        }
        switch code {
        case ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_TELL, ZIP_ER_MEMORY: break
        default: if let found = diagnose(path: path) { return found }
        }
        return failure(code: code, system: system, path: path, entry: nil)
    }

    /// `failure(code:system:path:entry:after:)` for the error libzip left in `error`.
    private static func failure(_ error: UnsafeMutablePointer<zip_error_t>?, path: String, entry: Entry, after done: Int? = nil) -> PointPaintError {
        guard let error else { return failure(code: ZIP_ER_INTERNAL, system: 0, path: path, entry: entry, after: done) }
        return failure(code: zip_error_code_zip(error), system: zip_error_code_system(error), path: path, entry: entry, after: done)
    }

    /// What libzip's error `code` (a `ZIP_ER_*`; `system`: the `errno` or zlib code that came with
    /// it) means, as the error for `path`: met reading `entry` (after `done` of its bytes, when
    /// known), or opening the archive when `entry` is nil, where the error names no entry.
    ///
    /// | code | kind | meaning |
    /// |---|---|---|
    /// | `CRC` | `.malformed` | the data does not match its CRC-32 |
    /// | `ZLIB`, `COMPRESSED_DATA` | `.malformed` | the compressed data is corrupt |
    /// | `EOF` | `.malformed` | the data ends before what the headers describe |
    /// | `INCONS` | `.malformed` | the local and central headers disagree |
    /// | `EXISTS` | `.malformed` | two entries have the same name |
    /// | `NOENT` | `.malformed` | a header holds the ZIP64 marker 0xFFFFFFFF without a ZIP64 field (libzip's "no such file": a file really absent is found before) |
    /// | `NOZIP` | `.malformed` | no central directory, or an entry without its local header |
    /// | `MULTIDISK` | `.unsupported` | one part of a split archive |
    /// | `COMPNOTSUPP` | `.unsupported` | a compression method libzip does not read |
    /// | `ENCRNOTSUPP`, `NOPASSWD`, `WRONGPASSWD` | `.unsupported` | an encrypted entry |
    /// | `OPEN`, `READ`, `SEEK`, `TELL` | `.io(errno:)` | the system's error (`EIO` when it gave none) |
    /// | `MEMORY` | `.io(errno: ENOMEM)` | out of memory |
    /// | any other | `.malformed` | libzip's own words |
    static func failure(code: Int32, system: Int32, path: String, entry: Entry?, after done: Int? = nil) -> PointPaintError {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        zip_error_set(&error, code, system)
        let reason = text(&error)
        // A system error without its errno is an I/O error.
        let systemError = system > 0 ? system : EIO
        let place = entry.map { PointPaintError.Place.part($0.name) }
        let read = entry == nil ? "open the archive" : "read the entry"
        let after = done.flatMap { $0 > 0 ? " after \($0) bytes" : nil } ?? ""
        func damaged(_ what: String) -> PointPaintError { PointPaintError(.malformed, file: path, place: place, "damaged archive: " + what) }
        func unsupported(_ what: String) -> PointPaintError { PointPaintError(.unsupported, file: path, place: place, what) }
        switch code {
        case ZIP_ER_CRC:
            return damaged("\(entry == nil ? "an entry's" : "the entry's") data does not match its CRC-32 (its bytes changed after it was written)")
        case ZIP_ER_ZLIB:
            return damaged("\(entry == nil ? "an entry's" : "the entry's") deflate data is corrupt\(after) (\(reason))")
        case ZIP_ER_COMPRESSED_DATA:
            guard let entry else { return damaged("an entry's compressed data is corrupt") }
            return damaged("the entry's \(methodNames[entry.method] ?? "compressed") data (compression method \(entry.method)) is corrupt\(after)")
        case ZIP_ER_EOF:
            guard let entry else { return damaged("it ends before the data its headers describe") }
            return damaged("the entry's data ends " + (done.map { "after \($0) of the \(entry.size) bytes it claims" } ?? "before the \(entry.size) bytes it claims"))
        case ZIP_ER_INCONS:
            return damaged("\(entry == nil ? "its" : "the entry's") local and central headers disagree")
        case ZIP_ER_EXISTS:
            return damaged(entry == nil ? "two entries have the same name" : "another entry has the entry's name")
        case ZIP_ER_NOENT:
            return damaged("\(entry == nil ? "a" : "the entry's") header claims 4294967295 (0xFFFFFFFF, the ZIP64 marker) for a size or offset, "
                + "but holds no ZIP64 field to give it")
        case ZIP_ER_NOZIP:
            guard entry == nil else { return damaged("the entry's local header is not where the central directory places it") }
            return PointPaintError(.malformed, file: path,
                                   "expected a ZIP archive, found no central directory libzip could read (not a ZIP archive, or one cut short or damaged)")
        case ZIP_ER_MULTIDISK:
            return unsupported("expected a single-file archive, found one part of a split (multi-disk) archive")
        case ZIP_ER_COMPNOTSUPP:
            return unsupported(entry.map { "expected a stored or deflated entry, found compression method \(methodName($0.method)), which this libzip does not read" }
                ?? "expected stored or deflated entries, found a compression method libzip does not read")
        case ZIP_ER_ENCRNOTSUPP, ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD:
            return unsupported(entry == nil ? "expected unencrypted entries, found an encrypted one" : "expected an unencrypted entry, found an encrypted one")
        case ZIP_ER_MEMORY:
            return PointPaintError(.io(errno: ENOMEM), file: path, place: place, "cannot \(read): out of memory")
        case ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_TELL:
            let operation = [ZIP_ER_OPEN: "open", ZIP_ER_READ: "read", ZIP_ER_SEEK: "seek", ZIP_ER_TELL: "tell"][code] ?? "read"
            return PointPaintError(.io(errno: systemError), file: path, place: place,
                                   "cannot \(read)\(after): \(operation) failed: \(PointPaintError.errnoText(systemError))")
        default:
            return PointPaintError(.malformed, file: path, place: place, entry == nil ? "expected a ZIP archive: \(reason)" : "cannot read the entry\(after): \(reason)")
        }
    }

    /// The names of the ZIP compression methods messages name.
    static let methodNames = [0: "stored", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "LZMA", 93: "zstd", 95: "xz", 98: "PPMd", 99: "WinZip AES"]

    /// A ZIP compression method as messages show it: `8 (deflate)`, or the bare number.
    static func methodName(_ method: Int) -> String {
        methodNames[method].map { "\(method) (\($0))" } ?? String(method)
    }

    /// libzip's message for `error`, to sit inside a sentence (the ZIP writer's too).
    static func text(_ error: UnsafeMutablePointer<zip_error_t>?) -> String {
        guard let error, let message = zip_error_strerror(error) else { return "unknown error" }
        return String(cString: message).lowercasedFirst
    }
}
