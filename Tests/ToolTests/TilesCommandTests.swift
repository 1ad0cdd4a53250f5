import Foundation
import Panorama
import Raster
import Testing

/// `imagestage pano tiles`: Pannellum's layout, tiles that show what the renderer shows, and
/// nothing left behind when it refuses.
@Suite("imagestage pano tiles")
struct TilesCommandTests {
  @Test func thePyramidIsPannellumsLayoutAndShowsWhatTheRendererShows() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("tiles").path
    let result = try Tool.run("imagestage", ["pano", "tiles", "sample", "-o", out, "--tile-size", "256", "--cube-size", "512"])
    #expect(result.status == 0, "\(result.stderr)")
    let config =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/config.json")))
      as! [String: Any]
    #expect(config["type"] as? String == "multires")
    let multires = config["multiRes"] as! [String: Any]
    #expect(multires["path"] as? String == "/%l/%s%y_%x" && multires["maxLevel"] as? Int == 2)
    #expect(multires["cubeResolution"] as? Int == 512 && multires["tileResolution"] as? Int == 256)
    // Relative, as the tiles' paths are under basePath: "/preview.jpg" would be the site's root.
    #expect(config["preview"] as? String == "preview.jpg")
    #expect(FileManager.default.fileExists(atPath: out + "/preview.jpg"))
    // 6 faces × (2×2 + 1) tiles, 6 fallback faces, the preview and the config.
    let files = FileManager.default.enumerator(atPath: out)!.compactMap { $0 as? String }.filter { $0.contains(".") }
    #expect(files.count == 30 + 6 + 2, "\(files.sorted())")
    #expect(files.contains("2/u1_0.jpg") && files.contains("1/d0_0.jpg") && files.contains("fallback/b.jpg"))
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("tiles.partial").path))

    // The front face's top-left tile is the top-left quarter of a 90° view straight ahead.
    let front = dir.appendingPathComponent("front.png").path
    #expect(
      try Tool.run("imagestage", ["pano", "render", "sample", "-o", front, "--hfov", "90", "--size", "512x512"]).status == 0)
    let view = try PanoCommandTests.decode(front)
    let tile = try PanoCommandTests.decode(out + "/2/f0_0.jpg")
    var quarter = RGBAImage(width: 256, height: 256)
    for y in 0..<256 { for x in 0..<256 { quarter[x, y] = view[x, y] } }
    let score = tile.psnr(against: quarter)
    #expect(score > 32, "PSNR \(score)")
    // The coarsest level is the finest halved: its face is the view at half size.
    let coarse = try PanoCommandTests.decode(out + "/1/f0_0.jpg")
    #expect(coarse.width == 256 && coarse.height == 256)

    // An existing directory is refused, and nothing is written beside it.
    let again = try Tool.run("imagestage", ["pano", "tiles", "sample", "-o", out])
    #expect(again.status != 0 && again.stderr.contains("already exists"))
    // What it holds is named as an entry: "holds 1" read as a count.
    #expect(
      again.stderr.contains("already exists and is not empty (it holds the folder \"1\" and "), "\(again.stderr)")
    let siblings = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(!siblings.contains { $0.contains(".partial-") }, "\(siblings)")
  }

  /// Interrupted mid-run (Ctrl-C): exit 130, and nothing half-written left anywhere.
  @Test func anInterruptLeavesNothingBehind() throws {
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "4096x2048"]).status == 0)
    let out = dir.appendingPathComponent("tiles").path
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    process.arguments = ["pano", "tiles", source, "-o", out, "--tile-size", "128", "--threads", "1"]
    let err = Pipe()
    process.standardError = err
    try process.run()
    // Wait for the first tiles, then interrupt.
    let partial = "\(out).partial-\(process.processIdentifier)"
    var waited = 0
    while waited < 600, (try? FileManager.default.contentsOfDirectory(atPath: partial + "/5"))?.isEmpty ?? true {
      usleep(50_000)
      waited += 1
    }
    #expect(process.isRunning, "still tiling when interrupted")
    kill(process.processIdentifier, SIGINT)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130, "\(message)")
    #expect(message.contains("interrupted"), "\(message)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left == ["pano.jpg"], "\(left)")
  }

  /// An empty folder takes a pyramid; one that holds anything is replaced only with
  /// --force, and whole; a run killed with SIGKILL leaves DIR.partial-PID, which the next
  /// run removes and names.
  @Test func anEmptyFolderTakesAPyramidForceReplacesOneAndLeftoversAreCleaned() throws {
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "2048x1024"]).status == 0)
    let out = dir.appendingPathComponent("tiles")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
    let small = ["--tile-size", "128", "--cube-size", "256", "--fallback-size", "64"]
    let first = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out.path] + small)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.path + "/config.json"))

    try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
    let refused = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out.path] + small)
    #expect(refused.status == 2 && refused.stderr.contains("--force"), "\(refused.stderr)")
    #expect(FileManager.default.fileExists(atPath: out.path + "/notes.txt"))

    // Killed outright mid-run: its temporary folder stays, the old pyramid too.
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    process.arguments = ["pano", "tiles", source, "-o", out.path, "--force", "--tile-size", "128", "--threads", "1"]
    process.standardError = FileHandle.nullDevice
    try process.run()
    let partial = "\(out.path).partial-\(process.processIdentifier)"
    var waited = 0
    while waited < 600, !FileManager.default.fileExists(atPath: partial + "/1") {
      usleep(20_000)
      waited += 1
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(FileManager.default.fileExists(atPath: partial), "the killed run's leftover")
    #expect(FileManager.default.fileExists(atPath: out.path + "/notes.txt"))

    let forced = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out.path, "--force"] + small)
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(forced.stderr.contains("removed \(partial), left by an earlier run that was killed"), "\(forced.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path + "/notes.txt"), "replaced whole")
    #expect(FileManager.default.fileExists(atPath: out.path + "/config.json"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["pano.jpg", "tiles"])
  }

  /// A 360°-wide panorama that stops short of the poles (the sample's middle 90°): above and
  /// below it is background, in a view and in the tiles (it was its edge rows, smeared),
  /// `--background` colours it there, and the config says whether the viewer must keep it
  /// out of sight.
  @Test func aPartialPanoramaShowsBackgroundBeyondItsRows() throws {
    let dir = try Tool.temporaryDirectory()
    let sample = dir.appendingPathComponent("sample.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", sample, "--size", "1024x512"]).status == 0)
    let full = try PanoCommandTests.decode(sample)
    var band = RGBAImage(width: 1024, height: 256)
    for y in 0..<256 { for x in 0..<1024 { band[x, y] = full[x, y + 128] } }
    let partial = dir.appendingPathComponent("partial.png").path
    try Data(try Raster.encodePNG(band)).write(to: URL(fileURLWithPath: partial))
    func colour(_ image: RGBAImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
      let c = RGBAImage.unpack(image[x, y])
      return (Int(c.r), Int(c.g), Int(c.b))
    }

    // Looking 80° up, 35° above the top row: the view's top is background, not sky.
    let up = dir.appendingPathComponent("up.png").path
    let render = try Tool.run("imagestage", ["pano", "render", partial, "-o", up, "--pitch", "80", "--size", "160x120"])
    #expect(render.status == 0, "\(render.stderr)")
    let view = try PanoCommandTests.decode(up)
    #expect(colour(view, 80, 60) == (0, 0, 0) && colour(view, 5, 5) == (0, 0, 0), "\(colour(view, 80, 60))")

    let tiles = dir.appendingPathComponent("tiles").path
    let small = ["--tile-size", "128", "--cube-size", "256", "--fallback-size", "64"]
    let made = try Tool.run("imagestage", ["pano", "tiles", partial, "-o", tiles, "--background", "#3366CC"] + small)
    #expect(made.status == 0, "\(made.stderr)")
    for face in ["1/u0_0.jpg", "1/d0_0.jpg", "fallback/u.jpg"] {
      let c = colour(try PanoCommandTests.decode(tiles + "/" + face), 32, 32)
      #expect(abs(c.0 - 51) < 8 && abs(c.1 - 102) < 8 && abs(c.2 - 204) < 8, "\(face): \(c)")
    }
    func config(_ folder: String) throws -> [String: Any] {
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/config.json"))) as? [String: Any]
        ?? [:]
    }
    let coloured = try config(tiles)
    let avoids = coloured["avoidShowingBackground"] as? Bool
    #expect(avoids == false, "the background is drawn")
    #expect((coloured["vaov"] as? NSNumber)?.doubleValue == 90)

    let plain = dir.appendingPathComponent("plain").path
    #expect(try Tool.run("imagestage", ["pano", "tiles", partial, "-o", plain] + small).status == 0)
    let black = colour(try PanoCommandTests.decode(plain + "/1/u0_0.jpg"), 32, 32)
    #expect(black.0 < 8 && black.1 < 8 && black.2 < 8, "\(black)")
    let avoidsPlain = try config(plain)["avoidShowingBackground"] as? Bool
    #expect(avoidsPlain == true)
  }

  /// A pyramid's folder is the pyramid for `pano render` too, as IN and as --config (as
  /// `pano info` and the app take it).
  @Test func renderTakesAPyramidsFolder() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("tiles").path
    let made = try Tool.run(
      "imagestage", ["pano", "tiles", "sample", "-o", out, "--tile-size", "128", "--cube-size", "256", "--fallback-size", "64"])
    #expect(made.status == 0, "\(made.stderr)")
    let camera = ["--yaw", "30", "--size", "64x48"]
    var rendered: [Data] = []
    for args in [[out], [out + "/"], ["--config", out], ["--config", out + "/config.json"]] {
      let png = dir.appendingPathComponent("v.png").path
      let r = try Tool.run("imagestage", ["pano", "render"] + args + ["-o", png] + camera)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      rendered.append(try Data(contentsOf: URL(fileURLWithPath: png)))
    }
    #expect(Set(rendered).count == 1, "the same view each way")
  }

  /// Bad options and bad input: a clear error naming what is wrong, and no directory.
  @Test(arguments: [
    (["--tile-size", "255"], "must be even"),
    (["--background", "2,0,0"], "--background"),
    (["--max-memory", "64", "--cube-size", "8192"], "over --max-memory"),
    // A batch of drawn tiles counts too: 1239 MB of waiting parents alone passed, then the
    // run drew 20 GB of tiles before writing one.
    (["--max-memory", "1300", "--cube-size", "30000"], "over --max-memory 1300 (MB): give a smaller --cube-size"),
    (["--cube-size", "20", "--tile-size", "16"], ""),
    (["--cube-size", "16", "--tile-size", "16"], "in 1 level ("),
  ])
  func badOptionsAreRefused(_ options: [String], _ expected: String) throws {
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "512x256"]).status == 0)
    let out = dir.appendingPathComponent("tiles").path
    let result = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out] + options)
    if expected.isEmpty || expected.hasPrefix("in ") {
      #expect(result.status == 0, "a tiny pyramid is still one: \(result.stderr)")
      #expect(expected.isEmpty || result.stdout.contains(expected), "\(result.stdout)")
      return
    }
    #expect(result.status != 0 && result.stderr.contains(expected), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pano.jpg"])
  }

  @Test func aTruncatedJPEGNamesItsFileAndLeavesNothing() throws {
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "1024x512"]).status == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
    try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: source))
    let out = dir.appendingPathComponent("tiles").path
    let result = try Tool.run("imagestage", ["pano", "tiles", source, "-o", out])
    #expect(result.status != 0 && result.stderr.contains("pano.jpg") && result.stderr.contains("corrupt"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pano.jpg"])
  }

  /// `pano render --config` and `pano info` on a pyramid: the view the source gives, reading
  /// only the tiles it needs; broken tiles named and drawn coarser; a config whose sizes do
  /// not match its files, or whose pyramid cannot be, said plainly.
  @Test func aTiledConfigRendersAndIsCheckedTileByTile() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("tiles").path
    // 512 px faces in 128 px tiles: three levels, as 1024 in 256 would be, at a quarter of
    // the debug build's drawing time.
    #expect(
      try Tool.run("imagestage", ["pano", "tiles", "sample", "-o", out, "--tile-size", "128", "--cube-size", "512"]).status
        == 0)
    // 320 px across 90°: the finest level (512 px faces) is the one read.
    let camera = ["--yaw", "30", "--pitch", "20", "--hfov", "90", "--size", "320x240"]
    let reference = dir.appendingPathComponent("reference.png").path
    #expect(try Tool.run("imagestage", ["pano", "render", "sample", "-o", reference] + camera).status == 0)
    let tiled = dir.appendingPathComponent("tiled.png").path
    let config = out + "/config.json"
    let result = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", tiled] + camera)
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let score = try PanoCommandTests.decode(tiled).psnr(against: PanoCommandTests.decode(reference))
    #expect(score > 30, "tiled render vs the source's: \(score) dB")

    let info = try Tool.run("imagestage", ["pano", "info", out])
    #expect(info.status == 0 && info.stdout.contains(#""tiles":126,"problemCount":0"#), "\(info.stdout)\(info.stderr)")

    // A finest tile gone, one not an image, one of the wrong size.
    try FileManager.default.removeItem(atPath: out + "/3/f1_2.jpg")
    try Data("not a picture".utf8).write(to: URL(fileURLWithPath: out + "/3/f1_1.jpg"))
    try FileManager.default.removeItem(atPath: out + "/3/f2_1.jpg")
    try FileManager.default.copyItem(atPath: out + "/preview.jpg", toPath: out + "/3/f2_1.jpg")
    let broken = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", tiled] + camera)
    #expect(broken.status == 0, "\(broken.stderr)")
    #expect(broken.stderr.contains("3/f1_2.jpg: No such file"), "\(broken.stderr)")
    #expect(broken.stderr.contains("3/f1_1.jpg: not a JPEG or PNG file"), "\(broken.stderr)")
    #expect(broken.stderr.contains("3/f2_1.jpg: is 1024×512, expected 128×128"), "\(broken.stderr)")
    #expect(broken.stderr.contains("3 of "), "\(broken.stderr)")
    let coarser = try PanoCommandTests.decode(tiled).psnr(against: PanoCommandTests.decode(reference))
    #expect(coarser > 24, "still the picture, coarser in places: \(coarser) dB")
    // A tile cut short (a copy that failed half way): its header is whole, its end is not.
    let back = try Data(contentsOf: URL(fileURLWithPath: out + "/3/b0_0.jpg"))
    try back.prefix(back.count * 3 / 4).write(to: URL(fileURLWithPath: out + "/3/b0_0.jpg"))
    let checked = try Tool.run("imagestage", ["pano", "info", config])
    // Exit 1, as docs/cli.md says (it ran, and found the pyramid broken).
    #expect(checked.status == 1 && checked.stdout.contains(#""problemCount":4"#), "\(checked.stdout)")
    #expect(checked.stdout.contains("3/b0_0.jpg: is cut short"), "\(checked.stdout)")
    #expect(checked.stderr.contains("4 of 126 tiles missing or wrong"), "\(checked.stderr)")

    // cubeResolution that does not match the files: every level's sizes are wrong.
    var text = try String(contentsOfFile: config, encoding: .utf8)
    text = text.replacingOccurrences(of: #""cubeResolution":512"#, with: #""cubeResolution":1024"#)
    text = text.replacingOccurrences(of: #""maxLevel":3"#, with: #""maxLevel":4"#)
    try text.write(toFile: config, atomically: true, encoding: .utf8)
    let mismatch = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", tiled] + camera)
    // The files end at level 3, so the view's level 4 is not there at all: one hint names the
    // keys, and the flood of missing tiles is cut to the first 20.
    #expect(mismatch.stderr.contains("cubeResolution 1024") && mismatch.stderr.contains("maxLevel 4"), "\(mismatch.stderr)")
    #expect(
      mismatch.stderr.split(separator: "\n").filter { $0.contains("drawn from a coarser level") }.count <= 20,
      "\(mismatch.stderr)")
    // A pyramid that cannot be: refused at the key, before any tile is read.
    try text.replacingOccurrences(of: #""maxLevel":4"#, with: #""maxLevel":40"#).write(
      toFile: config, atomically: true, encoding: .utf8)
    let impossible = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", tiled] + camera)
    #expect(
      impossible.status != 0 && impossible.stderr.contains("multiRes.maxLevel: must be from 1 to 20"), "\(impossible.stderr)")
  }

  /// `pano video` from a pyramid: the frames the source's own video has (yaw, pitch and the
  /// phone's roll), reading tiles as the frames need them.
  @Test func aVideoFromTheTilesIsTheSourcesVideo() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("tiles").path
    // 512 px faces: more than the 320 px frames need across their field of view.
    #expect(
      try Tool.run("imagestage", ["pano", "tiles", "sample", "-o", out, "--tile-size", "256", "--cube-size", "512"]).status
        == 0)
    // Turning 60° about the phone's y axis over a second: the view rolls and looks down.
    let log = dir.appendingPathComponent("turn.csv")
    try Data("t,qx,qy,qz,qw\n0,0,0,0,1\n0.5,0,0.2588,0,0.9659\n1.0,0,0.5,0,0.866\n".utf8).write(to: log)
    let fromImage = dir.appendingPathComponent("image").path, fromTiles = dir.appendingPathComponent("tiled").path
    let common = ["--motion", log.path, "--size", "320x240", "--fps", "10"]
    #expect(try Tool.run("imagestage", ["pano", "video", "sample", "-o", fromImage] + common).status == 0)
    let tiled = try Tool.run("imagestage", ["pano", "video", out, "-o", fromTiles] + common)
    #expect(tiled.status == 0, "\(tiled.stderr)")
    for frame in ["frame-00001.png", "frame-00006.png", "frame-00011.png"] {
      let a = try PanoCommandTests.decode(fromImage + "/" + frame), b = try PanoCommandTests.decode(fromTiles + "/" + frame)
      let score = a.psnr(against: b)
      #expect(score > 30, "\(frame): \(score) dB")
    }
  }

  /// A `cubemap` config (Pannellum's six faces) renders as the source does; here the faces
  /// are the tiler's fallback faces, so this also checks their orientation.
  @Test func aCubemapConfigOfTheFallbackFacesRendersAsTheSource() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("tiles").path
    #expect(
      try Tool.run(
        "imagestage",
        [
          "pano", "tiles", "sample", "-o", out, "--fallback-size", "512",
          // Only the fallback faces are read (no larger than the cube's): one level beside them.
          "--cube-size", "512", "--tile-size", "512",
        ]
      ).status == 0)
    let faces = ["f", "r", "b", "l", "u", "d"].map { "\"fallback/\($0).jpg\"" }.joined(separator: ", ")
    let config = out + "/cube.json"
    try Data(#"{"type": "cubemap", "cubeMap": [\#(faces)]}"#.utf8).write(to: URL(fileURLWithPath: config))
    let info = try Tool.run("imagestage", ["pano", "info", config])
    #expect(info.status == 0 && info.stdout.contains(#""type":"cubemap","cubeResolution":512"#), "\(info.stdout)\(info.stderr)")
    for (yaw, pitch) in [("45", "0"), ("200", "60"), ("-30", "-80")] {
      let camera = ["--yaw", yaw, "--pitch", pitch, "--hfov", "90", "--size", "320x240"]
      let reference = dir.appendingPathComponent("reference.png").path, cube = dir.appendingPathComponent("cube.png").path
      #expect(try Tool.run("imagestage", ["pano", "render", "sample", "-o", reference] + camera).status == 0)
      let result = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", cube] + camera)
      #expect(result.status == 0, "\(result.stderr)")
      let score = try PanoCommandTests.decode(cube).psnr(against: PanoCommandTests.decode(reference))
      #expect(score > 28, "yaw \(yaw) pitch \(pitch): \(score) dB")
    }
  }
}
