import Foundation

/// Immutable bytes with one owner: a private read-only memory mapping of a file, a copy in
/// memory this object allocated, or memory another object owns that this one keeps alive (a
/// video decoder's picture). Shared freely between threads, since nothing can change them
/// after creation.
///
/// The bytes are reached only inside `withUnsafeBytes`; no pointer to them leaves this type.
/// Image planes (`YCbCrImage`) and PLY files being parsed are held this way.
public final class MappedBytes: @unchecked Sendable {
    /// The first byte (nil when empty); owned: unmapped or deallocated in `deinit`.
    @usableFromInline let base: UnsafeRawPointer?
    /// Number of bytes.
    public let count: Int
    /// Who frees `base`.
    private let owner: Owner

    /// Who frees the bytes.
    private enum Owner {
        /// This object: an allocation of its own.
        case allocation
        /// This object: a mapping of its own.
        case mapping
        /// Another object, kept alive with this one.
        case keeper(AnyObject)
    }

    /// A copy of `bytes`.
    ///
    /// - Complexity: O(`bytes.count`).
    public convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count) { buffer in
            let (_, end) = buffer.initialize(from: bytes)
            assert(end == buffer.endIndex, "a collection's count must match its elements")
        }
    }

    /// `count` bytes written once by `initialize`, which must set every one of them.
    ///
    /// - Complexity: O(`count`) plus what `initialize` costs.
    public init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows {
        precondition(count >= 0, "a byte count cannot be negative")
        self.count = count
        owner = .allocation
        guard count > 0 else {
            base = nil
            try initialize(UnsafeMutableBufferPointer(start: nil, count: 0))
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        do {
            try initialize(UnsafeMutableBufferPointer(start: memory.bindMemory(to: UInt8.self, capacity: count), count: count))
        } catch {
            memory.deallocate()
            throw error
        }
        base = UnsafeRawPointer(memory)
    }

    /// Maps the first `count` bytes of the regular file at `path` read-only (its whole length
    /// when `count` is nil). Errors name `file` (default `path`) at `place`, and say the file
    /// should have been what `expected` says ("a PLY file").
    ///
    /// - Throws: `.missing` when no regular file stands at `path`; `.malformed` when the file
    ///   is shorter than `count`; `.io` when the system refuses.
    public init(mapping path: String, count: Int? = nil, file: String? = nil, place: PointPaintError.Place? = nil,
                expected: String = "a file") throws {
        let name = file ?? path
        let (fd, size) = try FileBytes.openRegular(path, name: name, place: place, expected: expected)
        defer { close(fd) }
        let length = count ?? size
        guard length >= 0, length <= size else {
            throw PointPaintError(.malformed, file: name, place: place, "expected at least \(length) bytes, found \(size)")
        }
        self.count = length
        guard length > 0 else {
            base = nil
            owner = .allocation
            return
        }
        guard let address = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw PointPaintError.system("cannot map", file: name, place: place)
        }
        base = UnsafeRawPointer(address)
        owner = .mapping
    }

    /// The `count` bytes at `base`, which `keeper` owns and must neither change nor free
    /// while it lives; this object keeps `keeper` alive and never frees `base` itself.
    package init(borrowing base: UnsafeRawPointer, count: Int, keeper: AnyObject) {
        precondition(count > 0, "a borrowed buffer holds bytes")
        self.base = base
        self.count = count
        owner = .keeper(keeper)
    }

    deinit {
        guard let base else { return }
        switch owner {
        case .allocation: base.deallocate()
        case .mapping: munmap(UnsafeMutableRawPointer(mutating: base), count)
        case .keeper: break  // released with this object
        }
    }

    /// Calls `body` with the bytes, which are valid only inside `body`.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
