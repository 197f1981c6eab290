import CPointPaintSupport
import Foundation

/// Writes files through a temporary that is renamed over the destination when complete, so an
/// interrupted run never leaves a half-written output behind: the destination is either absent,
/// or the previous complete file, or the new complete file.
///
/// The temporary is unnamed where Linux allows it (`O_TMPFILE`): until the write is complete it
/// has no name in any directory, and the kernel reclaims it however the process ends (`kill -9`,
/// the OOM killer, a power cut). Complete, it is linked under the destination's name when
/// nothing stands there; otherwise as a hidden sibling `.NAME.tmp-PID-RANDOM`, renamed over the
/// destination at once (only a `kill -9` in that moment leaves it). Elsewhere (other systems,
/// file systems without `O_TMPFILE`) the temporary is that hidden sibling from the start. Named
/// temporaries are
/// removed when the write fails, and on SIGINT, SIGTERM, SIGHUP and SIGQUIT (when the program
/// leaves those signals at their default); one that a `kill -9` leaves behind is removed by the
/// next write into the same directory, which removes every `.NAME.tmp-PID-RANDOM` whose process
/// no longer runs. (A process of another PID namespace writing into a shared directory looks
/// dead from here: don't point two containers' writers at one directory.)
///
/// A destination that is a device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is
/// written directly, since renaming over it would replace the device; a directory is refused
/// before anything is written. A folder of files written as one output goes the same way
/// (`writeDirectory`): filled as a hidden sibling, renamed into place when complete.
package enum AtomicFile {
    /// Calls `body` with the path of a temporary file in the destination's directory, then moves
    /// the file to `path`. The temporary is removed if `body` throws. `body` opens the path for
    /// writing (it exists, empty) and must have closed it when it returns.
    ///
    /// - Parameter named: give `body` a named temporary in the directory even where an unnamed
    ///   one could be had: for a library that writes its own temporary beside the path it is
    ///   given and renames it over that path (libzip). Such a file, named after the temporary
    ///   (`.NAME.tmp-PID-RANDOM.XXXXXX`), is cleaned up as the temporary is when a `kill -9`
    ///   leaves it.
    package static func write<R>(to path: String, named: Bool = false, _ body: (_ temporaryPath: String) throws -> R) throws -> R {
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw PointPaintError.system("cannot write the file", file: path, errno: EISDIR)
            default:
                // A device or a FIFO (`-o /dev/null`, `-o /dev/stdout`, a named pipe) takes the
                // bytes as they come: renaming a file over it would replace the device itself.
                return try body(path)
            }
        }
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let hiddenPrefix = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())-"
        Cleanup.prepare(directory: directory)

        var procPath = [CChar](repeating: 0, count: 64)
        let fd = named ? -1 : pp_open_unnamed_temporary(directory, &procPath, procPath.count)
        guard fd >= 0 else { return try writeNamed(to: path, prefix: hiddenPrefix, body) }
        defer { close(fd) }
        let result = try body(String(decoding: procPath.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        // Nothing at the destination: the file gets its name there at once.
        if pp_link_unnamed_temporary(procPath, path) == 0 { return result }
        guard errno == EEXIST else { throw PointPaintError.system("cannot give the finished file its name", file: path) }
        // Else named beside it for the moment of the rename only (and listed first, so a signal
        // then removes it).
        while true {
            let temporary = hiddenPrefix + "\(UInt32.random(in: 0 ... .max))"
            let slot = pp_temporary_register(temporary)
            defer { pp_temporary_unregister(slot) }
            if pp_link_unnamed_temporary(procPath, temporary) != 0 {
                if errno == EEXIST { continue }
                throw PointPaintError.system("cannot give the finished file a name beside it", file: path)
            }
            try moveIntoPlace(temporary, path)
            return result
        }
    }

    /// `write(to:_:)` with a named temporary `prefix` + a random number from the start.
    private static func writeNamed<R>(to path: String, prefix: String, _ body: (String) throws -> R) throws -> R {
        let temporary = prefix + "\(UInt32.random(in: 0 ... .max))"
        let slot = pp_temporary_register(temporary)
        defer { pp_temporary_unregister(slot) }
        do {
            let result = try body(temporary)
            try moveIntoPlace(temporary, path)
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Renames `temporary` over `path`, removing it when that fails.
    private static func moveIntoPlace(_ temporary: String, _ path: String) throws {
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw PointPaintError.system("cannot move the finished file into place", file: path, errno: code)
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

    /// Removes the temporaries that processes no longer running left in `directory` (see the
    /// type's documentation); returns how many. Writes call it once a directory.
    @discardableResult
    package static func removeStaleTemporaries(in directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = temporaryOwner(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard unlink(path) == 0 else { continue }
            case S_IFDIR:
                // A folder written whole (`writeDirectory`) by a process that was killed.
                guard (try? FileManager.default.removeItem(atPath: path)) != nil else { continue }
            default:
                continue
            }
            removed += 1
        }
        return removed
    }

    /// The process that wrote the temporary named `name` (`.NAME.tmp-PID-RANDOM`, or a library's
    /// own temporary of it, `.NAME.tmp-PID-RANDOM.XXXXXX`), or nil when `name` is not one.
    package static func temporaryOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(".") else { return nil }
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 3].hasSuffix(".tmp"), parts[parts.count - 3].count > ".tmp".count + 1 else { return nil }
        let random = parts[parts.count - 1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard UInt32(random[0]) != nil, random.count == 1 || !random[1].isEmpty,
              let pid = pid_t(parts[parts.count - 2]), pid > 0 else { return nil }
        return pid
    }

    /// The once-a-process and once-a-directory work before a write.
    enum Cleanup {
        /// Installs the signal handlers (once, when first read).
        static let handlers: Void = pp_temporary_install_signal_handlers()
        /// The directories already cleaned by this process.
        private static let cleaned = Directories()

        static func prepare(directory: String) {
            _ = handlers
            if cleaned.insert(directory) { removeStaleTemporaries(in: directory) }
        }
    }

    /// A set of directory paths shared by the threads that write.
    private final class Directories: @unchecked Sendable {
        /// Guards `paths`.
        private let lock = NSLock()
        private var paths = Set<String>()

        /// Adds `path`; whether it was new.
        func insert(_ path: String) -> Bool {
            lock.withLock { paths.insert(path).inserted }
        }
    }
}
