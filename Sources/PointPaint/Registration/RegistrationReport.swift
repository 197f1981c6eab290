import Foundation

/// What a registration did (`pointpaint register`'s summary line), and the rule that decides
/// which refined poses are applied, which both refinements share (docs/registration.md).
public struct RegistrationReport: Sendable {
    /// Frames registered.
    public var frames = 0
    /// Frames given a refined pose other than the one this refinement started from (the
    /// recorded one, or an earlier stage's).
    public var corrected = 0
    /// Frames whose correction lowered their residual too little to be applied (`minimumGain`).
    public var held = 0
    /// Frames whose correction was not applied, each with the reason.
    public var refused: [(frame: Int, reason: String)] = []
    /// The median and the largest correction this refinement applied: metres the camera moved,
    /// degrees it turned.
    public var medianCorrection = (metres: 0.0, degrees: 0.0), largestCorrection = (metres: 0.0, degrees: 0.0)
    /// The method's RMS residual over every frame, recorded and refined poses (a refused frame
    /// counts with its recorded pose's): metres for geometry, 8-bit luma levels for colour.
    public var residual = CameraPoses.Residual(before: 0, after: 0)
    /// The unit of `residual`: "m" or "levels".
    public var unit = "m"

    /// Creates an empty report.
    public init() {}

    /// One frame's outcome as a refinement found it.
    struct Candidate {
        /// The frame's index in the recording.
        var index: Int
        /// Its pose before this refinement and the one it found (world space).
        var start: Matrix4x4, refined: Matrix4x4
        /// The pose the recording holds (what the poses file calls recorded).
        var recorded: Matrix4x4
        /// Sums of squared residuals and their counts, with the start and the refined poses.
        var before: (sum: Double, count: Int), after: (sum: Double, count: Int)
        /// Whether this is the anchor (its pose is held).
        var isAnchor: Bool
    }

    /// The poses file and report of `candidates`: a frame whose correction from its recorded pose
    /// passes `limits`, or whose residual the refined pose raises by more than 5 %, keeps its
    /// start pose and is named in `refused`; one whose residual it lowers by less than
    /// `minimumGain` (a fraction) keeps its start pose and is counted in `held`.
    static func assemble(_ candidates: [Candidate], method: String, unit: String, anchor: Int, recordingFrames: Int,
                         limits: (metres: Double, degrees: Double), minimumGain: Double = 0) -> (poses: CameraPoses, report: RegistrationReport) {
        var report = RegistrationReport()
        report.frames = candidates.count
        report.unit = unit
        var out: [CameraPoses.Frame] = []
        var moves: [(metres: Double, degrees: Double)] = []
        var total = (before: 0.0, countBefore: 0, after: 0.0, countAfter: 0)
        for candidate in candidates {
            let rmsBefore = rms(candidate.before), rmsAfter = rms(candidate.after)
            var refined = candidate.isAnchor ? candidate.start : candidate.refined
            let trial = CameraPoses.Frame(index: candidate.index, recorded: candidate.recorded, refined: refined)
            if trial.moved > limits.metres || trial.turned > limits.degrees {
                report.refused.append((candidate.index, String(format: "a correction of %.3f m and %.2f° passes the limits (%.3f m, %.2f°)",
                                                               trial.moved, trial.turned, limits.metres, limits.degrees)))
                refined = candidate.start
            } else if !candidate.isAnchor, rmsAfter > rmsBefore * 1.05 + 1e-9 {
                report.refused.append((candidate.index, String(format: "the correction raises its residual from %.4g %@ to %.4g %@",
                                                               rmsBefore, unit, rmsAfter, unit)))
                refined = candidate.start
            } else if !candidate.isAnchor, minimumGain > 0, rmsAfter > rmsBefore * (1 - minimumGain) {
                report.held += 1
                refined = candidate.start
            }
            let applied = refined != candidate.start
            let entry = CameraPoses.Frame(index: candidate.index, recorded: candidate.recorded, refined: refined,
                                          residual: CameraPoses.Residual(before: rmsBefore, after: applied ? rmsAfter : rmsBefore))
            if applied {
                // What this refinement changed (from its start, the recorded pose but after an
                // earlier stage).
                let change = CameraPoses.Frame(index: candidate.index, recorded: candidate.start, refined: refined)
                report.corrected += 1
                moves.append((change.moved, change.turned))
            }
            total.before += candidate.before.sum
            total.countBefore += candidate.before.count
            let kept = applied || candidate.isAnchor ? candidate.after : candidate.before
            total.after += kept.sum
            total.countAfter += kept.count
            out.append(entry)
        }
        if !moves.isEmpty {
            let metres = moves.map(\.metres).sorted(), degrees = moves.map(\.degrees).sorted()
            report.medianCorrection = (metres[metres.count / 2], degrees[degrees.count / 2])
            report.largestCorrection = (metres.last!, degrees.last!)
        }
        report.residual = CameraPoses.Residual(before: rms((total.before, total.countBefore)), after: rms((total.after, total.countAfter)))
        let poses = CameraPoses(method: method, recordingFrames: recordingFrames, anchor: candidates[anchor].index, frames: out,
                                residual: report.residual)
        return (poses, report)
    }

    /// The position of the anchor frame among the frames registered (`indices`): `asked`'s, or
    /// the first.
    /// - Throws: `.missing` naming the frame when `asked` is not among them.
    static func anchor(_ asked: Int?, among indices: [Int], file: String, what: String) throws -> Int {
        guard let asked else { return 0 }
        guard let at = indices.firstIndex(of: asked) else {
            throw PointPaintError(.missing, file: file, place: .frame(asked),
                                  "expected the anchor among the frames registered: it is not selected, or has no \(what)")
        }
        return at
    }

    /// The root mean square of `count` values whose squares sum to `sum`; 0 for none.
    static func rms(_ s: (sum: Double, count: Int)) -> Double {
        s.count > 0 ? (s.sum / Double(s.count)).squareRoot() : 0
    }
}
