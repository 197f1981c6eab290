import Foundation

/// Whole-file reads and file checks with clear errors: what the file should have been, and what
/// stands at the path instead.
package enum FileBytes {
    /// The size of the regular file at `path` (links followed), or nil when nothing, or something
    /// other than a regular file, stands there.
    package static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The size of the regular file at `path` (links followed), without opening it.
    ///
    /// - Parameters:
    ///   - name: the file as errors name it (defaults to `path`).
    ///   - expected: what the file holds, for messages: "the frame image".
    /// - Throws: `.missing` when nothing, or a directory, FIFO, device or socket, stands at
    ///   `path`; `.io` when the system cannot say.
    package static func regularSize(_ path: String, name: String? = nil, place: PointPaintError.Place? = nil,
                                    expected: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw absence(errno, file: name ?? path, place: place, expected: expected)
        }
        try checkRegular(info, file: name ?? path, place: place, expected: expected)
        return Int(info.st_size)
    }

    /// Opens the regular file at `path` read-only, refusing anything else before it could block
    /// (a FIFO without a writer) or be read from (a device). Returns the descriptor, which the
    /// caller closes, and the file's size.
    package static func openRegular(_ path: String, name: String? = nil, place: PointPaintError.Place? = nil,
                                    expected: String) throws -> (fd: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw absence(errno, file: name ?? path, place: place, expected: expected) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw PointPaintError.system("cannot read \(expected)", file: name ?? path, place: place, errno: code)
        }
        do {
            try checkRegular(info, file: name ?? path, place: place, expected: expected)
        } catch {
            close(fd)
            throw error
        }
        return (fd, Int(info.st_size))
    }

    /// Reads the whole regular file at `path`, refusing files larger than `limit` bytes before
    /// allocating.
    ///
    /// - Parameters:
    ///   - name: the file as errors name it (defaults to `path`).
    ///   - expected: what the file holds, for messages.
    /// - Throws: as `openRegular`; `.tooLarge` past `limit`; `.io` when reading fails.
    package static func read(_ path: String, name: String? = nil, place: PointPaintError.Place? = nil,
                             expected: String = "a file", limit: Int = 1 << 30) throws -> [UInt8] {
        let file = name ?? path
        let (fd, size) = try openRegular(path, name: file, place: place, expected: expected)
        defer { close(fd) }
        guard size <= limit else {
            throw PointPaintError(.tooLarge, file: file, place: place,
                                  "expected \(expected) of at most \(byteCount(limit)), found \(size) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                guard n >= 0 else {
                    throw PointPaintError.system("read failed after \(done) of \(size) bytes", file: file, place: place)
                }
                guard n > 0 else {
                    throw PointPaintError(.malformed, file: file, place: place,
                                          "expected \(size) bytes, found the end of the file after \(done) (it shrank while being read)")
                }
                done += n
            }
        }
        return bytes
    }

    /// What a `stat` mode says stands at a path, for messages: "a directory", "a FIFO".
    package static func typeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "something that is not a file"
        }
    }

    /// `limit` in words: "64 MiB", "1 GiB", or bytes when not a whole number of MiB.
    private static func byteCount(_ limit: Int) -> String {
        if limit >= 1 << 30, limit % (1 << 30) == 0 { return "\(limit >> 30) GiB" }
        if limit >= 1 << 20, limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        return "\(limit) bytes"
    }

    private static func checkRegular(_ info: stat, file: String, place: PointPaintError.Place?, expected: String) throws {
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PointPaintError(.missing, file: file, place: place,
                                  "expected a regular file (\(expected)), found \(typeName(info.st_mode))")
        }
    }

    /// The error for a path that could not be reached: `.missing` when nothing is there.
    private static func absence(_ code: Int32, file: String, place: PointPaintError.Place?, expected: String) -> PointPaintError {
        guard code == ENOENT || code == ENOTDIR else {
            return PointPaintError.system("cannot open \(expected)", file: file, place: place, errno: code)
        }
        return PointPaintError(.missing, file: file, place: place, "expected \(expected), found no such file")
    }
}

extension String {
    /// The string with its first character lower-cased ("No such file" → "no such file").
    package var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
