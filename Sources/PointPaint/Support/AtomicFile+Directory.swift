import CPointPaintSupport
import Foundation

extension AtomicFile {
    /// Calls `body` with the path of a new, empty folder beside `path` (`.NAME.tmp-PID-RANDOM`),
    /// then renames it to `path` once `body` returns, so a reader never finds a half-written
    /// folder at `path`: it is absent (or the empty folder that stood there) until complete.
    ///
    /// `path` must not exist, or be an empty folder (the rename replaces it). When `body` throws,
    /// the folder is removed. A folder a `kill -9` or a signal leaves behind is removed by the
    /// next write into the same parent folder (`removeStaleTemporaries`), as a file's is.
    /// - Throws: `.malformed` when `path` is a file or a folder holding entries; the system's
    ///   error when the folder cannot be made or renamed; whatever `body` throws.
    package static func writeDirectory<R>(to path: String, _ body: (_ temporaryPath: String) throws -> R) throws -> R {
        let trimmed = FilePaths.withoutTrailingSlash(path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) {
            let contents = isDirectory.boolValue ? (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) : nil
            guard let contents, contents.isEmpty else {
                let found = contents.map { "one holding \($0.count) \($0.count == 1 ? "entry" : "entries")" } ?? "a file"
                throw PointPaintError(.malformed, file: path, "expected a new or empty folder to write into, found \(found)")
            }
        }
        let url = URL(fileURLWithPath: trimmed)
        let parent = url.deletingLastPathComponent().path
        try makeDirectories(parent)
        Cleanup.prepare(directory: parent)
        var temporary = ""
        repeat {
            temporary = parent + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
            if mkdir(temporary, 0o755) == 0 { break }
            guard errno == EEXIST else { throw PointPaintError.system("cannot make the folder to write into", file: temporary) }
        } while true
        do {
            let result = try body(temporary)
            guard rename(temporary, trimmed) == 0 else {
                throw PointPaintError.system("cannot move the finished folder into place", file: path)
            }
            return result
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Creates the folder `path` and any missing parents, like `mkdir -p`.
    /// - Throws: `.malformed` when `path` or a parent is not a folder; the system's error when
    ///   one cannot be made.
    package static func makeDirectories(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw PointPaintError(.malformed, file: path, "expected a directory, found \(FileBytes.typeName(info.st_mode))")
            }
            return
        }
        let parent = FilePaths.parent(of: path)
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw PointPaintError.system("cannot create directory", file: path)
        }
    }
}
