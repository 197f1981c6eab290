import Foundation

/// An open output file written front to back, with errors that name the destination `file`
/// (the temporary file it writes is an implementation detail of `AtomicFile`).
package struct FileSink: ~Copyable {
    private var fd: Int32
    private let file: String
    private var written = 0

    /// Creates (or empties) `path` for writing; errors name `file`.
    package init(creating path: String, file: String) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        self.file = file
        guard fd >= 0 else { throw PointPaintError.system("cannot create", file: file) }
    }

    deinit {
        if fd >= 0 { _ = Foundation.close(fd) }
    }

    /// Writes all of `bytes`, retrying short writes.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw PointPaintError.system("write failed after \(written + done) bytes", file: file, errno: n < 0 ? errno : EIO)
            }
            done += n
        }
        written += done
    }

    /// Bytes written so far: the offset the next `write` starts at.
    package var offset: Int { written }

    /// Writes all of `bytes` at `offset` (before the end: this patches what was written),
    /// retrying short writes; the end of the file does not move.
    package mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        precondition(offset >= 0 && offset + bytes.count <= written, "patching bytes that were never written")
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw PointPaintError.system("write failed at byte \(offset + done)", file: file, errno: n < 0 ? errno : EIO)
            }
            done += n
        }
    }

    /// Empties the file to write it again from the start.
    package mutating func rewind() throws {
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            throw PointPaintError.system("cannot start the file again", file: file)
        }
        written = 0
    }

    /// Closes the file, reporting a failed close (a full disk can show only here).
    package consuming func finish() throws {
        let result = Foundation.close(fd)
        fd = -1
        guard result == 0 else { throw PointPaintError.system("cannot finish writing", file: file) }
    }
}
