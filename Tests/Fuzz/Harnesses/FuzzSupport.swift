import Foundation
@testable import PointPaint

/// What every harness checks about every input, and the scratch files the file-based ones
/// write. A harness fails (crashes, which libFuzzer reports with the input) when the code under
/// test crashes, when it throws anything but a `PointPaintError`, when that error is not one
/// clear line, or when an invariant the harness states does not hold.
enum Fuzz {
    /// The longest error line accepted, in characters: quoted file text is cut at 40 characters
    /// and a file name at 300, so a line past this has echoed something unbounded.
    static let longestErrorLine = 1000

    /// Calls `body` with the input's bytes; a `PointPaintError` that reads as one clear line
    /// passes, anything else stops the run.
    static func run(_ data: UnsafePointer<UInt8>?, _ count: Int, _ body: ([UInt8]) throws -> Void) -> CInt {
        let bytes = count == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: count))
        do {
            try body(bytes)
        } catch {
            check(error)
        }
        return 0
    }

    /// Stops the run unless `error` is a `PointPaintError` whose line is short and shows no
    /// control, format or invisible characters.
    static func check(_ error: any Error) {
        guard let error = error as? PointPaintError else {
            fatalError("not a PointPaintError: \(type(of: error)): \(error)")
        }
        let line = error.description
        require(line.unicodeScalars.count <= longestErrorLine, "an error line of \(line.unicodeScalars.count) characters: \(line.prefix(200))")
        for scalar in line.unicodeScalars where !isVisible(scalar) {
            fatalError("an error line with U+\(String(scalar.value, radix: 16, uppercase: true)): \(line.debugDescription.prefix(400))")
        }
    }

    /// Whether `scalar` prints as itself on a terminal: no control, format, separator (other
    /// than the space), private-use or unassigned character, and no U+FFFD.
    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: false
        case .spaceSeparator: scalar == " "
        default: scalar != "\u{FFFD}"
        }
    }

    /// A depth map file as a recording's source reads it: `size` reads the header's size, then
    /// `read` the map, which must have that size.
    static func depthMap(_ bytes: [UInt8], named name: String,
                         size: (String, Int) throws -> (width: Int, height: Int),
                         read: (String, SourceFiles.Confidence?, (width: Int, height: Int), Int) throws -> DepthMap) throws {
        let path = write(bytes, to: name)
        let expected = try size(path, 0)
        let map = try read(path, nil, expected, 0)
        require(map.width == expected.width && map.height == expected.height, "a depth map of another size than its header's")
    }

    /// A LAS, LAZ or COPC file as `info` and `view` read it: the summary and its text (which
    /// `checking` looks at), then every point, which must be as many as the header states.
    static func lasCloud(_ bytes: [UInt8], named name: String, checking: (LASSummary) -> Void = { _ in })
        throws -> (path: String, summary: LASSummary, cloud: VoxelCloud) {
        let path = write(bytes, to: name)
        let summary = try LASSummary(path: path)
        _ = summary.description
        checking(summary)
        let cloud = try LASReader.readCloud(path: path)
        require(cloud.positions.count == summary.header.pointCount,
                "\(cloud.positions.count) points read of the header's \(summary.header.pointCount)")
        return (path, summary, cloud)
    }

    /// Stops the run when `condition` does not hold.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }

    /// This process's scratch directory (in `/dev/shm` where it exists, so writing a file per
    /// input costs no disk), removed when the process exits normally.
    static let scratch: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/pointpaint-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Fuzz.scratch) }
        return path
    }()

    /// Writes `bytes` to `name` in the scratch directory (replacing it) and returns its path.
    static func write(_ bytes: [UInt8], to name: String) -> String {
        let path = scratch + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot create \(path)")
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count, let base = raw.baseAddress {
                let n = Foundation.write(fd, base + done, raw.count - done)
                precondition(n > 0, "cannot write \(path)")
                done += n
            }
        }
        close(fd)
        return path
    }

    /// `bytes` with the CRC of every complete PNG chunk after the signature recomputed, so
    /// mutations reach the decoder instead of stopping at a checksum (as libpng's own fuzzer
    /// does by ignoring CRCs; here the decoder under test stays exactly as the CLI runs it).
    static func fixingPNGChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var at = 8
        while at + 12 <= out.count {
            let length = Int(out[at]) << 24 | Int(out[at + 1]) << 16 | Int(out[at + 2]) << 8 | Int(out[at + 3])
            let end = at + 8 + length
            guard length < 1 << 31, end + 4 <= out.count else { break }
            let crc = crc32(out[(at + 4) ..< end])
            out[end] = UInt8(crc >> 24)
            out[end + 1] = UInt8((crc >> 16) & 0xFF)
            out[end + 2] = UInt8((crc >> 8) & 0xFF)
            out[end + 3] = UInt8(crc & 0xFF)
            at = end + 4
        }
        return out
    }

    /// The CRC-32 of PNG chunks (ISO 3309, the zlib polynomial).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = crcTable[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0 ..< 256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0 ..< 8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// A small RGB image of every corner and the middle of the colour cube, to apply cubes to.
    static let probeImage: PNGImage = {
        var samples: [UInt8] = []
        for v in [0, 1, 2, 3, 4, 5, 6, 7] as [Int] {
            samples += [UInt8((v & 1) * 255), UInt8((v >> 1 & 1) * 255), UInt8((v >> 2 & 1) * 255)]
        }
        samples += [128, 64, 200]
        return PNGImage(width: 3, height: 3, channels: 3, samples: samples)
    }()

    /// Applies `cube` to the probe image with both interpolations, as `lut apply` would.
    static func applyEverywhere(_ cube: ColorCube) {
        for interpolation in ColorCube.Interpolation.allCases {
            let graded = cube.applied(to: probeImage, interpolation: interpolation)
            require(graded.width == probeImage.width && graded.height == probeImage.height, "a graded image changed size")
        }
    }
}
