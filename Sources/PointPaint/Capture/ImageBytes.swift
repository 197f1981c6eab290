import Foundation

/// Immutable bytes of an image, owned either by an array or by a read-only memory mapping of a
/// file. Shared freely between threads: nothing can change them after creation.
public final class ImageBytes: @unchecked Sendable {
    private enum Owner {
        case array([UInt8])
        case mapping(UnsafeMutableRawPointer, Int)
    }

    private let owner: Owner
    private let base: UnsafeRawPointer?
    /// Number of bytes.
    public let count: Int

    /// Takes ownership of `bytes`.
    public init(_ bytes: [UInt8]) {
        owner = .array(bytes)
        count = bytes.count
        // An array's storage does not move while the array is held here and never mutated.
        base = bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// Maps the first `count` bytes of `path` read-only; `count` must not exceed the file size.
    public init(mapping path: String, count: Int) throws {
        let (fd, size) = try FileBytes.openRegular(path, expected: "a file to map")
        defer { close(fd) }
        guard count <= size else {
            throw PointPaintError(.malformed, file: path, "expected at least \(count) bytes to map, found \(size)")
        }
        self.count = count
        if count == 0 {
            owner = .array([])
            base = nil
            return
        }
        guard let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw PointPaintError.system("cannot map", file: path)
        }
        owner = .mapping(address, count)
        base = UnsafeRawPointer(address)
    }

    deinit {
        if case .mapping(let address, let length) = owner { munmap(address, length) }
    }

    /// Calls `body` with the bytes. The pointer is valid only inside `body`.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: unsafeBase, count: count))
    }

    @usableFromInline
    var unsafeBase: UnsafeRawPointer? { base }
}
