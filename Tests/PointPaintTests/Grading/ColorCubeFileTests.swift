import Foundation
import PointPaint
import Testing

/// Cubes read from and written to PNG images and `.cube` files.
@Suite struct ColorCubeFileTests {
    struct Shape: Sendable { var size, width, height: Int }

    @Test(arguments: [Shape(size: 64, width: 512, height: 512), Shape(size: 16, width: 64, height: 64),
                      Shape(size: 4, width: 8, height: 8), Shape(size: 17, width: 289, height: 17),
                      Shape(size: 33, width: 1089, height: 33), Shape(size: 2, width: 4, height: 2)])
    func identityImageHasTheExpectedShape(shape: Shape) throws {
        let (size, width, height) = (shape.size, shape.width, shape.height)
        let image = ColorCube.identity(size: size).pngImage()
        #expect(image.width == width && image.height == height && image.channels == 3 && image.bitDepth == 8)
        // Raster order: pixel 1 is one red step, pixel `size` one green step.
        let step = UInt8((255.0 / Double(size - 1)).rounded())
        #expect(Array(image.samples8[0 ..< 6]) == [0, 0, 0, step, 0, 0])
        #expect(Array(image.samples8[3 * size ..< 3 * size + 3]) == [0, step, 0])
        #expect(Array(image.samples8.suffix(3)) == [255, 255, 255])
    }

    @Test(arguments: [2, 3, 16, 17, 33, 64])
    func pngRoundTripsInEveryLayoutAndDepth(size: Int) throws {
        let dir = TemporaryDirectory()
        let cube = gradingRandomCube(size: size, seed: UInt64(size))
        for layout in ColorCube.PNGLayout.allCases {
            for depth in [8, 16] {
                let path = dir.file("cube-\(layout)-\(depth).png")
                try cube.writePNG(to: path, bitDepth: depth, layout: layout)
                let back = try ColorCube(contentsOf: path)
                #expect(back.size == size)
                // Quantised to the nearest code: within half a code.
                #expect(back.maximumDifference(from: cube) <= 0.5 / (depth == 8 ? 255 : 65535) + 1e-7)
            }
        }
    }

    @Test func anyImageWithACubeOfPixelsReadsInRasterOrder() throws {
        // A 4³ cube as a 2×32 image, 8-bit grey + alpha: a layout no writer uses.
        var samples = [UInt8]()
        for i in 0 ..< 64 { samples += [UInt8(i * 4), 255] }
        let image = PNGImage(width: 2, height: 32, channels: 2, samples: samples)
        let cube = try ColorCube(png: image)
        #expect(cube.size == 4)
        #expect(cube.entries[9] == SIMD3(repeating: Float(36) / 255))
        // RGBA: alpha is ignored.
        let rgba = PNGImage(width: 8, height: 1, channels: 4, samples: (0 ..< 32).map { UInt8($0 * 8) })
        let small = try ColorCube(png: rgba)
        #expect(small.size == 2 && small.entries[1] == SIMD3(32, 40, 48) / 255)
    }

    @Test(arguments: [(100, 100), (1, 1), (511, 512), (3, 3), (4096, 65)])
    func wrongPixelCountsAreRefused(width: Int, height: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("bad.png")
        try PNGImage(width: width, height: height, channels: 3, samples: [UInt8](repeating: 9, count: width * height * 3))
            .write(to: path, compressionLevel: 1)
        let error = try #require(throws: PointPaintError.self) { try ColorCube(contentsOf: path) }
        #expect(error.file == path && error.kind == .malformed && error.place == nil)
    }

    @Test func notAPNGIsRefused() throws {
        let dir = TemporaryDirectory()
        try dir.write("not an image", to: "fake.png")
        for (name, kind) in [("fake.png", PointPaintError.Kind.malformed), ("missing.cube", .missing), ("missing.png", .missing), ("cube.jpg", .unsupported)] {
            let error = try #require(throws: PointPaintError.self) { try ColorCube(contentsOf: dir.file(name)) }
            #expect(error.kind == kind && error.file == dir.file(name), "\(error)")
        }
    }

    @Test func cubeFileRoundTrips() throws {
        let dir = TemporaryDirectory()
        let cube = gradingRandomCube(size: 17, seed: 2)
        let path = dir.file("look.cube")
        try CubeFile(cube: cube, title: "Random \"17\"").write(to: path)
        let file = try CubeFile(contentsOf: path)
        #expect(file.title == "Random '17'")
        #expect(file.cube.size == 17)
        #expect(file.cube.maximumDifference(from: cube) <= 5e-7 + 1e-7)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("LUT_3D_SIZE 17\n"))
        #expect(text.split(separator: "\n").count == 17 * 17 * 17 + 5)
        // Negative and above-one values survive with six decimals.
        let odd = ColorCube(size: 2, entries: [SIMD3(-0.0125, 1.5, 0.333333)] + Array(repeating: .zero, count: 7))
        #expect(CubeFile(cube: odd).text.contains("\n-0.012500 1.500000 0.333333\n"))
    }

