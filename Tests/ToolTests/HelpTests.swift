import Foundation
import Panorama
import Raster
import Testing

@Suite("Help, version and completions")
struct HelpTests {
  static let commands: [(words: [String], options: [String])] = [
    (["board", "run"], ["--frames", "--state"]),
    (["pano", "info"], ["--projection", "--max-pixels"]),
    (["pano", "render"], ["--lens", "--mipmaps", "--no-mipmaps", "--max-pixels", "--hfov", "--output"]),
    (["pano", "video"], ["--motion", "--camera-log", "--raw-motion", "--lens", "--mipmaps"]),
    (["pano", "sample"], ["--size", "--output"]),
  ]

  @Test func everyCommandAnswersHelpWithItsOwnOptions() throws {
    for c in Self.commands {
      let r = try Tool.run("imagestage", c.words + ["--help"])
      #expect(r.status == 0, "\(c.words)")
      #expect(r.stdout.hasPrefix("usage: imagestage \(c.words.joined(separator: " "))"))
      for o in c.options { #expect(r.stdout.contains(o), "\(c.words) help lacks \(o)") }
    }
    let pano = try Tool.run("imagestage", ["pano", "--help"])
    #expect(pano.status == 0 && pano.stdout.contains("pano render") && !pano.stdout.contains("board run"))
    // Both forms of render are in the overview, and in render's own usage.
    let top = try Tool.run("imagestage", ["--help"])
    #expect(top.stdout.contains("imagestage pano render --config CONFIG.json|DIR"), "\(top.stdout)")
    #expect(try Tool.run("imagestage", ["pano", "render", "--help"]).stdout.contains("imagestage pano render --config"))
  }

  @Test func helpListsAllowedValuesAndDefaults() throws {
    let r = try Tool.run("imagestage", ["pano", "render", "--help"])
    #expect(r.stdout.contains("one of rectilinear, stereographic, fisheye, equirectangular (default rectilinear)"), "\(r.stdout)")
    #expect(r.stdout.contains("(default 90)") && r.stdout.contains("one of perspective, strip"))
    #expect(r.stdout.contains("one of clamp, repeat (default clamp)") && r.stdout.contains("one of equirect"))
  }

  /// What bash's completion offers for `words`, the last one being completed, with the
  /// script `imagestage completions bash` prints.
  static func bashCompletes(_ words: [String]) throws -> String {
    let script = try Tool.run("imagestage", ["completions", "bash"]).stdout
    let file = try Tool.temporaryDirectory().appendingPathComponent("c.bash")
    try script.write(to: file, atomically: true, encoding: .utf8)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    p.arguments = [
      "-c", "source \(file.path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _imagestage; echo ${COMPREPLY[@]}",
    ]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    p.waitUntilExit()
    return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  @Test func completionOffersTheShellsAfterCompletions() throws {
    #expect(try Self.bashCompletes(["imagestage", "completions", ""]).contains("bash zsh fish"))
  }

  /// The version printed is VERSION's (scripts/version copies it into the sources).
  @Test func bothToolsKnowTheirVersion() throws {
    let version = try String(contentsOf: Tool.packageRoot.appendingPathComponent("VERSION"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try Tool.run("imagestage", ["--version"]).stdout == "imagestage \(version)\n")
    #expect(try Tool.run("imagestage-app", ["--version"]).stdout == "imagestage-app \(version)\n")
    let help = try Tool.run("imagestage-app", ["--help"])
    #expect(help.status == 0 && help.stdout.contains("--photos DIR") && help.stdout.contains("next lens"))
  }

  @Test(arguments: ["bash", "zsh"])
  func completionScriptsParse(shell: String) throws {
    let r = try Tool.run("imagestage", ["completions", shell])
    #expect(r.status == 0 && r.stdout.contains("--mipmaps") && r.stdout.contains("stereographic"))
    guard shell == "bash" else { return }
    #expect(try Self.bashCompletes(["imagestage", "pano", "render", "x", "--le"]).contains("--lens"))
  }

  @Test func infoSaysWhatCoverageAPhotoIsAssumedToHave() throws {
    let dir = try Tool.temporaryDirectory()
    let path = dir.appendingPathComponent("photo.png").path
    try Data(try Raster.encodePNG(RGBAImage(width: 400, height: 300, fill: RGBAImage.pack(r: 9, g: 9, b: 9)))).write(
      to: URL(fileURLWithPath: path))
    let r = try Tool.run("imagestage", ["pano", "info", path])
    #expect(r.status == 0)
    #expect(r.stdout.contains("\"wraps\":false") && r.stdout.contains("\"hfov\":70") && r.stdout.contains("longer side assumed"))
  }
}
