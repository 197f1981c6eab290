import CZip
import Foundation

/// A ZIP archive read with libzip, entry by entry into memory (Record3D's `.r3d` files are ZIPs).
///
/// Nothing is ever extracted to disk, and every entry is checked when the archive opens: a name
/// that is absolute or climbs out with `..` (an archive built to escape its folder), and an entry
/// that claims more bytes than its compressed data could expand to, are refused before anything
/// is read. Reads are serialised inside the archive (libzip's handle is not thread-safe), so one
/// archive may serve several threads; decoding what was read happens outside the lock.
package final class ZipArchive: @unchecked Sendable {
    /// One entry's name and sizes, from the central directory.
    package struct Entry: Sendable, Equatable {
        /// Path inside the archive, `/`-separated.
        package var name: String
        /// Bytes when decompressed, as the archive claims.
        package var size: Int
        /// Bytes stored.
        package var compressedSize: Int
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

    /// Opens the archive at `path` and checks its directory.
    package init(path: String) throws {
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw Self.openError(code: code, path: path)
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
                entries[name] = Entry(name: name, size: size, compressedSize: compressed, index: index)
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
    /// `maximumSize` bytes. libzip checks the entry's CRC as it reaches the end.
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
            throw PointPaintError(.malformed, file: path, place: .part(name), "cannot open the entry: \(Self.text(zip_get_error(handle)))")
        }
        defer { zip_fclose(file) }
        var done = 0
        while done < entry.size {
            let n = bytes.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress! + done, zip_uint64_t(entry.size - done)) }
            guard n > 0 else {
                let reason = n < 0 ? Self.text(zip_file_get_error(file)) : "the data ends early"
                throw PointPaintError(.malformed, file: path, place: .part(name), "expected \(entry.size) bytes, read \(done): \(reason)")
            }
            done += Int(n)
        }
        // One more read reaches the end of the stream, where libzip compares the CRC.
        var extra: UInt8 = 0
        let tail = zip_fread(file, &extra, 1)
        guard tail == 0 else {
            let reason = tail < 0 ? Self.text(zip_file_get_error(file)) : "more data than the directory says"
            throw PointPaintError(.malformed, file: path, place: .part(name), "expected \(entry.size) bytes: \(reason)")
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

    private static func openError(code: Int32, path: String) -> PointPaintError {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        let reason = text(&error)
        switch code {
        case ZIP_ER_NOENT: return PointPaintError(.missing, file: path, "cannot open: no such file")
        case ZIP_ER_OPEN, ZIP_ER_READ: return PointPaintError(.io(errno: zip_error_code_system(&error)), file: path, "cannot open: \(reason)")
        default: return PointPaintError(.malformed, file: path, "expected a ZIP archive: \(reason.lowercasedFirst)")
        }
    }

    /// libzip's message for `error`, to sit inside a sentence (the ZIP writer's too).
    static func text(_ error: UnsafeMutablePointer<zip_error_t>?) -> String {
        guard let error, let message = zip_error_strerror(error) else { return "unknown error" }
        return String(cString: message).lowercasedFirst
    }
}
