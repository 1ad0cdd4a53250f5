import Foundation
import Testing

/// The CLI on input it must not trust (issue 39): a config that names files outside its
/// folder, links planted where the CLI cleans up or writes, FIFOs named as inputs, and file
/// names holding newlines and escape codes.
@Suite("Untrusted input")
struct UntrustedInputTests {
  /// A folder holding `tour/` (a config and its own image) beside `secret/` (a file the config
  /// must not reach).
  static func tourBesideASecret() throws -> (dir: URL, tour: URL, secret: String) {
    let dir = try Tool.temporaryDirectory()
    let tour = dir.appendingPathComponent("tour"), secret = dir.appendingPathComponent("secret")
    for folder in [tour, secret] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    let secretImage = secret.appendingPathComponent("private.png").path
    for path in [secretImage, tour.appendingPathComponent("own.png").path] {
      let made = try Tool.run("imagestage", ["pano", "sample", "-o", path, "--size", "256x128"])
      #expect(made.status == 0, "\(made.stderr)")
    }
    return (dir, tour, secretImage)
  }

  static func render(_ config: String, scene: String, _ extra: [String] = [], in dir: URL) throws -> Tool.Result {
    try Tool.run(
      "imagestage",
      [
        "pano", "render", "--config", config, "--scene", scene, "-o", dir.appendingPathComponent("out.png").path, "--size",
        "64x32",
      ]
        + extra)
  }

  /// By default a config reads only inside its own folder: `..`, absolute paths, `basePath`,
  /// `file://`, links out of the folder and links that lead nowhere are refused in the
  /// same words, which name the key and say nothing of the file behind the path.
  @Test func aConfigReadsOnlyInsideItsOwnFolder() throws {
    let (dir, tour, secret) = try Self.tourBesideASecret()
    let secretFolder = (secret as NSString).deletingLastPathComponent
    try FileManager.default.createSymbolicLink(
      atPath: tour.appendingPathComponent("link.png").path, withDestinationPath: secret)
    try FileManager.default.createSymbolicLink(
      atPath: tour.appendingPathComponent("rooms").path, withDestinationPath: secretFolder)
    try FileManager.default.createSymbolicLink(
      atPath: tour.appendingPathComponent("dangling.png").path, withDestinationPath: secretFolder + "/none.png")
    let config = tour.appendingPathComponent("tour.json").path
    try Data(
      """
      {"default": {"firstScene": "own"},
       "scenes": {"own": {"panorama": "own.png"},
                  "ownInFull": {"panorama": "\(tour.path)/own.png"},
                  "up": {"panorama": "../secret/private.png"},
                  "upMissing": {"panorama": "../secret/none.png"},
                  "absolute": {"panorama": "\(secret)"},
                  "base": {"basePath": "../secret/", "panorama": "private.png"},
                  "url": {"panorama": "file://\(secret)"},
                  "link": {"panorama": "link.png"},
                  "linkedFolder": {"panorama": "rooms/private.png"},
                  "dangling": {"panorama": "dangling.png"},
                  "cube": {"type": "cubemap", "cubeMap": ["../secret/private.png", "a.png", "a.png", "a.png", "a.png", "a.png"]},
                  "tiles": {"type": "multires", "basePath": "../secret",
                            "multiRes": {"path": "/%l/%s%y_%x", "extension": "png", "tileResolution": 64, "maxLevel": 1, "cubeResolution": 64}}}}
      """.utf8
    ).write(to: URL(fileURLWithPath: config))

    for scene in ["own", "ownInFull"] {
      let r = try Self.render(config, scene: scene, in: dir)
      #expect(r.status == 0, "\(scene): \(r.stderr)")
    }
    for (scene, key) in [
      ("up", "scenes.up.panorama"), ("upMissing", "scenes.upMissing.panorama"), ("absolute", "scenes.absolute.panorama"),
      ("base", "scenes.base.panorama"), ("url", "scenes.url.panorama"), ("link", "scenes.link.panorama"),
      ("linkedFolder", "scenes.linkedFolder.panorama"), ("dangling", "scenes.dangling.panorama"),
      ("cube", "scenes.cube.cubeMap[0]"), ("tiles", "scenes.tiles.multiRes.path"),
    ] {
      let r = try Self.render(config, scene: scene, in: dir)
      #expect(r.status == 2, "\(scene): \(r.stderr)")
      let said = r.stderr.lowercased()
      #expect(r.stderr.contains(key) && r.stderr.contains("--allow-outside-paths"), "\(scene): \(r.stderr)")
      #expect(said.contains(scene == "url" ? "file://" : "outside the config's folder"), "\(scene): \(r.stderr)")
      // Nothing about the file behind the path: neither "no such file" nor "permission".
      #expect(!said.contains("no such") && !said.contains("exist") && !said.contains("permission"), "\(scene): \(r.stderr)")
    }
    // A trusted config reads where it points.
    for scene in ["up", "absolute", "base", "url", "link", "linkedFolder"] {
      let r = try Self.render(config, scene: scene, ["--allow-outside-paths"], in: dir)
      #expect(r.status == 0, "\(scene), trusted: \(r.stderr)")
    }
  }