    @Test func cubeFileWithCommentsTitleDomainAndCRLF() throws {
        var text = "# made by hand\r\nTITLE \"Hand made\"\r\n\r\nLUT_3D_SIZE 2\r\nDOMAIN_MIN 0 0 0\r\nDOMAIN_MAX 1 1 1\r\n"
        text += "LUT_IN_VIDEO_RANGE\r\n"
        let rows = ["0 0 0", "1 0 0 # red", "0 1 0", "1 1 0", "0 0 1", "1 0 1", "0 1 1", "1e0 1.0 +1"]
        text += rows.joined(separator: "\r\n")
        let file = try CubeFile(parsing: Array(text.utf8), file: "hand.cube")
        #expect(file.title == "Hand made")
        #expect(file.cube == ColorCube.identity(size: 2))
    }

    @Test func cubeFileDomainIsResampledOntoTheUnitCube() throws {
        // The identity over the domain 0…2 (entries up to 2): on 0…1 it is still the identity.
        let n = 5
        var text = "LUT_3D_SIZE \(n)\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n"
        for b in 0 ..< n { for g in 0 ..< n { for r in 0 ..< n {
            text += "\(2 * Double(r) / Double(n - 1)) \(2 * Double(g) / Double(n - 1)) \(2 * Double(b) / Double(n - 1))\n"
        } } }
        let cube = try CubeFile(parsing: Array(text.utf8)).cube
        #expect(cube.maximumDifference(from: .identity(size: n)) < 1e-6)
        let ranged = try CubeFile(parsing: Array(text.replacingOccurrences(of: "DOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2", with: "LUT_3D_INPUT_RANGE 0 2").utf8)).cube
        #expect(ranged == cube)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String, kind: PointPaintError.Kind, line: Int?, what: String
        init(_ text: String, _ kind: PointPaintError.Kind, _ line: Int?, _ what: String) {
            (self.text, self.kind, self.line, self.what) = (text, kind, line, what)
        }
        var testDescription: String { what }
    }

    static let badFiles: [Bad] = [
        Bad("LUT_3D_SIZE 2\n0 0 0\n0 0 x\n", .malformed, 3, "a word for a number"),
        Bad("LUT_3D_SIZE 2\n0 0 0\n0 0\n", .malformed, 3, "two numbers in a row"),
        Bad("LUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 9), .malformed, 10, "too many rows"),
        Bad("# c\nLUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 5), .malformed, 7, "too few rows"),
        Bad("0 0 0\nLUT_3D_SIZE 2\n", .malformed, 1, "rows before the size"),
        Bad("TITLE \"x\"\n", .missing, nil, "no size"),
        Bad("LUT_1D_SIZE 1024\n", .unsupported, 1, "a 1D table"),
        Bad("LUT_3D_SIZE 300\n", .outOfRange, 1, "a size beyond 256"),
        Bad("LUT_3D_SIZE 2.5\n", .malformed, 1, "a fractional size"),
        Bad("LUT_3D_SIZE 2\nDOMAIN_MAX 1 1\n", .malformed, 2, "a short domain"),
        Bad("LUT_3D_SIZE 2\nDOMAIN_MIN 1 0 0\n" + String(repeating: "0 0 0\n", count: 8), .outOfRange, 2, "an empty domain"),
        Bad("LUT_3D_SIZE 2\n0 0 nan\n", .outOfRange, 2, "nan"),
        Bad("LUT_3D_SIZE 2\n0 0 0\nLUT_3D_SIZE 2\n", .malformed, 3, "the size twice"),
        Bad("LUT_3D_SIZE 2\n0 0 0\nnan 0 0\n", .outOfRange, 3, "a row starting with nan"),
        Bad("LUT_3D_SIZE 2\nINF 0 0\n", .outOfRange, 2, "a row starting with INF"),
        Bad("LUT_3D_SIZE 2\n0 0 0\nInfinity 1 1 # bright\n", .outOfRange, 3, "a row starting with Infinity"),
        Bad("LUT_3D_SIZE 2\nDOMAIN_MAX 1e39 1 1\n", .outOfRange, 2, "a domain beyond Float"),
        Bad("LUT_3D_SIZE 2\n0 0 0\n0 -1e40 0\n", .outOfRange, 3, "a value beyond Float"),
        Bad("LUT_3D_SIZE 2\n0 0 0\n0 0 1\u{00A0}\n", .malformed, 3, "a no-break space after a value"),
    ]

    @Test("A quoted TITLE keeps a #; an unquoted one ends at a comment", arguments: [
        ("TITLE \"a #1 look\"", "a #1 look"),
        ("TITLE \"a #1 look\" # the best", "a #1 look"),
        ("  TITLE plain words # comment", "plain words"),
        ("TITLE \"\"", ""),
    ])
    func titleWithHash(line: String, expected: String) throws {
        let text = line + "\r\nLUT_3D_SIZE 2\n" + String(repeating: "0 0 0\n", count: 8)
        let file = try CubeFile(parsing: Array(text.utf8), file: "t.cube")
        #expect(file.title == expected)
        // And it survives a round trip.
        let again = try CubeFile(parsing: Array(file.text.utf8))
        #expect(again.title == expected)
    }

    @Test(arguments: badFiles)
    func badCubeFilesNameTheLine(bad: Bad) throws {
        let error = try #require(throws: PointPaintError.self) {
            try CubeFile(parsing: Array(bad.text.utf8), file: "bad.cube")
        }
        #expect(error.file == "bad.cube" && error.kind == bad.kind && error.place == bad.line.map { .line($0) }, "\(error)")
    }

    /// The one wording test of the `.cube` family: the token quoted and escaped.
    @Test func cubeWording() throws {
        let error = try #require(throws: PointPaintError.self) {
            try CubeFile(parsing: Array("LUT_3D_SIZE 2\n0 0 0\n0 \u{1B}[2J 0\n".utf8), file: "bad.cube")
        }
        #expect(error.description == "bad.cube: line 3: expected a finite number, found '\\u{1B}[2J'")
    }

