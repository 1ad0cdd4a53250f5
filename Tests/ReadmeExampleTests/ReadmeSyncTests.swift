import Glibc
import HostIO
import Testing

/// Every ```swift block in a module README (Sources/*/README.md) or DocC article
/// (Sources/*/*.docc/*.md) is, line for line, a region of a test in this folder, marked
/// `// README <path>` … `// END README`, where it compiles beside a C module declaring
/// MacTypes' `Point`, `Rect` and `Size`, runs, and has what its comments promise checked.
/// The README shows the region without the test's indentation, after the imports the test
/// file has. `scripts/readme-examples --write` copies the regions into the documents.
@Suite struct ReadmeSyncTests {
  static let root: String = {
    let file = "\(#filePath)"
    return String(file.dropLast("/Tests/ReadmeExampleTests/ReadmeSyncTests.swift".count))
  }()

  static func entries(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
  }

  static func text(_ path: String) throws -> String { String(decoding: try FileIO.read(path), as: UTF8.self) }

  /// The documents with Swift examples, relative to the package root.
  static func documents() -> [String] {
    var result: [String] = []
    for module in entries(root + "/Sources") {
      let folder = "Sources/\(module)"
      if FileIO.exists(root + "/" + folder + "/README.md") { result.append(folder + "/README.md") }
      for entry in entries(root + "/" + folder) where entry.hasSuffix(".docc") {
        for article in entries(root + "/" + folder + "/" + entry) where article.hasSuffix(".md") {
          result.append(folder + "/" + entry + "/" + article)
        }
      }
    }
    return result
  }

  /// The ```swift blocks of a Markdown document, without their import lines.
  static func blocks(_ markdown: String) -> [[String]] {
    var result: [[String]] = []
    var current: [String]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        result.append(current!)
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    return result.map { lines in
      var body = lines.filter { !$0.hasPrefix("import ") }
      while body.first == "" { body.removeFirst() }
      return body
    }
  }

  /// The README regions of every test file here: document path → its regions, in order.
  static func regions() throws -> [String: [[String]]] {
    var result: [String: [[String]]] = [:]
    let folder = root + "/Tests/ReadmeExampleTests"
    for file in entries(folder) where file.hasSuffix(".swift") {
      var current: (path: String, lines: [String], indent: Int)?
      for line in try text(folder + "/" + file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
        let trimmed = line.drop { $0 == " " }
        if trimmed.hasPrefix("// README ") {
          current = (String(trimmed.dropFirst("// README ".count)), [], line.count - trimmed.count)
        } else if trimmed == "// END README", let c = current {
          result[c.path, default: []].append(c.lines)
          current = nil
        } else if let c = current {
          current!.lines.append(line.count >= c.indent ? String(line.dropFirst(c.indent)) : "")
        }
      }
    }
    return result
  }

  @Test func everyDocumentedExampleIsATestedRegionLineForLine() throws {
    let regions = try Self.regions()
    let documents = Self.documents()
    #expect(documents.contains("Sources/Stage/README.md"), "found the documents")
    for document in documents {
      let blocks = Self.blocks(try Self.text(Self.root + "/" + document))
      let tested = regions[document] ?? []
      #expect(blocks.count == tested.count, "\(document): \(blocks.count) swift blocks, \(tested.count) tested regions")
      for (k, (block, region)) in zip(blocks, tested).enumerated() where block != region {
        let line =
          zip(block, region).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(block.count, region.count)
        Issue.record(
          """
          \(document), block \(k + 1), line \(line + 1) differs from its test:
            document: \(line < block.count ? block[line] : "(end)")
            test:     \(line < region.count ? region[line] : "(end)")
          """)
      }
    }
    for path in regions.keys { #expect(documents.contains(path), "a region names \(path), which has no examples") }
  }
}
