import ArgumentParser

/// `pointpaint view` (being written).
public struct ViewCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "view", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("view is not available yet") }
}