    /// A byte-order mark before the header gave "table rows before LUT_3D_SIZE".
    @Test func aByteOrderMarkBeforeTheHeaderIsSkipped() throws {
        let text = "LUT_3D_SIZE 2\n" + String(repeating: "0.5 0.5 0.5\n", count: 8)
        let file = try CubeFile(parsing: [0xEF, 0xBB, 0xBF] + Array(text.utf8), file: "bom.cube")
        #expect(file.cube.size == 2 && file.cube.entries.allSatisfy { $0 == SIMD3(repeating: 0.5) })
        let titled = try CubeFile(parsing: [0xEF, 0xBB, 0xBF] + Array(("TITLE \"t\"\n" + text).utf8), file: "bom.cube")
        #expect(titled.title == "t")
    }

    @Test func pngAndCubeFormsOfOneCubeGradeAlike() throws {
        let dir = TemporaryDirectory()
        let cube = gradingSmoothCube(size: 33)
        try cube.write(to: dir.file("look.png"))  // 16-bit by default
        try cube.write(to: dir.file("look.cube"), title: "look")
        try cube.write(to: dir.file("look8.png"), pngBitDepth: 8)
        let fromPNG = try ColorCube(contentsOf: dir.file("look.png"))
        let fromCube = try ColorCube(contentsOf: dir.file("look.cube"))
        let fromPNG8 = try ColorCube(contentsOf: dir.file("look8.png"))
        let colours = gradingTestColours()
        var a = colours, b = colours, c = colours
        fromPNG.apply(to: &a)
        fromCube.apply(to: &b)
        fromPNG8.apply(to: &c)
        #expect(gradingMaxDifference(a, b) <= 1)
        #expect(gradingMaxDifference(b, c) <= 1)
        #expect(zip(a, b).filter { $0 != $1 }.count < colours.count / 100)
    }

    @Test func gradingAPNGImageExpandsGrey() throws {
        let grey = PNGImage(width: 2, height: 1, channels: 1, samples: [0, 255])
        let out = Look.cyanotype.cube(size: 9).applied(to: grey)
        #expect(out.channels == 3)
        #expect(out.samples8[2] > out.samples8[0])  // blue shadows
        let wide = PNGImage(width: 1, height: 1, channels: 3, samples16: [65535, 0, 0])
        let graded = Look.noir.cube(size: 9).applied(to: wide)
        #expect(graded.bitDepth == 16 && graded.samples16[0] == graded.samples16[1])
    }

    /// The file is written in pieces (`lut compose --size 256` built 450 MB of text in memory):
    /// what reaches the disk is exactly `text`, across many pieces.
    @Test func aCubeFileIsWrittenInPiecesThatAddUpToItsText() throws {
        let dir = TemporaryDirectory()
        let file = CubeFile(cube: gradingRandomCube(size: 33, seed: 5), title: "two\nlines")
        try file.write(to: dir.file("big.cube"))
        let written = try String(contentsOfFile: dir.file("big.cube"), encoding: .utf8)
        #expect(written.utf8.count > 8 << 16, "several pieces")
        #expect(written == file.text)
        #expect(try CubeFile(contentsOf: dir.file("big.cube")).title == "two lines")
    }

    /// `LUT_3D_SIZE 256` alone reserved room for 256³ rows before reading any.
    @Test func aSizeLineAloneIsRefusedByItsMissingRows() throws {
        let error = try #require(throws: PointPaintError.self) { try CubeFile(parsing: Array("LUT_3D_SIZE 256\n".utf8), file: "s.cube") }
        #expect(error.kind == .malformed && error.place == .line(1))
    }
}
