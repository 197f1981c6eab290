import Foundation

/// Why libzip refused an archive, in words: its header walk (`diagnose(path:)`) names the entry
/// and the field that is damaged, where libzip gives only a code.
extension ZipArchive {
    /// The most central directory `diagnose(path:)` reads: 128 MiB, two million entries and more.
    static let largestDiagnosedDirectory = 128 << 20

    /// What is wrong with the archive at `path`, which libzip refused to open, found by walking its
    /// records as libzip's consistency check does: the end of central directory record (and its
    /// ZIP64 form), every central directory entry, and each entry's local header against it
    /// (signature, name, compression method, ZIP64 marker, sizes, CRC-32, version, time, and
    /// where its data ends). Nil when it finds nothing wrong that it knows of (the caller falls
    /// back on libzip's error code), or when the file cannot be read.
    ///
    /// Only headers are read, each under 128 KiB, and a central directory of at most
    /// `largestDiagnosedDirectory`: nothing is read or allocated for the sizes an entry claims.
    static func diagnose(path: String) -> PointPaintError? {
        guard let file = try? FileBytes.openRegular(path, expected: "a ZIP archive") else { return nil }
        defer { close(file.fd) }
        let reader = HeaderReader(fd: file.fd, size: file.size)
        func damaged(_ place: PointPaintError.Place?, _ what: String) -> PointPaintError {
            PointPaintError(.malformed, file: path, place: place, "damaged archive: " + what)
        }

        // The end of central directory record: the last signature in the final 64 KiB + 22 bytes.
        let tailStart = max(0, file.size - (22 + 0xFFFF))
        guard let tail = reader.bytes(at: tailStart, count: file.size - tailStart),
              let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.matches(HeaderReader.endSignature, at: $0) })
        else { return nil }
        let endOffset = tailStart + end
        var count = tail.le16(end + 10), directorySize = tail.le32(end + 12), directoryOffset = tail.le32(end + 16)
        var directoryEnd = endOffset  // where the central directory must end: the end record, or its ZIP64 form
        var isZip64 = false
        let commentLength = tail.le16(end + 20), trailing = tail.count - end - 22
        if trailing != commentLength {
            return damaged(nil, "the end of central directory record announces a \(commentLength)-byte comment, but \(trailing) bytes follow it")
        }
        let hasLocator = end >= 20 && tail.matches(HeaderReader.locatorSignature, at: end - 20)
        if !hasLocator, tail.le16(end + 8) != count {
            return damaged(nil, "the end of central directory record counts \(tail.le16(end + 8)) entries on this disk but \(count) in all, "
                + "which must be equal in a single-file archive")
        }
        if hasLocator {
            let recordOffset = Int(clamping: tail.le64(end - 20 + 8))
            guard let record = reader.bytes(at: recordOffset, count: 56), record.matches(HeaderReader.zip64EndSignature, at: 0) else {
                let found = recordOffset > file.size - 56 ? "the end of the file" : "other bytes"
                return damaged(nil, "expected the ZIP64 end of central directory record at byte offset \(recordOffset), found \(found)")
            }
            count = Int(clamping: record.le64(32))
            directorySize = Int(clamping: record.le64(40))
            directoryOffset = Int(clamping: record.le64(48))
            directoryEnd = recordOffset
            isZip64 = true
        }
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
            return damaged(nil, "the end of central directory record places a \(directorySize)-byte central directory at byte offset \(directoryOffset), "
                + "which runs past byte offset \(directoryEnd), where the directory must end")
        }
        guard directorySize <= largestDiagnosedDirectory, let directory = reader.bytes(at: directoryOffset, count: directorySize) else { return nil }

        var at = 0, index = 0
        var names: Set<[UInt8]> = []
        while at < directory.count {
            let runsPast = "the central directory entry at byte offset \(directoryOffset + at) runs past the end of the directory, "
                + "which the end record makes \(directorySize) bytes"
            guard at + 4 <= directory.count, directory.matches(HeaderReader.centralSignature, at: at) else {
                let other = "expected a central directory entry at byte offset \(directoryOffset + at), found other bytes"
                return damaged(.element("entry", index), at + 4 <= directory.count ? other : runsPast)
            }
            guard at + 46 <= directory.count else { return damaged(.element("entry", index), runsPast) }
            let nameLength = directory.le16(at + 28), extraLength = directory.le16(at + 30), commentLength = directory.le16(at + 32)
            guard at + 46 + nameLength + extraLength + commentLength <= directory.count else { return damaged(.element("entry", index), runsPast) }
            let nameBytes = Array(directory[at + 46 ..< at + 46 + nameLength])
            let central = HeaderReader.Header(directory, at: at, central: true,
                                              extra: Array(directory[at + 46 + nameLength ..< at + 46 + nameLength + extraLength]))
            // The name as libzip would give it (UTF-8), cut where a fuzzer made it long.
            let place = PointPaintError.Place.part(PointPaintError.name(String(decoding: nameBytes, as: UTF8.self), limit: 200))
            guard names.insert(nameBytes).inserted else { return damaged(place, "expected each entry name once, found it twice") }
            if let marker = central.missingZip64 {
                return damaged(place, "the central directory claims \(marker) (0xFFFFFFFF: the ZIP64 marker, without the ZIP64 field that gives the real value)")
            }
            if let problem = checkLocal(central, name: nameBytes, reader: reader, directoryOffset: directoryOffset) {
                return damaged(place, problem)
            }
            at += 46 + nameLength + extraLength + commentLength
            index += 1
        }
        // Info-ZIP counts more than 65535 entries modulo 65536 where it writes no ZIP64 record.
        if index != count, isZip64 || index % 0x10000 != count {
            return damaged(nil, "the end of central directory record counts \(count) entries, but the central directory holds \(index)")
        }
        return nil
    }

    /// What is wrong with the local header of the entry `central` describes (its name `name`),
    /// or nil when it agrees, as libzip's consistency check compares them.
    private static func checkLocal(_ central: HeaderReader.Header, name: [UInt8], reader: HeaderReader, directoryOffset: Int) -> String? {
        let offset = central.offset
        guard offset <= directoryOffset else {
            return "the central directory places the entry's local header at byte offset \(offset), past the start of the central directory at \(directoryOffset)"
        }
        guard let fixed = reader.bytes(at: offset, count: 30), fixed.matches(HeaderReader.localSignature, at: 0) else {
            return "expected the entry's local header at byte offset \(offset), found other bytes"
        }
        let nameLength = fixed.le16(26), extraLength = fixed.le16(28)
        guard let variable = reader.bytes(at: offset + 30, count: nameLength + extraLength) else {
            return "the entry's local header at byte offset \(offset) runs past the end of the file"
        }
        let local = HeaderReader.Header(fixed, at: 0, central: false, extra: Array(variable[nameLength...]))
        guard variable.prefix(nameLength).elementsEqual(name) else {
            return "the entry's local header names another entry, \(PointPaintError.quote(bytes: variable.prefix(nameLength)))"
        }
        if let marker = local.missingZip64 {
            return "the entry's local header claims \(marker) (0xFFFFFFFF: the ZIP64 marker, without the ZIP64 field that gives the real size); "
                + "the central directory says \(central.size) bytes, \(central.compressedSize) stored"
        }
        guard local.method == central.method else {
            return "the entry's local header gives compression method \(methodName(local.method)), the central directory \(methodName(central.method))"
        }
        // With a data descriptor (flag bit 3), the local header may leave CRC and sizes zero.
        let deferred = local.flags & 0x08 != 0 && local.crc == 0 && local.compressedSize == 0 && local.size == 0
        if !deferred {
            guard local.size == central.size, local.compressedSize == central.compressedSize else {
                return "the entry's local header claims \(local.size) bytes, \(local.compressedSize) stored; "
                    + "the central directory \(central.size), \(central.compressedSize) stored"
            }
            guard local.crc == central.crc else {
                return "the entry's local header gives CRC-32 \(hex(local.crc)), the central directory \(hex(central.crc))"
            }
        }
        guard local.version <= central.version else {
            return "the entry's local header needs ZIP version \(local.version / 10).\(local.version % 10), "
                + "more than the central directory's \(central.version / 10).\(central.version % 10)"
        }
        guard local.time == central.time else {
            return "the entry's local header gives another modification time than the central directory"
        }
        let dataStart = offset + 30 + nameLength + extraLength
        guard dataStart <= directoryOffset, central.compressedSize <= directoryOffset - dataStart else {
            return "the entry claims \(central.compressedSize) stored bytes from byte offset \(dataStart), "
                + "which run past the start of the central directory at \(directoryOffset)"
        }
        return nil
    }

    private static func hex(_ value: Int) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}

