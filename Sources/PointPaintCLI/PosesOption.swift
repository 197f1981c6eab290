import ArgumentParser
import PointPaint

/// `--poses`: the refined camera poses `replay`, `view`, `paint` and `import` use instead of the
/// recorded ones. Optional, so `view` can tell whether it was given.
struct PosesOption: ParsableArguments {
    @Option(help: ArgumentHelp("Use the refined camera poses of this poses.json (written by register, or synth --pose-drift) instead of the recorded ones.",
                               valueName: "poses.json"))
    var poses: String?

    /// `--poses` when given, as it is spelled on the command line.
    var firstGiven: String? { poses != nil ? "--poses" : nil }

    /// The poses `--poses` names, checked against `source` (nil without `--poses`).
    /// - Throws: the poses file's errors, one line naming it; a file for another recording.
    func load(for source: any CaptureSource) throws -> CameraPoses? {
        try poses.map { try CameraPoses(contentsOf: $0, for: source) }
    }
}
