import ArgumentParser

/// `pointpaint replay` (being written).
public struct ReplayCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "replay", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("replay is not available yet") }
}
