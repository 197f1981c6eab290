import Foundation

/// Small helpers for reading whole files with clear errors.
package enum FileBytes {
    /// The size of the file at `path`, or nil when it does not exist or is not a regular file.
    package static func size(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads the whole file, refusing files larger than `limit` bytes before allocating.
    package static func read(_ path: String, displayName: String? = nil, limit: Int = 1 << 30) throws -> [UInt8] {
        let name = displayName ?? path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw PointPaintError(file: name, "cannot open: \(errnoText())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw PointPaintError(file: name, "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw PointPaintError(file: name, "file of \(size) bytes is larger than the \(limit) allowed") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw PointPaintError(file: name, "read failed after \(done) of \(size) bytes") }
                done += n
            }
        }
        return bytes
    }

    /// The system's message for `errno`, lower-cased at the start to sit inside a sentence.
    package static func errnoText() -> String {
        guard let p = strerror(errno) else { return "error \(errno)" }
        return String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)), as: UTF8.self).lowercasedFirst
    }
}

extension String {
    /// The string with its first character lower-cased ("No such file" → "no such file").
    package var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
