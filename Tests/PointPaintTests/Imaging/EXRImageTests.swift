import Foundation
import Testing
@testable import PointPaint

/// OpenEXR depth against files the OpenEXR project's own Python binding wrote
/// (`Tests/Fixtures/EXR/make_fixtures.py`): every sample of the known ramp, in each compression and
/// sample type, with the channel chosen as Record3D's readers must.
@Suite struct EXRImageTests {
    static func fixture(_ name: String) -> String { RepositoryFile.path("Tests/Fixtures/EXR/\(name)") }

    /// The ramp the fixtures hold: 1 + 0.02 x + 0.01 y metres, NaN at (7, 5).
    static func ramp(_ x: Int, _ y: Int) -> Float { x == 7 && y == 5 ? .nan : Float(1.0 + 0.02 * Double(x) + 0.01 * Double(y)) }

    @Test(arguments: [("z_zip_float.exr", "Z", Float(0)), ("r_piz_half.exr", "R", 0.001), ("rg_rle_float.exr", "R", 0),
                      ("only_depthmap.exr", "depthmap", 0), ("offset_window.exr", "Z", 0)])
    func floatAndHalfSamplesReadBack(name: String, channel: String, tolerance: Float) throws {
        let image = try EXRImage(contentsOf: Self.fixture(name))
        #expect(image.width == 64 && image.height == 48 && image.channel == channel)
        var worst: Float = 0
        for y in 0 ..< 48 {
            for x in 0 ..< 64 {
                let expected = Self.ramp(x, y), found = image.values[y * 64 + x]
                if expected.isNaN { #expect(found.isNaN); continue }
                // Float samples are exact; half samples are within half a unit in the last place.
                worst = max(worst, abs(found - expected))
            }
        }
        #expect(worst <= tolerance, "\(name): worst \(worst)")
    }

    @Test func unsignedIntegerSamplesBecomeFloats() throws {
        let image = try EXRImage(contentsOf: Self.fixture("y_none_uint.exr"))
        #expect(image.channel == "Y")
        #expect(image.values[5 * 64 + 7] == 0)
        #expect(image.values[10 * 64 + 20] == (Self.ramp(20, 10) * 1000).rounded())
    }

    @Test func refusalsNameWhatWasExpected() throws {
        let two = try #require(throws: PointPaintError.self) { try EXRImage(contentsOf: Self.fixture("two_unknown.exr")) }
        #expect(two.kind == .malformed && two.file == Self.fixture("two_unknown.exr"))
        #expect(two.message.contains("A, B"), "the one wording check: it lists the channels found: \(two)")
        let tiled = try #require(throws: PointPaintError.self) { try EXRImage(contentsOf: Self.fixture("tiled.exr")) }
        #expect(tiled.kind == .unsupported)
        let big = try #require(throws: PointPaintError.self) { try EXRImage(contentsOf: Self.fixture("z_zip_float.exr"), maximumPixels: 64 * 48 - 1) }
        #expect(big.kind == .tooLarge)
    }

    @Test func damagedFilesGiveOneErrorNeverACrash() throws {
        let bytes = try FileBytes.read(Self.fixture("z_zip_float.exr"))
        let dir = TemporaryDirectory()
        for cut in [0, 4, 100, bytes.count / 2, bytes.count - 1] {
            let path = dir.file("cut\(cut).exr")
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: PointPaintError.self) { try EXRImage(contentsOf: path) }
            #expect(error.kind == .malformed, "cut at \(cut): \(error)")
        }
        var random = SplitMix64(seed: 5)
        for round in 0 ..< 200 {
            var damaged = bytes
            damaged[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            let path = dir.file("flip\(round).exr")
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            if let image = try? EXRImage(contentsOf: path, maximumPixels: 1 << 20) {
                #expect(image.values.count == image.width * image.height)
            }
        }
    }

    /// Found by fuzzing (exr, Tests/Fuzz/Regressions/exr): a header whose attribute name is 500
    /// bytes of garbage made OpenEXR's message, and so our error line, hundreds of escaped
    /// characters long. The library's text is now shown bare only when short and visible.
    @Test func aLibraryMessageHoldingTheFilesBytesStaysOneShortLine() throws {
        let input = Data(base64Encoded: [
            "di8xAQIAAABjaGFubmVscwBjaGxpc3QAEwAAAFkAADsAAHQEehwAbGluZU9yZGVyCgUAAB4FAAAyBQAARnYvMQECAgAAY2hh",
            "bm5lbHMAY2hsaXN0ABMAAABaAAIAAAAAAAAAAQAAAAEAAAAAY29tcHJlP3NjcmVlbldpbmRvd0NlbnRlcgB2MmYACAAAAAAA",
            "AAAAAAAAc2NyZWVuV2luZG93V2lkdGgAZmxvYXQABAAAAAAAgD90aWxlcwB0aWxlZGVzYwAJAAAAEAAAABAAAAAAdHlwZQBz",
            "dHJpbmcACgAA////////////////////////////////////////////////////////////////////////////////////",
            "/////////6qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
            "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqr//////////////////y8xAQIAAABjaGFubmVs",
            "cwBjaGxpc3QAABoAAABkZQAmYHHMNvwqAJ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ0FAABaCp2dnQ1+3T8AAAAdNwB26QDf",
        ].joined())!
        let dir = NSTemporaryDirectory() + "exr-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try input.write(to: URL(fileURLWithPath: dir + "/depth.exr"))
        let error = try #require(throws: PointPaintError.self) { try EXRImage(contentsOf: dir + "/depth.exr") }
        #expect(error.kind == .malformed)
        let line = error.description
        #expect(line.unicodeScalars.count <= 400 && !line.contains("\n") && !line.unicodeScalars.contains("\u{FFFD}"), "\(line.count): \(line)")
        #expect(line.contains("cannot read OpenEXR: '"), "\(line)")
    }
}
