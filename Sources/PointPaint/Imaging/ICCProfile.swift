/// Reads just enough of an ICC colour profile to tell which primaries it describes.
///
/// A matrix/TRC profile stores its primaries as colorants (`rXYZ`, `gXYZ`, `bXYZ`) adapted to the
/// D50 profile connection space. Their xy chromaticities are compared with sRGB's, Display P3's
/// and BT.2020's, each adapted from D65 to D50 with the Bradford transform as ICC profiles are
/// built; profiles made by different tools differ from these only in rounding.
package enum ICCProfile {
    /// How far (in xy) a colorant may sit from a known primary and still be recognised as it:
    /// generous against rounding in real profiles, far below the distance between any two of the
    /// spaces (about 0.04 between sRGB's and Display P3's red).
    static let tolerance = 0.003

    /// The primaries of the ICC profile embedded in a JPEG's APP2 segments, nil when the JPEG
    /// embeds none.
    /// - Throws: when a profile is embedded but damaged, or describes other primaries.
    package static func primaries(inJPEG bytes: [UInt8], file: String?) throws -> ColorPrimaries? {
        guard let profile = try embeddedProfile(inJPEG: bytes, file: file) else { return nil }
        return try primaries(of: profile, file: file)
    }

    /// The primaries `profile` describes.
    package static func primaries(of profile: [UInt8], file: String?) throws -> ColorPrimaries {
        func fail(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError {
            PointPaintError(kind, file: file, place: .part("ICC profile"), message)
        }
        func u32(_ at: Int) -> UInt32? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return profile[at ..< at + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard profile.count >= 132, let count = u32(128), count <= 1000 else {
            throw fail(.malformed, "expected a profile header and tag table, found \(profile.count) bytes")
        }
        var colorants: [String: SIMD3<Double>] = [:]
        for i in 0 ..< Int(count) {
            let entry = 132 + 12 * i
            guard let signature = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8) else {
                throw fail(.malformed, "expected \(count) tag entries, found the profile ends at entry \(i)")
            }
            let name = String(decoding: withUnsafeBytes(of: signature.bigEndian) { Array($0) }, as: UTF8.self)
            guard ["rXYZ", "gXYZ", "bXYZ"].contains(name) else { continue }
            let at = Int(offset)
            guard size >= 20, let type = u32(at), type == 0x5859_5A20, let x = u32(at + 8), let y = u32(at + 12), let z = u32(at + 16) else {
                throw fail(.malformed, "expected an XYZ value for the \(name) tag at byte \(offset)")
            }
            func fixed(_ v: UInt32) -> Double { Double(Int32(bitPattern: v)) / 65536 }
            colorants[name] = SIMD3(fixed(x), fixed(y), fixed(z))
        }
        guard let r = colorants["rXYZ"], let g = colorants["gXYZ"], let b = colorants["bXYZ"] else {
            throw fail(.unsupported, "expected an RGB matrix profile (rXYZ, gXYZ and bXYZ tags); this profile has none, so its primaries are unknown")
        }
        func xy(_ v: SIMD3<Double>) -> SIMD2<Double> { SIMD2(v.x, v.y) / max(v.sum(), 1e-12) }
        for candidate in ColorPrimaries.allCases {
            let known = adaptedColorants(candidate)
            let found = [r, g, b]
            if zip(known, found).allSatisfy({ simd_distance(xy($0), xy($1)) <= tolerance }) { return candidate }
        }
        let shown = [r, g, b].map { c in let p = xy(c); return "(\(rounded(p.x)), \(rounded(p.y)))" }.joined(separator: ", ")
        throw fail(.unsupported, "expected sRGB, Display P3 or BT.2020 primaries, found colorants at xy \(shown) (D50)")
    }

    private static func rounded(_ v: Double) -> Double { (v * 10000).rounded() / 10000 }

    private static func simd_distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// The colorants an ICC profile of `primaries` holds: the columns of its RGB → XYZ matrix,
    /// adapted from D65 to the D50 connection space with the Bradford transform.
    static func adaptedColorants(_ primaries: ColorPrimaries) -> [SIMD3<Double>] {
        let bradford = ColorMatrix(rows: SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296))
        let white = primaries.chromaticities.white
        let d65 = SIMD3(white.x / white.y, 1, (1 - white.x - white.y) / white.y)
        let d50 = SIMD3(0.9642, 1.0, 0.8249)  // the ICC profile connection space's white
        let gain = (bradford * d50) / (bradford * d65)
        // Bradford is invertible (its determinant is about 1.9).
        let adapt = bradford.inverse! * ColorMatrix(diagonal: gain) * bradford
        let m = adapt * primaries.rgbToXYZ
        return [m * SIMD3(1, 0, 0), m * SIMD3(0, 1, 0), m * SIMD3(0, 0, 1)]
    }

    /// The profile carried in a JPEG's `APP2 ICC_PROFILE` segments (in sequence order), nil when
    /// there is none. Reads marker segments up to the start of scan.
    static func embeddedProfile(inJPEG bytes: [UInt8], file: String?) throws -> [UInt8]? {
        let signature = Array("ICC_PROFILE\0".utf8)
        var chunks: [Int: ArraySlice<UInt8>] = [:]
        var expected = 0
        var at = 2  // after SOI
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { break }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { break }  // start of scan, end of image
            if (0xD0 ... 0xD7).contains(marker) || marker == 0x01 { at += 2; continue }  // no length
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let body = at + 4, end = at + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            if marker == 0xE2, end - body >= signature.count + 2, Array(bytes[body ..< body + signature.count]) == signature {
                let sequence = Int(bytes[body + signature.count]), count = Int(bytes[body + signature.count + 1])
                guard sequence >= 1, sequence <= count, expected == 0 || expected == count, chunks[sequence] == nil else {
                    throw PointPaintError(.malformed, file: file, place: .byteOffset(at),
                                          "expected ICC profile chunk numbers 1 to \(max(count, expected)) once each, found chunk \(sequence) of \(count)")
                }
                expected = count
                chunks[sequence] = bytes[body + signature.count + 2 ..< end]
            }
            at = end
        }
        guard expected > 0 else { return nil }
        guard chunks.count == expected else {
            throw PointPaintError(.malformed, file: file, place: .part("ICC profile"),
                                  "expected \(expected) ICC profile chunks, found \(chunks.count)")
        }
        return (1 ... expected).flatMap { chunks[$0]! }
    }
}
