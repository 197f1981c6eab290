import ArgumentParser

/// `pointpaint frame` (being written).
public struct FrameCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "frame", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("frame is not available yet") }
}
