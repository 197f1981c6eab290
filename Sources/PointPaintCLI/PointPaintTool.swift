import ArgumentParser

/// The `pointpaint` command: replays ARKit captures into coloured voxel clouds.
public struct PointPaintTool: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "pointpaint",
        abstract: "Paint with pixels floating in space: replay ARKit captures into coloured voxel clouds.",
        subcommands: [
            ReplayCommand.self, PaintCommand.self, ViewCommand.self, InfoCommand.self, SynthCommand.self,
            FrameCommand.self, SampleCommand.self, ImportCommand.self, RegisterCommand.self, VoxelizeCommand.self, LutCommand.self, MergeCommand.self, ConvertCommand.self, ExportWebCommand.self,
        ])

    public init() {}
}
