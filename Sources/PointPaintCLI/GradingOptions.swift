import ArgumentParser
import PointPaint

/// The colour-grading options shared by `lut make`, `replay` and `view`: a look (built-in name or
/// cube file), its strength and the four adjustments (the `GradeControl`s), folded into one cube
/// by `foldedCube(size:)`.
struct GradingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A built-in look (\(Look.allCases.map(\.rawValue).joined(separator: ", "))) or a colour cube file (.png or .cube).",
        valueName: "name|file"), transform: LookOption.init(argument:))
    var look: LookOption?

    @Option(help: "How much of the look to apply, 0 (none) … 1 (all).")
    var strength: Double = 1

    @Option(parsing: .unconditional, help: "Brightness, -1 … 1 (a gamma curve; 1 is gamma 0.5).")
    var brightness: Double = 0

    @Option(parsing: .unconditional, help: "Contrast about mid grey, -1 (flat) … 1 (double).")
    var contrast: Double = 0

    @Option(parsing: .unconditional, help: "Colour temperature, -1 (cooler) … 1 (warmer).")
    var temperature: Double = 0

    @Option(parsing: .unconditional, help: "Saturation, -1 (black and white) … 1 (double).")
    var saturation: Double = 0

    /// The grade these options describe.
    var grade: Grade {
        Grade(look: look?.source ?? .builtin(.natural), strength: strength,
              adjustments: Adjustments(brightness: brightness, contrast: contrast, temperature: temperature, saturation: saturation))
    }

    /// Checks every control against its range.
    func validate() throws {
        let grade = grade
        for control in GradeControl.allCases where !control.range.contains(grade[keyPath: control.keyPath]) {
            let range = control.range
            throw ValidationError("--\(control.rawValue) must be within \(range.lowerBound.formatted) … \(range.upperBound.formatted)")
        }
    }

    /// Look, strength and adjustments folded into one cube, or `nil` when they change nothing.
    /// - Parameter size: points per axis; by default the look file's size, else 33.
    func foldedCube(size: Int? = nil) -> ColorCube? {
        grade.isIdentity ? nil : grade.cube(size: size)
    }

    /// A short description for logs and window titles, e.g. `noir 0.7, contrast +0.2`: the look
    /// as typed, then the strength and adjustments that are not neutral.
    var summary: String {
        var parts = [String]()
        if let look { parts.append(strength == 1 ? look.text : "\(look.text) \(strength)") }
        let grade = grade
        for control in GradeControl.allCases where control != .strength && grade[keyPath: control.keyPath] != control.neutral {
            let value = grade[keyPath: control.keyPath]
            parts.append("\(control.rawValue) \(value > 0 ? "+" : "")\(value)")
        }
        return parts.isEmpty ? "no grading" : parts.joined(separator: ", ")
    }
}

/// What `--look` names, parsed: a built-in look (or `none`), or a colour cube file loaded as it is
/// parsed, with the text as typed for summaries.
struct LookOption {
    /// The look.
    var source: Grade.LookSource
    /// The argument as typed.
    var text: String

    /// Parses a built-in name (any case) or loads a `.png` / `.cube` file.
    init(argument: String) throws {
        text = argument
        let lower = argument.lowercased()
        if let builtin = Look(rawValue: lower) {
            source = .builtin(builtin)
        } else if lower == "none" {
            source = .builtin(.natural)
        } else if lower.hasSuffix(".png") || lower.hasSuffix(".cube") {
            source = .cube(try ColorCube(contentsOf: argument))
        } else {
            throw ValidationError("expected one of \(Look.allCases.map(\.rawValue).joined(separator: ", ")) or a .png or .cube file")
        }
    }
}

private extension Double {
    /// The number without a fractional part when it has none (`-1`, `0.5`).
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
