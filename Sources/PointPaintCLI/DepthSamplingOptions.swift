import ArgumentParser
import PointPaint

/// `--min-confidence` and `--max-depth`: which depth pixels `replay`, `view` and `register` use.
/// Both are optional, so `view` can tell whether they were given.
struct DepthSamplingOptions: ParsableArguments {
    @Option(help: "Depth pixels below this confidence are not used (default: high).")
    var minConfidence: DepthConfidence?
    @Option(help: "Depth pixels farther than this many metres are not used (default: 5).")
    var maxDepth: Double?

    func validate() throws {
        if let maxDepth, !(maxDepth > 0 && maxDepth.isFinite) { throw ValidationError("--max-depth must be a positive number of metres, found \(maxDepth)") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        minConfidence != nil ? "--min-confidence" : maxDepth != nil ? "--max-depth" : nil
    }

    /// Sets the given thresholds of `sampling` (the others keep the library's defaults).
    func apply(to sampling: inout DepthSampling) {
        if let minConfidence { sampling.minimumConfidence = minConfidence }
        if let maxDepth { sampling.maximumDepth = Float(maxDepth) }
    }
}
