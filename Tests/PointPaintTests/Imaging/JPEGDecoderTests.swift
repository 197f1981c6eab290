import Foundation
import Testing
@testable import PointPaint

/// The JPEG decoder against an independent one: ffmpeg's own JPEG decoder (with the JPEG
/// reference integer IDCT) gives the same planes to within one code — the JPEG standard lets
/// IDCTs differ by that — for a real iPhone frame, and for JPEGs libjpeg's `cjpeg` writes in every
/// subsampling, odd sizes, progressive and with restart markers.
@Suite struct JPEGDecoderTests {
    /// The real iPhone ARKit frame committed as a capture (see its README for source and licence).
    static let iPhoneFrame = RepositoryFile.path("Captures/iphone-lidar/frames/000000.jpg")

    /// Two IDCTs that both meet the JPEG accuracy rules differ by at most one code, and rarely.
    static let idctTolerance = 1
    /// At least this share of codes equal between the two decoders (measured: 98.6 % on the
    /// iPhone frame, 99.2 % on small patterns).
    static let idctAgreement = 0.97

    @Test func realIPhoneFrameDecodesToFFmpegsPlanes() throws {
        let bytes = try FileBytes.read(Self.iPhoneFrame)
        let (planes, info) = try JPEGDecoder.decode(bytes, file: Self.iPhoneFrame)
        #expect(info == JPEGInfo(width: 1920, height: 1440, subsampling: .yuv420, primaries: .srgb, hasColourProfile: false))
        let reference = try ExternalTool.ffmpegJPEGPlanes(Self.iPhoneFrame, pixelFormat: "yuvj420p")
        expectClose(planes.luma + planes.cb + planes.cr, reference)
    }

    /// `cjpeg` options and ffmpeg's pixel format for each kind of JPEG.
    static let kinds: [(subsampling: ChromaSubsampling?, cjpeg: [String], ffmpeg: String)] = [
        (.yuv420, ["-sample", "2x2"], "yuvj420p"),
        (.yuv422, ["-sample", "2x1"], "yuvj422p"),
        (.yuv440, ["-sample", "1x2"], "yuvj440p"),
        (.yuv444, ["-sample", "1x1"], "yuvj444p"),
        (nil, ["-grayscale"], "gray"),
        (.yuv420, ["-sample", "2x2", "-progressive"], "yuvj420p"),
        (.yuv422, ["-sample", "2x1", "-restart", "1"], "yuvj422p"),
    ]

    @Test(arguments: kinds.indices, [(96, 64), (95, 63)])
    func everyKindMatchesFFmpeg(kind: Int, size: (Int, Int)) throws {
        let (subsampling, options, format) = Self.kinds[kind]
        let dir = TemporaryDirectory()
        let path = try Self.cjpegPattern(width: size.0, height: size.1, options: options, in: dir)
        let (planes, info) = try JPEGDecoder.decode(try FileBytes.read(path), file: path)
        #expect(info.width == size.0 && info.height == size.1)
        #expect(info.subsampling == subsampling)
        let reference = try ExternalTool.ffmpegJPEGPlanes(path, pixelFormat: format)
        if let subsampling {
            let chroma = subsampling.chromaSize(width: size.0, height: size.1)
            #expect(planes.cb.count == chroma.width * chroma.height && planes.cr.count == planes.cb.count)
            expectClose(planes.luma + planes.cb + planes.cr, reference)
        } else {
            expectClose(planes.luma, reference)
            #expect(planes.cb.allSatisfy { $0 == 128 } && planes.cr.allSatisfy { $0 == 128 }, "greyscale gives neutral chroma")
        }
    }

    /// `decodeImage` (luma decoded in place when the decoder's planes have the image's size, the
    /// planes path otherwise: odd sizes, greyscale) gives exactly the image of `decode`'s planes.
    @Test(arguments: kinds.indices, [(96, 64), (95, 63)])
    func decodingToAnImageGivesTheImageOfThePlanes(kind: Int, size: (Int, Int)) throws {
        let (_, options, _) = Self.kinds[kind]
        let dir = TemporaryDirectory()
        let path = try Self.cjpegPattern(width: size.0, height: size.1, options: options, in: dir)
        try expectSameImage(try FileBytes.read(path), file: path)
    }

    @Test func theRealFrameDecodesToTheImageOfItsPlanes() throws {
        try expectSameImage(try FileBytes.read(Self.iPhoneFrame), file: Self.iPhoneFrame)
    }

