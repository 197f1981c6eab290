import Foundation
import PackagePlugin

/// Embeds every file of the package's top-level `Shaders/` folder into the target as
/// `EmbeddedShaders.sources`, and of `Web/` (the `export-web` page) as `EmbeddedWeb.sources`,
/// rebuilt whenever one changes.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        try [("Shaders", "EmbeddedShaders", "shaders"), ("Web", "EmbeddedWeb", "web page files")].map { folder, name, what in
            let directory = context.package.directoryURL.appending(path: folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let inputs = names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
                .map { directory.appending(path: $0) }
            let output = context.pluginWorkDirectoryURL.appending(path: name + ".swift")
            return .buildCommand(
                displayName: "Embedding \(inputs.count) \(what)",
                executable: try context.tool(named: "ShaderEmbedder").url,
                arguments: [output.path, name] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output])
        }
    }
}
