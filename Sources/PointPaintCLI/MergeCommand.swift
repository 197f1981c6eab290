import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint merge A.ppstore B.ppstore … -o OUT`: the reduce step of a sharded replay.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge store files (.ppstore) into one store, PLY or LAS file, exactly.",
        discussion: """
            Merges any number of stores in one streaming pass over their voxels in Morton order. Sums, counts and \
            frames combine exactly, so merging the shards of a replay (replay --shard K/N) gives the bytes of one \
            replay, whatever the number of shards or the order of the inputs. The stores must share voxel size, \
            accumulation, colour space and grade. A store given twice (or merged with itself) counts its samples \
            twice: the mean colours stay, the counts double.

            With --region K/N only one spatial part of the result is written, so N machines can share a large \
            merge; merging their N outputs (in any order) then gives the whole.
            """)

    @Argument(help: ArgumentHelp("Store files to merge.", valueName: "store"))
    var inputs: [String] = []

    @OptionGroup var output: CloudOutputOptions
    @OptionGroup var region: RegionOptions

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one .ppstore file to merge") }
    }

    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let merge = try StoreMerge(paths: inputs)
        let info: StoreInfo
        if try output.kind == .ppstore {
            info = try merge.write(to: output.output, region: region.region)
        } else if inputs.count == 1, region.region == nil {
            // One whole store: written straight from the file.
            let reader = try StoreFileReader(path: inputs[0])
            try output.write(reader)
            info = reader.info
        } else {
            // A cloud file's header needs the voxel count: merge into a temporary store beside the
            // output first, then write the cloud from it.
            let url = URL(fileURLWithPath: output.output)
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).merge-\(getpid()).ppstore").path
            defer { unlink(temporary) }
            try merge.write(to: temporary, region: region.region)
            let reader = try StoreFileReader(path: temporary)
            try output.write(reader)
            info = reader.info
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let part = region.region.map { ", region \($0)" } ?? ""
        print(String(format: "merged %d store%@ (%d voxels in) in %.2f s: %d voxels, %d samples%@ → %@", inputs.count,
                     inputs.count == 1 ? "" : "s", merge.inputVoxels, seconds, info.voxelCount, info.sampleCount, part, output.output))
    }
}
