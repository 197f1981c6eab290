import ArgumentParser

/// `pointpaint synth` (being written).
public struct SynthCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "synth", abstract: "(being written)")
    public init() {}
    public func run() throws { throw ValidationError("synth is not available yet") }
}
