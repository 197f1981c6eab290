import Foundation

/// What a cloud file holds, told by its first bytes rather than its name: `info`, `view`,
/// `voxelize` and `paint` read a LAS file called `scan.ply` (or `scan.xyz`) as LAS.
public enum CloudFileContent: String, Sendable, CaseIterable {
    /// A PLY file: `ply` and a line break.
    case ply
    /// A LAS file, compressed (LAZ) or not: `LASF`.
    case las
    /// A PointPaint store: `\x89PPS\r\n\x1A\n`.
    case store

    /// The content of the file at `path`, or nil when it is not a regular file (a FIFO is never
    /// opened: that would wait for a writer), cannot be read or begins with none of the
    /// signatures (the caller then goes by the name, and the reader says what is wrong).
    /// - Complexity: reads at most 8 bytes.
    public init?(path: String) {
        guard let (fd, _) = try? FileBytes.openRegular(path, expected: "a cloud file") else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 8)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 8) }
        guard count > 0 else { return nil }
        self.init(head: Array(head[..<count]))
    }

    /// The content a file beginning with `head` holds, or nil.
    public init?(head: [UInt8]) {
        if head.starts(with: Array("LASF".utf8)) {
            self = .las
        } else if head.starts(with: [0x89, 0x50, 0x50, 0x53]) {
            self = .store
        } else if head.starts(with: Array("ply".utf8)), head.count > 3, head[3] == 0x0A || head[3] == 0x0D {
            self = .ply
        } else {
            return nil
        }
    }

    /// The content of `path` by its first bytes, else by its extension (`.las`, `.laz`,
    /// `.ppstore`; anything else is taken for PLY).
    public static func of(_ path: String) -> CloudFileContent {
        if let content = CloudFileContent(path: path) { return content }
        switch (path as NSString).pathExtension.lowercased() {
        case "las", "laz": return .las
        case "ppstore": return .store
        default: return .ply
        }
    }
}
