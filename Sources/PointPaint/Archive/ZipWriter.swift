import CZip
import Foundation

/// A ZIP archive built in memory and written with libzip in one go, through a temporary file
/// renamed into place (`AtomicFile`): what the synthesizer writes Record3D's `.r3d` files with.
///
/// Entries keep the order they were added in. Every name is checked as `ZipArchive` checks names
/// it reads (relative, inside the archive's folder, each once), so nothing written here is refused
/// when read back. Entries carry a fixed modification time, so the same entries give the same bytes.
package struct ZipWriter {
    /// How an entry's bytes are stored.
    package enum Method: Sendable {
        /// As they are (ZIP method 0): for data that is compressed already (JPEG, LZFSE).
        case store
        /// Compressed with deflate (ZIP method 8).
        case deflate
    }

    /// The modification time every entry carries: 2020-01-01 00:00:00 UTC.
    static let modificationTime: time_t = 1_577_836_800

    private var entries: [(name: String, bytes: [UInt8], method: Method)] = []
    private var names: Set<String> = []

    /// An empty archive.
    package init() {}

    /// Adds the entry `name` (a `/`-separated path inside the archive) holding `bytes`.
    /// - Throws: `.malformed` for a name that is empty, absolute, climbs out with `..`, holds a
    ///   backslash or ends with `/`, or that was added before.
    package mutating func add(_ name: String, _ bytes: [UInt8], method: Method = .deflate) throws {
        guard ZipArchive.isInsideFolder(name), !name.hasSuffix("/") else {
            throw PointPaintError(.malformed, place: .part(name), "expected an entry name inside the archive's folder")
        }
        guard names.insert(name).inserted else {
            throw PointPaintError(.malformed, place: .part(name), "expected each entry name once, found it added twice")
        }
        entries.append((name, bytes, method))
    }

    /// Writes the archive to `path`, replacing what is there only once the whole archive is written.
    /// - Throws: `PointPaintError` naming `path` when libzip cannot create, fill or close the archive.
    package func write(to path: String) throws {
        // libzip writes its own temporary beside the path it is given: a named one.
        try AtomicFile.write(to: path, named: true) { temporary in
            var code: Int32 = 0
            guard let archive = zip_open(temporary, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
                var error = zip_error_t()
                zip_error_init_with_code(&error, code)
                defer { zip_error_fini(&error) }
                throw PointPaintError(.io(errno: zip_error_code_system(&error)), file: path, "cannot create the ZIP archive: \(ZipArchive.text(&error))")
            }
            do {
                for entry in entries { try add(entry, to: archive, path: path) }
            } catch {
                zip_discard(archive)
                throw error
            }
            // zip_close compresses and writes everything; on failure the handle stays open.
            guard zip_close(archive) == 0 else {
                let reason = ZipArchive.text(zip_get_error(archive))
                zip_discard(archive)
                throw PointPaintError(.io(errno: EIO), file: path, "cannot write the ZIP archive: \(reason)")
            }
        }
    }

    /// Hands one entry to libzip, which owns a copy of its bytes from then on.
    private func add(_ entry: (name: String, bytes: [UInt8], method: Method), to archive: OpaquePointer, path: String) throws {
        // An empty entry hands libzip no buffer at all: given a zero-length buffer to free, libzip
        // keeps no fragment and never frees it (LeakSanitizer found the byte).
        let copy: UnsafeMutableRawPointer? = entry.bytes.isEmpty ? nil : malloc(entry.bytes.count)!
        if let copy { entry.bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        // freep = 1: libzip frees the copy when it is done with it (or at once, on failure).
        guard let source = zip_source_buffer(archive, copy, zip_uint64_t(entry.bytes.count), copy == nil ? 0 : 1) else {
            free(copy)
            throw PointPaintError(.io(errno: ENOMEM), file: path, place: .part(entry.name), "cannot add the entry: \(ZipArchive.text(zip_get_error(archive)))")
        }
        let index = zip_file_add(archive, entry.name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw PointPaintError(.malformed, file: path, place: .part(entry.name), "cannot add the entry: \(ZipArchive.text(zip_get_error(archive)))")
        }
        let method = entry.method == .store ? ZIP_CM_STORE : ZIP_CM_DEFLATE
        guard zip_set_file_compression(archive, zip_uint64_t(index), method, 0) == 0,
              zip_file_set_mtime(archive, zip_uint64_t(index), Self.modificationTime, 0) == 0
        else {
            throw PointPaintError(.malformed, file: path, place: .part(entry.name), "cannot set up the entry: \(ZipArchive.text(zip_get_error(archive)))")
        }
    }
}
