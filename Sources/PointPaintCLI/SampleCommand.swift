import ArgumentParser

/// `pointpaint sample` (being written).
public struct SampleCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "sample", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("sample is not available yet") }
}
