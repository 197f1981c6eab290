import ArgumentParser

/// `pointpaint lut` (being written).
public struct LutCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "lut", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("lut is not available yet") }
}
