/// The numbers of a `Grade` a person sets: the look's strength and the four adjustments. The command
/// line's `--strength`, `--brightness`, … and the viewer's J / [ / ] keys are these.
public enum GradeControl: String, Sendable, CaseIterable {
    /// How much of the look to apply.
    case strength
    /// `Adjustments.brightness`.
    case brightness
    /// `Adjustments.contrast`.
    case contrast
    /// `Adjustments.temperature`.
    case temperature
    /// `Adjustments.saturation`.
    case saturation

    /// Where the value lives in a grade.
    public var keyPath: WritableKeyPath<Grade, Double> {
        switch self {
        case .strength: \.strength
        case .brightness: \.adjustments.brightness
        case .contrast: \.adjustments.contrast
        case .temperature: \.adjustments.temperature
        case .saturation: \.adjustments.saturation
        }
    }

    /// The values a person may set: 0…1 for the strength, −1…1 for an adjustment.
    public var range: ClosedRange<Double> { self == .strength ? 0 ... 1 : -1 ... 1 }

    /// The value that changes nothing: strength 1 (the look in full), adjustments 0.
    public var neutral: Double { self == .strength ? 1 : 0 }

    /// Steps of an interactive control (a key press) in one unit: a step is 0.1.
    public static let stepsPerUnit = 10.0

    /// `value` moved by `steps` steps, rounded to a whole step and kept within `range`.
    public func stepped(_ value: Double, by steps: Int) -> Double {
        let moved = ((value + Double(steps) / Self.stepsPerUnit) * Self.stepsPerUnit).rounded() / Self.stepsPerUnit
        return min(max(moved, range.lowerBound), range.upperBound)
    }
}
