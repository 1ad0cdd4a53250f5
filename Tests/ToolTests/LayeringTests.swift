import Foundation
import Testing

/// docs/architecture.md's table of what each module imports is the code's: every
/// `import` in `Sources/M` is in M's row and every name in the row is imported, so the
/// layers the document draws cannot drift from the code again (the diagram once said the
/// adapters sat over the scene layer, when none imported it, and the app called SDL around
/// its adapter).
@Suite("The layers in docs/architecture.md")
struct LayeringTests {
  /// Modules of the platform and the toolchain, not of the layers.
  static let system: Set<String> = ["Glibc", "Darwin", "Dispatch", "Synchronization", "Foundation"]

  /// The table's rows: module → (imports of ours, C modules).
  static func documented() throws -> [String: Set<String>] {
    let doc = try String(contentsOf: Tool.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    var rows: [String: Set<String>] = [:]
    for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 6, ["executable", "scene layer", "adapter", "core"].contains(cells[1]),
        cells[2].hasPrefix("`"), cells[2].hasSuffix("`")
      else { continue }
      // "Scenes, Raster" or "none", each maybe followed by ": why" or "(why)".
      func names(_ cell: String) -> [String] {
        let list = cell.prefix { $0 != ":" && $0 != "(" }.trimmingCharacters(in: .whitespaces)
        return list == "none" ? [] : list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      }
      rows[String(cells[2].dropFirst().dropLast())] = Set(names(cells[3]) + names(cells[4]))
    }
    return rows
  }

  static func imports(of module: String) throws -> Set<String> {
    let folder = Tool.packageRoot.appendingPathComponent("Sources/\(module)")
    var found: Set<String> = []
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        if words.count == 2, words[0] == "import" { found.insert(String(words[1])) }
      }
    }
    return found.subtracting(system)
  }

  @Test func everyModuleImportsWhatItsRowSays() throws {
    let rows = try Self.documented()
    let sources = Tool.packageRoot.appendingPathComponent("Sources")
    // Swift modules: folders with Swift files (the C modules are module maps and C).
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { m in
      let files = (try? FileManager.default.contentsOfDirectory(atPath: sources.appendingPathComponent(m).path)) ?? []
      return files.contains { $0.hasSuffix(".swift") }
    }
    #expect(modules.count >= 12, "\(modules)")
    for module in modules.sorted() {
      let row = try #require(rows[module], "docs/architecture.md has no row for \(module)")
      let actual = try Self.imports(of: module)
      #expect(actual == row, "\(module) imports \(actual.sorted()), its row says \(row.sorted())")
    }
  }

  @Test func onlyStageSDLTouchesSDLAndNoAdapterImportsTheScenes() throws {
    let rows = try Self.documented()
    for (module, imports) in rows where module != "StageSDL" { #expect(!imports.contains("CSDL2"), "\(module)") }
    for adapter in ["HostIO", "Raster", "StageSDL"] { #expect(rows[adapter]?.contains("Scenes") == false, "\(adapter)") }
  }
}