    func expectSameImage(_ bytes: [UInt8], file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (image, info) = try JPEGDecoder.decodeImage(bytes, file: file)
        let (planes, planesInfo) = try JPEGDecoder.decode(bytes, file: file)
        #expect(info == planesInfo, sourceLocation: sourceLocation)
        let reference = YCbCrImage(planes)
        #expect(image.width == reference.width && image.height == reference.height && image.subsampling == reference.subsampling,
                sourceLocation: sourceLocation)
        let (luma, chroma) = image.packedPlanes(), (referenceLuma, referenceChroma) = reference.packedPlanes()
        #expect(luma == referenceLuma && chroma == referenceChroma, "planes differ", sourceLocation: sourceLocation)
    }

    /// Codes within `idctTolerance` everywhere and equal almost everywhere; counted rather than
    /// compared with `==`, which would print megabyte arrays when it fails.
    func expectClose(_ ours: [UInt8], _ reference: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ours.count == reference.count, sourceLocation: sourceLocation)
        guard ours.count == reference.count, !ours.isEmpty else { return }
        var worst = 0, equal = 0
        for (a, b) in zip(ours, reference) {
            let d = abs(Int(a) - Int(b))
            worst = max(worst, d)
            if d == 0 { equal += 1 }
        }
        #expect(worst <= Self.idctTolerance, sourceLocation: sourceLocation)
        #expect(Double(equal) / Double(ours.count) >= Self.idctAgreement, sourceLocation: sourceLocation)
    }

    /// `patternPPM` compressed by libjpeg-turbo's `cjpeg` at quality 90 with `options`, as
    /// `p.jpg` in `dir`; returns its path.
    static func cjpegPattern(width: Int, height: Int, options: [String], in dir: TemporaryDirectory) throws -> String {
        try Data(patternPPM(width: width, height: height)).write(to: URL(fileURLWithPath: dir.file("p.ppm")))
        let path = dir.file("p.jpg")
        try ExternalTool.run("cjpeg", ["-quality", "90"] + options + ["-outfile", path, dir.file("p.ppm")])
        return path
    }

    /// A binary PPM of smooth colour ramps with a few hard edges, so every DCT frequency is used.
    static func patternPPM(width: Int, height: Int) -> [UInt8] {
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let edge = (x / 13 + y / 11) % 2 == 0 ? 40 : 0
                out += [UInt8((x * 255 / max(width - 1, 1) + edge) % 256), UInt8(y * 255 / max(height - 1, 1)),
                        UInt8((x * y + 3 * edge) % 256)]
            }
        }
        return out
    }

    // MARK: Colour profiles

    /// Colorants (D50, as stored in the profiles) of Apple's Display P3 profile, of the sRGB
    /// IEC61966-2.1 profile and of Adobe RGB (1998): published values, not derived by PointPaint.
    static let displayP3Colorants: [SIMD3<Double>] = [SIMD3(0.515121, 0.241196, -0.001053), SIMD3(0.291977, 0.692245, 0.041885), SIMD3(0.157104, 0.066574, 0.784073)]
    static let sRGBColorants: [SIMD3<Double>] = [SIMD3(0.436066, 0.222488, 0.013916), SIMD3(0.385147, 0.716873, 0.097076), SIMD3(0.143066, 0.060608, 0.714096)]
    static let adobeRGBColorants: [SIMD3<Double>] = [SIMD3(0.609741, 0.311111, 0.019470), SIMD3(0.205276, 0.625671, 0.060867), SIMD3(0.149185, 0.063217, 0.744568)]

    @Test func embeddedProfilesNameThePrimaries() throws {
        let plain = try patternJPEG()
        #expect(try JPEGDecoder.info(of: plain, file: "x.jpg").primaries == .srgb)
        let p3 = ICCFixture.insert(profile: ICCFixture.profile(colorants: Self.displayP3Colorants), into: plain)
        let p3Info = try JPEGDecoder.info(of: p3, file: "p3.jpg")
        #expect(p3Info.primaries == .displayP3 && p3Info.hasColourProfile)
        let srgb = ICCFixture.insert(profile: ICCFixture.profile(colorants: Self.sRGBColorants), into: plain)
        #expect(try JPEGDecoder.info(of: srgb, file: "s.jpg").primaries == .srgb)
        // A profile split over three APP2 chunks, as encoders do past 64 KB, reads the same.
        let split = ICCFixture.insert(profile: ICCFixture.profile(colorants: Self.displayP3Colorants), into: plain, chunks: 3)
        #expect(try JPEGDecoder.info(of: split, file: "p3.jpg").primaries == .displayP3)
        // The planes do not depend on the profile.
        #expect(try JPEGDecoder.decode(p3, file: "p3.jpg").planes == JPEGDecoder.decode(plain, file: "x.jpg").planes)
    }

    @Test func otherPrimariesAreRefusedNamingThem() throws {
        let adobe = ICCFixture.insert(profile: ICCFixture.profile(colorants: Self.adobeRGBColorants), into: try patternJPEG())
        let error = try #require(throws: PointPaintError.self) { try JPEGDecoder.info(of: adobe, file: "adobe.jpg") }
        #expect(error.kind == .unsupported && error.place == .part("ICC profile") && error.file == "adobe.jpg")
        #expect(error.description.contains("expected sRGB, Display P3 or BT.2020 primaries"), "the one wording check: \(error)")
    }

    @Test func damagedProfilesAreMalformed() throws {
        var truncated = ICCFixture.profile(colorants: Self.displayP3Colorants)
        truncated.removeLast(30)
        let error = try #require(throws: PointPaintError.self) {
            try JPEGDecoder.info(of: ICCFixture.insert(profile: truncated, into: try patternJPEG()), file: "t.jpg")
        }
        #expect(error.kind == .malformed && error.place == .part("ICC profile"))
    }

    // MARK: Bad input

    @Test func truncatedOrCorruptDataIsAnErrorNotAGreyTail() throws {
        let bytes = try FileBytes.read(Self.iPhoneFrame)
        for cut in [2, 100, 1000, bytes.count / 2, bytes.count - 2] {
            let error = try #require(throws: PointPaintError.self) { try JPEGDecoder.decode(Array(bytes.prefix(cut)), file: "cut.jpg") }
            #expect(error.kind == .malformed && error.file == "cut.jpg", "cut at \(cut)")
        }
        let notJPEG = Array("this is not a JPEG at all".utf8)
        #expect(throws: PointPaintError.self) { try JPEGDecoder.decode(notJPEG, file: "text.jpg") }
        #expect(throws: PointPaintError.self) { try JPEGDecoder.decode([], file: "empty.jpg") }
        for cut in [1000, bytes.count / 2, bytes.count - 2] {
            let error = try #require(throws: PointPaintError.self) { try JPEGDecoder.decodeImage(Array(bytes.prefix(cut)), file: "cut.jpg") }
            #expect(error.kind == .malformed && error.file == "cut.jpg", "image, cut at \(cut)")
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let bytes = try patternJPEG()
        var random = SplitMix64(seed: 12)
        for _ in 0 ..< 300 {
            var damaged = bytes
            for _ in 0 ..< 1 + Int(random.next() % 4) {
                damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            // Either the planes of some image, or one error: what matters is no crash or hang.
            if let decoded = try? JPEGDecoder.decode(damaged, file: "d.jpg", maximumPixels: 1 << 20) {
                #expect(decoded.planes.luma.count == decoded.info.width * decoded.info.height)
            }
        }
    }

    @Test func anImageLargerThanAllowedIsRefusedBeforeDecoding() throws {
        let error = try #require(throws: PointPaintError.self) {
            try JPEGDecoder.decode(try FileBytes.read(Self.iPhoneFrame), file: "big.jpg", maximumPixels: 1920 * 1440 - 1)
        }
        #expect(error.kind == .tooLarge && error.place == .part("header"))
        let imageError = try #require(throws: PointPaintError.self) {
            try JPEGDecoder.decodeImage(try FileBytes.read(Self.iPhoneFrame), file: "big.jpg", maximumPixels: 1920 * 1440 - 1)
        }
        #expect(imageError.kind == .tooLarge && imageError.place == .part("header"))
    }

    /// A small 4:2:0 JPEG of the test pattern.
    func patternJPEG() throws -> [UInt8] {
        let dir = TemporaryDirectory()
        try Data(Self.patternPPM(width: 64, height: 48)).write(to: URL(fileURLWithPath: dir.file("p.ppm")))
        try ExternalTool.run("cjpeg", ["-outfile", dir.file("p.jpg"), dir.file("p.ppm")])
        return try FileBytes.read(dir.file("p.jpg"))
    }
}

