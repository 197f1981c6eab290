import Foundation

/// Writes files through a temporary sibling that is renamed over the destination when complete,
/// so an interrupted run never leaves a half-written output behind.
package enum AtomicFile {
    /// Calls `body` with a temporary path in the destination's directory, then renames it to
    /// `path`. The temporary file is removed if `body` throws.
    package static func write<R>(to path: String, _ body: (_ temporaryPath: String) throws -> R) throws -> R {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        do {
            let result = try body(temporary)
            guard rename(temporary, path) == 0 else {
                throw PointPaintError.system("cannot move the finished file into place", file: path)
            }
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `data` to `path` atomically.
    package static func write(_ data: some DataProtocol, to path: String) throws {
        try write(to: path) { temporary in
            var sink = try FileSink(creating: temporary, file: path)
            for region in data.regions {
                try region.withUnsafeBytes { try sink.write($0) }
            }
            try sink.finish()
        }
    }
}
