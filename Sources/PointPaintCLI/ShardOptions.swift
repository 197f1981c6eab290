import ArgumentParser
import PointPaint

extension Shard {
    /// Parses `K/N` for the option `name`, as a `ValidationError` naming what was expected.
    static func argument(_ text: String, option name: String) throws -> Shard {
        do {
            return try Shard(parsing: text, place: name)
        } catch let error as PointPaintError {
            throw ValidationError(error.message)
        }
    }
}

/// `replay --shard K/N`: one part of a replay that many machines share.
struct ShardOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Replay only part K of N of the selected frames (K, K+N, K+2N, …; for a video, a contiguous run cut at a keyframe; K from 0), to merge later with the other parts (pointpaint merge). Write a .ppstore.",
        valueName: "K/N"), transform: { try Shard.argument($0, option: "--shard") })
    var shard: Shard?
}

/// `merge --region K/N`: one spatial part of a merge that many machines share.
struct RegionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Keep only spatial region K of N (K from 0): the N regions split the inputs' voxels into runs of Morton codes of about equal size, computed from the inputs' chunk indexes, so every 'merge --region K/N' of the same inputs (in any order) agrees on them; merging the N outputs gives the whole merge.",
        valueName: "K/N"), transform: { try Shard.argument($0, option: "--region") })
    var region: Shard?
}