/// Minimal ICC profiles holding only the colorant tags, and JPEGs carrying them in APP2.
enum ICCFixture {
    static func profile(colorants: [SIMD3<Double>]) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func fixed(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
        let names = ["rXYZ", "gXYZ", "bXYZ"]
        let tableEnd = 128 + 4 + 12 * names.count
        var header = [UInt8](repeating: 0, count: 128)
        header[36 ..< 40] = ArraySlice(Array("acsp".utf8))
        var table = be32(UInt32(names.count))
        var data: [UInt8] = []
        for (i, name) in names.enumerated() {
            table += Array(name.utf8) + be32(UInt32(tableEnd + data.count)) + be32(20)
            data += Array("XYZ ".utf8) + [0, 0, 0, 0] + fixed(colorants[i].x) + fixed(colorants[i].y) + fixed(colorants[i].z)
        }
        var out = header + table + data
        let size = be32(UInt32(out.count))
        out.replaceSubrange(0 ..< 4, with: size)
        return out
    }

    /// `jpeg` with `profile` in `chunks` APP2 segments right after SOI.
    static func insert(profile: [UInt8], into jpeg: [UInt8], chunks: Int = 1) -> [UInt8] {
        var segments: [UInt8] = []
        let size = (profile.count + chunks - 1) / chunks
        for i in 0 ..< chunks {
            let part = profile[min(i * size, profile.count) ..< min((i + 1) * size, profile.count)]
            let body = Array("ICC_PROFILE\0".utf8) + [UInt8(i + 1), UInt8(chunks)] + part
            let length = body.count + 2
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        }
        return Array(jpeg[0 ..< 2]) + segments + jpeg[2...]
    }
}