  /// `imagestage args…` killed if it runs past `seconds`: (status, stderr, whether it had to
  /// be killed). A hang is the failure these tests look for.
  static func runBounded(_ args: [String], seconds: Double = 30) throws -> (status: Int32, stderr: String, hung: Bool) {
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    process.arguments = args
    process.currentDirectoryURL = Tool.packageRoot
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    let hung = process.isRunning
    if hung { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, message, hung)
  }

  /// `pano tiles` removes a dead run's leftover before it starts: a link named like one
  /// is removed itself, and the folder it points at keeps its files.
  @Test func aLinkNamedLikeALeftoverKeepsWhatItPointsAt() throws {
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("pano.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "256x128"]).status == 0)
    let photos = dir.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: photos.appendingPathComponent("holiday.jpg"))
    let out = dir.appendingPathComponent("tiles").path
    // A process id no process has: the "leftover" of a dead run.
    try FileManager.default.createSymbolicLink(atPath: out + ".partial-2147483000", withDestinationPath: photos.path)
    let r = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out, "--tile-size", "64"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: photos.path) == ["holiday.jpg"])
    #expect(try Data(contentsOf: photos.appendingPathComponent("holiday.jpg")) == Data("keep me".utf8))
    #expect(!FileManager.default.fileExists(atPath: out + ".partial-2147483000"))
  }

  /// A FIFO named as an input, in a config, or as the config is refused by name at once: it
  /// hung the CLI, waiting for a writer.
  @Test func aFIFOIsRefusedNotWaitedOn() throws {
    let dir = try Tool.temporaryDirectory()
    let fifo = dir.appendingPathComponent("pipe.png").path
    #expect(mkfifo(fifo, 0o644) == 0)
    let config = dir.appendingPathComponent("tour.json").path
    try Data(#"{"panorama": "pipe.png"}"#.utf8).write(to: URL(fileURLWithPath: config))
    let fifoConfig = dir.appendingPathComponent("fifo.json").path
    #expect(mkfifo(fifoConfig, 0o644) == 0)
    let fifoLog = dir.appendingPathComponent("log.csv").path
    #expect(mkfifo(fifoLog, 0o644) == 0)
    let out = dir.appendingPathComponent("out.png").path
    for (args, named) in [
      (["pano", "info", fifo], fifo), (["pano", "render", fifo, "-o", out], fifo),
      (["pano", "render", "--config", config, "-o", out], fifo),
      (["pano", "render", "--config", fifoConfig, "-o", out], fifoConfig),
      (["pano", "info", dir.appendingPathComponent("pipe.mp4").path], dir.appendingPathComponent("pipe.mp4").path),
      (["pano", "video", "sample", "--motion", fifoLog, "-o", "-"], fifoLog),
    ] {
      if named.hasSuffix(".mp4") && !FileManager.default.fileExists(atPath: named) { #expect(mkfifo(named, 0o644) == 0) }
      let r = try Self.runBounded(args, seconds: 20)
      #expect(!r.hung, "\(args) hung")
      #expect(r.status == 2 && r.stderr.contains(named) && r.stderr.contains("not a regular file"), "\(args): \(r.stderr)")
    }
  }

  /// A file name holding a newline and an escape code is printed escaped: it can neither
  /// forge a line of the CLI's output nor turn the terminal red.
  @Test func controlCharactersInFileNamesArePrintedEscaped() throws {
    let dir = try Tool.temporaryDirectory()
    let name = "evil\nimagestage: all good\u{1b}[31m.jpg"
    let path = dir.appendingPathComponent(name).path
    try Data("not a JPEG".utf8).write(to: URL(fileURLWithPath: path))
    let config = dir.appendingPathComponent("tour.json").path
    try Data(#"{"panorama": "evil\nimagestage: all good\u001b[31m.jpg"}"#.utf8).write(to: URL(fileURLWithPath: config))
    let out = dir.appendingPathComponent("out.png").path
    for args in [
      ["pano", "info", path], ["pano", "render", path, "-o", out], ["pano", "info", path + "-missing"],
      ["pano", "render", "--config", config, "-o", out], ["pano", "render", "sample", "-o", path + ".png/x.png"],
    ] {
      let r = try Tool.run("imagestage", args)
      #expect(r.status != 0)
      #expect(!r.stderr.contains("\u{1b}"), "\(args): raw escape code in \(r.stderr.debugDescription)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(args): one line, \(r.stderr.debugDescription)")
      #expect(r.stderr.contains(#"evil\nimagestage: all good\u{1b}[31m.jpg"#), "\(args): \(r.stderr.debugDescription)")
    }
  }
}
