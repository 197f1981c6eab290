import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint lut`: makes, applies and composes colour cubes (3D LUTs), and converts colours
/// between primaries.
struct LutCommand: ParsableCommand {
    /// Command name, help and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "lut",
        abstract: "Make, apply and compose colour cubes (3D LUTs, as .png or .cube); convert colours between primaries.",
        discussion: """
            A cube PNG holds N³ pixels in raster order, red fastest, then green, then blue (512×512 for N = 64, \
            the Hald CLUT order). Grade the identity image in any editor and use the result as a look.
            """,
        subcommands: [Identity.self, Apply.self, Compose.self, Make.self, Convert.self, Matrix.self])
}

/// Checks a cube size option.
private func validateCubeSize(_ size: Int) throws {
    guard ColorCube.sizeRange.contains(size) else { throw ValidationError("--size must be within 2 … 256") }
}

/// Checks a PNG bit depth option.
private func validateBitDepth(_ depth: Int) throws {
    guard depth == 8 || depth == 16 else { throw ValidationError("--bit-depth must be 8 or 16") }
}

extension LutCommand {
    /// `lut identity --size N -o identity.png`.
    struct Identity: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the identity cube: the image to grade in an editor and load back as a look.")

        @Option(help: "Points per axis, 2 … 256.")
        var size = 64
        @Option(name: .shortAndLong, help: "Output file, .png or .cube.")
        var output: String
        @Option(help: "PNG bit depth, 8 or 16.")
        var bitDepth = 8
        @Option(help: "PNG shape: auto (square when N is a perfect square, else strip), strip (N²×N), column (N×N²) or square (√N·N on each side).")
        var layout: CubePNGLayoutOption = .auto

        func validate() throws {
            try validateCubeSize(size)
            try validateBitDepth(bitDepth)
            let format = try ColorCubeFileFormat(path: output)
            if layout != .auto && format != .png { throw ValidationError("--layout applies to .png output only") }
            if layout == .square {
                let (width, height) = ColorCube.pngDimensions(size: size, layout: .automatic)
                guard width == height else {
                    throw ValidationError("--layout square needs a --size that is a perfect square (4, 9, 16, 25, 36, 49, 64, …), not \(size)")
                }
            }
        }

        func run() throws {
            let identity = ColorCube.identity(size: size)
            if try ColorCubeFileFormat(path: output) == .png {
                try identity.writePNG(to: output, bitDepth: bitDepth, layout: layout.layout)
                let (w, h) = ColorCube.pngDimensions(size: size, layout: layout.layout)
                print("wrote \(output): identity \(size)³ cube (\(w)×\(h) PNG)")
            } else {
                try identity.write(to: output, title: "Identity \(size)")
                print("wrote \(output): identity \(size)³ cube")
            }
        }
    }

    /// How `lut identity --layout` names the PNG's shape.
    enum CubePNGLayoutOption: String, ExpressibleByArgument, CaseIterable {
        /// Square when the size is a perfect square, else a strip.
        case auto
        /// N² wide, N tall.
        case strip
        /// N wide, N² tall.
        case column
        /// √N·N on each side (only for perfect-square sizes, checked by `validate()`).
        case square

        /// The library's layout (`square` is what `automatic` gives for a perfect-square size).
        var layout: ColorCube.PNGLayout {
            switch self {
            case .auto, .square: .automatic
            case .strip: .strip
            case .column: .column
            }
        }
    }

    /// `lut apply CUBE --to in.png -o out.png`.
    struct Apply: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Grade a PNG image with a colour cube.")

        @Argument(help: "The cube, .png or .cube.")
        var cube: String
        @Option(help: "The image to grade (PNG, 8 or 16 bit, at most 64 M pixels).")
        var to: String
        @Option(name: .shortAndLong, help: "The graded PNG.")
        var output: String
        @Option(help: "How the cube is read between its lattice points.")
        var interpolation: ColorCube.Interpolation = .trilinear

        func run() throws {
            let lut = try ColorCube(contentsOf: cube)
            let image = try PNGImage(contentsOf: to, maximumPixels: ColorCube.maximumImagePixels)
            try lut.applied(to: image, interpolation: interpolation).write(to: output)
            print("wrote \(output): \(image.width)×\(image.height) graded with \(cube) (\(lut.size)³, \(interpolation.rawValue))")
        }
    }

    /// `lut compose A B -o C.(png|cube)`.
    struct Compose: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compose two cubes into one that applies the first, then the second.")

        @Argument(help: "The cube applied first, .png or .cube.")
        var first: String
        @Argument(help: "The cube applied second.")
        var second: String
        @OptionGroup var result: CubeOutputOptions

        func run() throws {
            var a = try ColorCube(contentsOf: first)
            let b = try ColorCube(contentsOf: second)
            if let size = result.size { a = a.resampled(size: size) }
            try result.write(a.then(b), title: "Composed")
            print("wrote \(result.output): \(a.size)³ cube, \(first) then \(second)")
        }
    }

    /// `lut make [adjustments] [--look NAME] [--strength X] --size N -o FILE`.
    struct Make: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fold a look, its strength and adjustments into one cube file.")

        @OptionGroup var grading: GradingOptions
        @OptionGroup var result: CubeOutputOptions

        func run() throws {
            let cube = grading.grade.cube(size: result.size)
            try result.write(cube, title: grading.summary)
            print("wrote \(result.output): \(cube.size)³ cube, \(grading.summary)")
        }
    }

    /// `lut convert --from display-p3 --to srgb R,G,B …`: converts colours, for checks against
    /// other colour libraries.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Convert R'G'B' colours between primaries (unclamped, in linear light).",
            discussion: "Colours come as arguments (R,G,B) or, without any, one a line on standard input; "
                + "each result is printed as 'R G B' with full precision.")

        /// Whether values are encoded with the sRGB curve or linear light.
        enum Encoding: String, ExpressibleByArgument, CaseIterable {
            case encoded, linear
        }

        @OptionGroup var primaries: PrimariesOptions
        @Option(help: "How the input values are written (encoded with the sRGB curve, or linear light).")
        var input: Encoding = .encoded
        @Option(help: "How the output values are written.")
        var output: Encoding = .encoded
        @Argument(help: "Colours, R,G,B.")
        var colours: [String] = []

        func run() throws {
            let conversion = ColorConversion(from: primaries.from, to: primaries.to)
            func convert(_ text: String, line: Int?) throws {
                let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
                guard parts.count == 3, let r = Double(parts[0]), let g = Double(parts[1]), let b = Double(parts[2]) else {
                    throw PointPaintError(.malformed, file: line == nil ? nil : "stdin", place: line.map { .line($0) },
                                          "expected a colour R,G,B, found \(PointPaintError.quote(text))")
                }
                var linear = SIMD3(r, g, b)
                if input == .encoded { linear = SRGBTransfer.decode(linear) }
                let out = conversion.linear(fromLinear: linear)
                let v = output == .encoded ? SRGBTransfer.encode(out) : out
                print("\(v.x) \(v.y) \(v.z)")
            }
            if colours.isEmpty {
                var line = 0
                while let text = readLine() {
                    line += 1
                    if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                    try convert(text, line: line)
                }
            } else {
                for colour in colours { try convert(colour, line: nil) }
            }
        }
    }

    /// `lut matrix --from display-p3 --to srgb`: prints the linear-light conversion matrix.
    struct Matrix: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the linear-light RGB matrix between two sets of primaries, one row a line.")

        @OptionGroup var primaries: PrimariesOptions

        func run() throws {
            let m = primaries.from.matrix(to: primaries.to)
            for row in [m.row0, m.row1, m.row2] { print("\(row.x) \(row.y) \(row.z)") }
        }
    }
}

/// Where `lut compose` and `lut make` write their cube, and its size and PNG depth.
struct CubeOutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output file, .png or .cube.")
    var output: String
    @Option(help: "Points per axis of the result, 2 … 256 (default: the size of the cube it starts from, else 33).")
    var size: Int?
    @Option(help: "PNG bit depth, 8 or 16.")
    var bitDepth = 16

    func validate() throws {
        if let size { try validateCubeSize(size) }
        try validateBitDepth(bitDepth)
        _ = try ColorCubeFileFormat(path: output)
    }

    /// Writes `cube` to `output` in the format its extension names.
    func write(_ cube: ColorCube, title: String) throws {
        try cube.write(to: output, title: title, pngBitDepth: bitDepth)
    }
}

/// The primaries `lut convert` and `lut matrix` convert between.
struct PrimariesOptions: ParsableArguments {
    @Option(help: "Primaries of the input.")
    var from: ColorPrimaries
    @Option(help: "Primaries of the output.")
    var to: ColorPrimaries = .srgb
}