/// Bounded reads of a ZIP file's headers, and the fields of its records, for `diagnose(path:)`.
private struct HeaderReader {
    static let localSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]
    static let centralSignature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
    static let endSignature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
    static let locatorSignature: [UInt8] = [0x50, 0x4B, 0x06, 0x07]
    static let zip64EndSignature: [UInt8] = [0x50, 0x4B, 0x06, 0x06]

    /// A central directory entry's or local header's fields, ZIP64 values in place of the markers.
    struct Header {
        var version: Int
        var flags: Int
        var method: Int
        /// The DOS time and date, as one number.
        var time: Int
        var crc: Int
        var compressedSize: Int
        var size: Int
        /// Where the local header is (central entries; 0 for local headers).
        var offset: Int
        /// What the header claims with the marker 0xFFFFFFFF, whose ZIP64 field is absent, if
        /// anything: `4294967295 bytes`.
        var missingZip64: String?

        /// The header at `at` of `bytes` (a central directory entry when `central`, else a local
        /// header), with its extra fields `extra`.
        init(_ bytes: [UInt8], at: Int, central: Bool, extra: [UInt8]) {
            let base = central ? at + 2 : at  // a central entry has "version made by" first
            version = bytes.le16(base + 4)
            flags = bytes.le16(base + 6)
            method = bytes.le16(base + 8)
            time = bytes.le32(base + 10)
            crc = bytes.le32(base + 14)
            compressedSize = bytes.le32(base + 18)
            size = bytes.le32(base + 22)
            offset = central ? bytes.le32(at + 42) : 0
            let marker = 0xFFFF_FFFF
            guard size == marker || compressedSize == marker || offset == marker else { return }
            // The ZIP64 field (ID 1) holds the size, the stored size and the offset, each only when
            // its 32-bit field holds the marker (a local header holds both sizes, always).
            var field: [UInt8]?
            var cursor = 0
            while cursor + 4 <= extra.count {
                let id = extra.le16(cursor), length = extra.le16(cursor + 2)
                guard cursor + 4 + length <= extra.count else { break }
                if id == 1 { field = Array(extra[cursor + 4 ..< cursor + 4 + length]) }
                cursor += 4 + length
            }
            var position = 0
            func next(_ claimed: Int, _ what: String, always: Bool = false) -> Int {
                guard claimed == marker || always else { return claimed }
                guard let field, position + 8 <= field.count else {
                    if claimed == marker, missingZip64 == nil { missingZip64 = what }
                    return claimed
                }
                defer { position += 8 }
                return claimed == marker ? Int(clamping: field.le64(position)) : claimed
            }
            size = next(size, "\(marker) bytes", always: !central)
            compressedSize = next(compressedSize, "\(marker) stored bytes", always: !central)
            if central { offset = next(offset, "its local header at byte offset \(marker)") }
        }
    }

    let fd: Int32
    let size: Int

    /// The `count` bytes at `offset`, or nil when they are not all inside the file or cannot be read.
    func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}

extension [UInt8] {
    /// Whether `pattern` stands at `at`.
    fileprivate func matches(_ pattern: [UInt8], at: Int) -> Bool {
        at >= 0 && at + pattern.count <= count && self[at ..< at + pattern.count].elementsEqual(pattern)
    }

    /// The little-endian 16-bit number at `at`.
    fileprivate func le16(_ at: Int) -> Int { Int(self[at]) | Int(self[at + 1]) << 8 }

    /// The little-endian 32-bit number at `at`.
    fileprivate func le32(_ at: Int) -> Int { le16(at) | le16(at + 2) << 16 }

    /// The little-endian 64-bit number at `at`.
    fileprivate func le64(_ at: Int) -> UInt64 { UInt64(le32(at)) | UInt64(le32(at + 4)) << 32 }
}
