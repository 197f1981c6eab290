import Foundation
import PackagePlugin

/// Embeds every file of the package's top-level `Shaders/` folder into the target as
/// `EmbeddedShaders.sources`, rebuilt whenever a shader changes.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let shaders = context.package.directoryURL.appending(path: "Shaders")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shaders.path)) ?? []
        let inputs = names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
            .map { shaders.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) shaders",
                executable: try context.tool(named: "ShaderEmbedder").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
