import ArgumentParser
import PointPaint

extension Look: ExpressibleByArgument {}
extension ColorCube.Interpolation: ExpressibleByArgument {}

/// The colour-grading options shared by `lut make`, `replay` and `view`: a look (built-in name or
/// cube file), its strength and the four adjustments, folded into one cube by `foldedCube(size:)`.
public struct GradingOptions: ParsableArguments, Sendable {
    /// A built-in look name or a `.png` / `.cube` colour cube file.
    @Option(help: ArgumentHelp(
        "A built-in look (\(Look.allCases.map(\.rawValue).joined(separator: ", "))) or a colour cube file (.png or .cube).",
        valueName: "name|file"))
    public var look: String?

    /// How much of the look to apply.
    @Option(help: "How much of the look to apply, 0 (none) … 1 (all).")
    public var strength: Double = 1

    /// Brightness, −1…1.
    @Option(parsing: .unconditional, help: "Brightness, -1 … 1 (a gamma curve; 1 is gamma 0.5).")
    public var brightness: Double = 0

    /// Contrast, −1…1.
    @Option(parsing: .unconditional, help: "Contrast about mid grey, -1 (flat) … 1 (double).")
    public var contrast: Double = 0

    /// Colour temperature, −1…1.
    @Option(parsing: .unconditional, help: "Colour temperature, -1 (cooler) … 1 (warmer).")
    public var temperature: Double = 0

    /// Saturation, −1…1.
    @Option(parsing: .unconditional, help: "Saturation, -1 (black and white) … 1 (double).")
    public var saturation: Double = 0

    /// Options with every value neutral.
    public init() {}

    /// Where the look comes from.
    public enum LookSource: Sendable, Equatable {
        /// A built-in look.
        case builtin(Look)
        /// A colour cube file.
        case file(String)
    }

    /// The look named by `--look`: a built-in name, a `.png` / `.cube` path, or `.builtin(.natural)`.
    public var lookSource: LookSource {
        get throws {
            guard let look else { return .builtin(.natural) }
            if let builtin = Look(rawValue: look.lowercased()) { return .builtin(builtin) }
            if look.lowercased() == "none" { return .builtin(.natural) }
            let lower = look.lowercased()
            guard lower.hasSuffix(".png") || lower.hasSuffix(".cube") else {
                throw ValidationError("--look must be one of \(Look.allCases.map(\.rawValue).joined(separator: ", ")) or a .png or .cube file, not '\(look)'")
            }
            return .file(look)
        }
    }

    /// The four adjustments.
    public var adjustments: Adjustments {
        Adjustments(brightness: brightness, contrast: contrast, temperature: temperature, saturation: saturation)
    }

    /// Checks ranges and the look's name.
    public func validate() throws {
        guard (0 ... 1).contains(strength) else { throw ValidationError("--strength must be within 0 … 1") }
        for (name, value) in [("brightness", brightness), ("contrast", contrast), ("temperature", temperature), ("saturation", saturation)] {
            guard (-1 ... 1).contains(value) else { throw ValidationError("--\(name) must be within -1 … 1") }
        }
        _ = try lookSource
    }

    /// The grade these options describe, with a file look loaded.
    /// - Throws: `PointPaintError` when the look file cannot be read.
    public func grade() throws -> Grade {
        switch try lookSource {
        case .builtin(let builtin):
            return Grade(look: builtin, strength: strength, adjustments: adjustments)
        case .file(let path):
            return Grade(lookCube: try ColorCube(contentsOf: path), strength: strength, adjustments: adjustments)
        }
    }

    /// Look, strength and adjustments folded into one cube, or `nil` when they change nothing.
    /// - Parameter size: points per axis; by default the look file's size, else 33.
    public func foldedCube(size: Int? = nil) throws -> ColorCube? {
        let grade = try grade()
        return grade.isIdentity ? nil : grade.cube(size: size)
    }

    /// A short description for logs and window titles, e.g. `noir 0.7, contrast +0.20`.
    public var summary: String {
        var parts = [String]()
        if let look { parts.append(strength == 1 ? look : "\(look) \(strength)") }
        for (name, value) in [("brightness", brightness), ("contrast", contrast), ("temperature", temperature), ("saturation", saturation)]
        where value != 0 {
            parts.append("\(name) \(value > 0 ? "+" : "")\(value)")
        }
        return parts.isEmpty ? "no grading" : parts.joined(separator: ", ")
    }
}
