import ArgumentParser

/// `pointpaint voxelize` (being written).
public struct VoxelizeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "voxelize", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("voxelize is not available yet") }
}
