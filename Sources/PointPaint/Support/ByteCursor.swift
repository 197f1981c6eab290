import Foundation

/// A reading position in a file's bytes: the one place where the PLY (header, ascii and binary
/// data), `.xyz` and `.cube` parsers touch raw bytes. Every index it computes is checked against
/// the bytes it reads, so a parser's mistake traps here instead of reading past the buffer.
///
/// Text is read as lines of tokens: tokens are separated by blanks (space, tab), lines end with
/// LF, CRLF or a lone CR. Binary data is read as little- or big-endian scalars.
///
/// A cursor is valid only while the bytes it was made over are: inside the `withUnsafeBytes`
/// of the array or `MappedBytes` that holds them.
package struct ByteCursor {
    /// The bytes being read.
    package let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte, from the start of `bytes`.
    package private(set) var position: Int
    /// The line `position` is on, from 1 (as far as `endLine` has counted).
    package private(set) var line: Int

    /// A cursor at `position` of `bytes`, which is on `line`.
    package init(_ bytes: UnsafeRawBufferPointer, position: Int = 0, line: Int = 1) {
        precondition(position >= 0 && position <= bytes.count, "cursor position outside its bytes")
        self.bytes = bytes
        self.position = position
        self.line = line
    }

    /// Whether every byte has been read.
    @inline(__always)
    package var isAtEnd: Bool { position >= bytes.count }

    /// Bytes left after `position`.
    @inline(__always)
    package var remaining: Int { bytes.count - position }

    /// Moves `count` bytes ahead; `count` must not pass the end.
    @inline(__always)
    package mutating func skip(_ count: Int) {
        precondition(count >= 0 && count <= remaining, "skipping past the end of the bytes")
        position += count
    }

    /// Steps over a UTF-8 byte-order mark (`EF BB BF`) when one is at `position`.
    package mutating func skipByteOrderMark() {
        if remaining >= 3, bytes[position] == 0xEF, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF { position += 3 }
    }

    /// `bytes[range]` as a buffer; `range` must lie inside `bytes`.
    package subscript(range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
        return UnsafeRawBufferPointer(rebasing: bytes[range])
    }

    // MARK: text

    /// Whether `byte` separates tokens on a line: a space or a tab.
    @inline(__always)
    package static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether `byte` ends a line: LF or CR.
    @inline(__always)
    package static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// Moves past blanks on the current line.
    @inline(__always)
    package mutating func skipBlanks() {
        while position < bytes.count, Self.isBlank(bytes[position]) { position += 1 }
    }

    /// The next token on the current line (blanks before it skipped), or nil at the line's end
    /// or the file's.
    @inline(__always)
    package mutating func nextToken() -> UnsafeRawBufferPointer? {
        skipBlanks()
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if Self.isBlank(b) || Self.isLineEnd(b) { break }
            position += 1
        }
        assert(start <= position && position <= bytes.count)
        return position > start ? UnsafeRawBufferPointer(rebasing: bytes[start ..< position]) : nil
    }

    /// The rest of the current line, without its line end; the cursor stays at the line end.
    package mutating func restOfLine() -> UnsafeRawBufferPointer {
        let start = position
        while position < bytes.count, !Self.isLineEnd(bytes[position]) { position += 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start ..< position])
    }

    /// Steps over the line end at `position` (LF, CRLF or a lone CR) and counts the line; does
    /// nothing at the end of the bytes.
    @inline(__always)
    package mutating func endLine() {
        guard position < bytes.count else { return }
        assert(Self.isLineEnd(bytes[position]), "endLine away from a line end")
        if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A { position += 1 }
        position += 1
        line += 1
    }

    /// The next line when every line ends with `terminator` (LF, with the CRs before it dropped:
    /// CRLF, or the CR CR LF of a file converted twice; or CR alone), stepping over its end; nil,
    /// with the cursor unmoved, when no `terminator` follows.
    package mutating func nextLine(terminatedBy terminator: UInt8) -> UnsafeRawBufferPointer? {
        var end = position
        while end < bytes.count, bytes[end] != terminator { end += 1 }
        guard end < bytes.count else { return nil }
        var contentEnd = end
        // Every CR, not just one: a PLY header read back from what was written of it must read
        // the same (fuzzing found a property name that lost one CR a round trip).
        while terminator == 0x0A, contentEnd > position, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        let content = UnsafeRawBufferPointer(rebasing: bytes[position ..< contentEnd])
        position = end + 1
        line += 1
        return content
    }

    /// Whether `word` occurs at or after `position` (for hints in error messages).
    package func contains(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard let first = w.first, remaining >= w.count else { return false }
        var i = position
        while i + w.count <= bytes.count {
            if bytes[i] == first, UnsafeRawBufferPointer(rebasing: bytes[i ..< i + w.count]).elementsEqual(w) { return true }
            i += 1
        }
        return false
    }

    // MARK: numbers in text

    /// A token of decimal digits with an optional sign: its sign and magnitude, and whether the
    /// magnitude overflowed 64 bits (then `magnitude` is meaningless). Nil for anything else.
    package static func decimalInteger(_ token: UnsafeRawBufferPointer) -> (negative: Bool, magnitude: UInt64, overflow: Bool)? {
        guard let first = token.first else { return nil }
        let signed = first == 0x2D || first == 0x2B
        guard token.count > (signed ? 1 : 0) else { return nil }
        var magnitude: UInt64 = 0
        var overflow = false
        for b in token.dropFirst(signed ? 1 : 0) {
            let digit = b &- 0x30
            guard digit < 10 else { return nil }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            magnitude = sum
        }
        return (first == 0x2D, magnitude, overflow)
    }

    /// A whole token read as a `Double` the way C's `strtod` reads it (decimal or hexadecimal,
    /// `inf`, `nan`), correctly rounded; nil unless all of it is the number.
    package static func double(_ token: UnsafeRawBufferPointer) -> Double? {
        number(token) { strtod($0, $1) }
    }

    /// A whole token read as a `Float` the way C's `strtof` reads it, rounded once, straight to
    /// `Float`; nil unless all of it is the number.
    package static func float(_ token: UnsafeRawBufferPointer) -> Float? {
        number(token) { strtof($0, $1) }
    }

    /// `token` copied with a terminating NUL, converted by `convert`, accepted only when the
    /// conversion used every byte (and did not skip leading white space).
    private static func number<T>(_ token: UnsafeRawBufferPointer,
                                  _ convert: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T? {
        guard let first = token.first, isspace(Int32(first)) == 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { text in
            let start = text.baseAddress!
            token.withMemoryRebound(to: CChar.self) { _ = text.initialize(from: $0) }
            text[token.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = convert(start, &end)
            return end == start + token.count ? value : nil
        }
    }

    // MARK: binary

    /// The `T` at `offset` bytes after `position`, its bytes swapped when `byteSwapped`.
    @inline(__always)
    package func load<T: FixedWidthInteger>(_: T.Type, at offset: Int = 0, byteSwapped: Bool) -> T {
        precondition(offset >= 0 && position + offset + MemoryLayout<T>.size <= bytes.count, "reading past the end of the bytes")
        let v = bytes.loadUnaligned(fromByteOffset: position + offset, as: T.self)
        return byteSwapped ? v.byteSwapped : v
    }

    /// Reads a `T` at `position` and moves past it.
    @inline(__always)
    package mutating func read<T: FixedWidthInteger>(_: T.Type, byteSwapped: Bool) -> T {
        let v = load(T.self, byteSwapped: byteSwapped)
        position += MemoryLayout<T>.size
        return v
    }

    /// The `count` records of `stride` bytes that start at `position`, which must all lie
    /// inside the bytes.
    package func records(stride: Int, count: Int) -> Records {
        precondition(count >= 0 && stride >= 0, "a negative record count or size")
        let (span, overflow) = count.multipliedReportingOverflow(by: stride)
        precondition(!overflow && span <= remaining, "records past the end of the bytes")
        return Records(base: bytes.baseAddress.map { $0 + position }, stride: stride, count: count)
    }

    /// Fixed-size records read field by field, each read checked (in debug builds) to lie inside
    /// its record; `ByteCursor.records` checked that the records lie inside the bytes. Valid
    /// as long as the cursor's bytes are. Records only read the bytes, so cores may share them
    /// (`@unchecked Sendable`: the caller keeps the bytes alive and unchanged meanwhile).
    package struct Records: @unchecked Sendable {
        fileprivate let base: UnsafeRawPointer?
        /// Bytes a record.
        package let stride: Int
        /// Number of records.
        package let count: Int

        /// Field `offset` of record `index`, its bytes swapped when `byteSwapped`.
        @inline(__always)
        package func load<T: FixedWidthInteger>(_: T.Type, record index: Int, offset: Int, byteSwapped: Bool) -> T {
            assert(index >= 0 && index < count && offset >= 0 && offset + MemoryLayout<T>.size <= stride, "field outside the records")
            let v = base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: index &* stride &+ offset, as: T.self)
            return byteSwapped ? v.byteSwapped : v
        }

        /// Field `offset` of every record, read as `Bits` and made into a `T` by `make`, as one
        /// array.
        ///
        /// - Complexity: O(`count`).
        package func gather<Bits: FixedWidthInteger, T>(_: Bits.Type, offset: Int, byteSwapped: Bool, as make: (Bits) -> T) -> [T] {
            precondition(offset >= 0 && offset + MemoryLayout<Bits>.size <= stride, "field outside its record")
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0 ..< count { buffer[i] = make(load(Bits.self, record: i, offset: offset, byteSwapped: byteSwapped)) }
                initialized = count
            }
        }
    }
}
