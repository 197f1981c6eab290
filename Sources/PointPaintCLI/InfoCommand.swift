import ArgumentParser

/// `pointpaint info` (being written).
public struct InfoCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "info", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("info is not available yet") }
}
