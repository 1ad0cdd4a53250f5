import Foundation
import Panorama
import Raster
import Testing

@Suite("imagestage pano", .serialized)
struct PanoCommandTests {
  static func decode(_ path: String) throws -> RGBAImage {
    try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).image
  }

  @Test func sampleInfoAndRenderAgreeOnDirections() throws {
    let dir = try Tool.temporaryDirectory()
    let sample = dir.appendingPathComponent("s.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", sample, "--size", "1024x512"]).status == 0)
    let info = try Tool.run("imagestage", ["pano", "info", sample])
    let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
    #expect(json["width"] as? Int == 1024 && json["hfov"] as? Int == 360 && json["wraps"] as? Bool == true)

    // Yaw 0 looks at the centre column: the sample's red N, 5° below the horizon.
    let view = dir.appendingPathComponent("v.png").path
    let result = try Tool.run(
      "imagestage", ["pano", "render", sample, "-o", view, "--pitch", "-5", "--hfov", "30", "--size", "200x100"])
    #expect(result.status == 0, "\(result.stderr)")
    let image = try Self.decode(view)
    #expect(image.width == 200 && image.height == 100)
    let redColumns = (0..<200).filter { x in
      (30..<70).contains { y in
        let c = RGBAImage.unpack(image[x, y])
        return c.r > 180 && c.g < 90
      }
    }
    let mid = Double(redColumns.reduce(0, +)) / Double(max(redColumns.count, 1))
    #expect(!redColumns.isEmpty && abs(mid - 100) < 6, "red N centred: \(redColumns)")
  }

  /// `pano render --config`: a tour's scene with its own camera, read by the viewer's rules.
  @Test func aConfigsSceneRendersWithItsCameraAndBadOnesAreNamed() throws {
    let dir = try Tool.temporaryDirectory()
    #expect(
      try Tool.run("imagestage", ["pano", "sample", "-o", dir.appendingPathComponent("s.png").path, "--size", "1024x512"]).status
        == 0)
    let config = dir.appendingPathComponent("tour.json").path
    try Data(
      """
      {"default": {"firstScene": "ahead"},
       "scenes": {"ahead": {"panorama": "s.png", "pitch": -5, "hfov": 30},
                  "behind": {"panorama": "s.png", "yaw": 180, "pitch": -5, "hfov": 30},
                  "cube": {"type": "cubemap"}, "far": {"panorama": "https://example.org/p.jpg"}}}
      """.utf8
    ).write(to: URL(fileURLWithPath: config))
    func redCentre(_ extra: [String]) throws -> Double? {
      let out = dir.appendingPathComponent("v.png").path
      let result = try Tool.run("imagestage", ["pano", "render", "--config", config, "-o", out, "--size", "200x100"] + extra)
      #expect(result.status == 0, "\(result.stderr)")
      let image = try Self.decode(out)
      let red = (0..<200).filter { x in
        (30..<70).contains { y in RGBAImage.unpack(image[x, y]).r > 180 && RGBAImage.unpack(image[x, y]).g < 90 }
      }
      return red.isEmpty ? nil : Double(red.reduce(0, +)) / Double(red.count)
    }
    // The first scene looks at the sample's red N (yaw 0, 5° down); the other one away from it,
    // unless --yaw turns it back.
    let ahead = try #require(try redCentre([]))
    #expect(abs(ahead - 100) < 6)
    #expect(try redCentre(["--scene", "behind"]) == nil)
    #expect(try redCentre(["--scene", "behind", "--yaw", "0"]).map { abs($0 - 100) < 6 } == true)
    for (scene, words) in [
      ("cube", "no \"cubeMap\" list of six face images"), ("far", "not web addresses"), ("nowhere", "its scenes: ahead, behind"),
    ] {
      let r = try Tool.run(
        "imagestage", ["pano", "render", "--config", config, "--scene", scene, "-o", dir.appendingPathComponent("x.png").path])
      #expect(r.status != 0 && r.stderr.contains(words), "\(scene): \(r.stderr)")
    }
  }

  /// A tour with stale entries renders its good scenes, each entry a warning on stderr with
  /// its key path, line and column; a scene that cannot be shown still fails when asked for.
  @Test func aTourWithStaleEntriesRendersWithWarnings() throws {
    let dir = try Tool.temporaryDirectory()
    #expect(
      try Tool.run("imagestage", ["pano", "sample", "-o", dir.appendingPathComponent("s.png").path, "--size", "512x256"]).status
        == 0)
    let config = dir.appendingPathComponent("tour.json").path
    try Data(
      """
      {"default": {"firstScene": "hall"},
       "scenes": {"hall": {"panorama": "s.png", "hotSpots": [{"pitch": 0, "yaw": 0, "type": "scene", "sceneId": "gone"}]},
                  "kitchen": {"panorama": "s.png", "hfov": "wide"},
                  "attic": {"panorama": 3}}}
      """.utf8
    ).write(to: URL(fileURLWithPath: config))
    let out = dir.appendingPathComponent("v.png").path
    for scene in ["hall", "kitchen"] {
      let r = try Tool.run("imagestage", ["pano", "render", "--config", config, "--scene", scene, "-o", out, "--size", "64x32"])
      #expect(r.status == 0, "\(scene): \(r.stderr)")
      for warning in [
        "scenes.hall.hotSpots[0].sceneId: names no scene (\"gone\")", "(line 2, column 56)",
        "scenes.kitchen.hfov: expected a number, found a string; ignored (line 3, column 54)",
        "scenes.attic.panorama: expected a string, found a number; ignored",
      ] {
        #expect(r.stderr.contains(warning), "\(scene): \(warning) in \(r.stderr)")
      }
    }
    let attic = try Tool.run("imagestage", ["pano", "render", "--config", config, "--scene", "attic", "-o", out])
    #expect(attic.status != 0 && attic.stderr.contains("scene \"attic\""), "\(attic.stderr)")
  }

  /// `pano sample --size 8x4` trapped in SamplePanorama's precondition (the process died of
  /// SIGILL with "sample panorama too small"); it now exits with the minimum in the message.
  @Test func aSampleBelowTheMinimumSizeIsAnErrorThatSaysTheMinimum() throws {
    let dir = try Tool.temporaryDirectory()
    let r = try Tool.run("imagestage", ["pano", "sample", "-o", dir.appendingPathComponent("s.png").path, "--size", "8x4"])
    #expect(r.status == 1 || r.status == 2, "exit \(r.status): \(r.stderr)")
    #expect(r.stderr.contains("width: 8 is below the minimum of 16"), "\(r.stderr)")
  }

  @Test func mipmapsStopAStripOfFineDetailFromAliasing() throws {
    // One-pixel black and white columns, fitted to a view 8.5× lower: without mip levels the
    // strip skips columns and shows bands; with them (by default, as the strip minifies, or
    // asked for) every column is averaged in.
    var stripes = RGBAImage(width: 512, height: 256)
    for y in 0..<256 {
      for x in 0..<512 { stripes[x, y] = x % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
    }
    let dir = try Tool.temporaryDirectory()
    let source = dir.appendingPathComponent("stripes.png").path
    try Data(try Raster.encodePNG(stripes)).write(to: URL(fileURLWithPath: source))
    func spread(_ extra: [String]) throws -> Double {
      let out = dir.appendingPathComponent("strip.png").path
      let args = ["pano", "render", source, "-o", out, "--mode", "strip", "--size", "48x30"]
      let result = try Tool.run("imagestage", args + extra)
      #expect(result.status == 0, "\(result.stderr)")
      let reds = try Self.decode(out).pixels.map { Double(RGBAImage.unpack($0).r) }
      let mean = reds.reduce(0, +) / Double(reds.count)
      return (reds.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(reds.count)).squareRoot()
    }
    let aliased = try spread(["--no-mipmaps"]), averaged = try spread([]), asked = try spread(["--mipmaps"])
    #expect(aliased > 40, "\(aliased)")
    #expect(averaged < 3 && asked < 3, "\(averaged), \(asked)")
    let both = try Tool.run(
      "imagestage", ["pano", "render", source, "-o", dir.appendingPathComponent("x.png").path, "--mipmaps", "--no-mipmaps"])
    #expect(both.status != 0 && both.stderr.contains("--mipmaps and --no-mipmaps"), "\(both.status): \(both.stderr)")
    // A video builds them unasked: a wide view of the columns is grey, not crawling bands
    // (the same view rendered without them: 77 grey levels of spread). The log's phone lies flat, looking down;
    // --pitch 90 turns the view to the horizon.
    let log = dir.appendingPathComponent("still.csv")
    try Data("t,qx,qy,qz,qw\n0,0,0,0,1\n".utf8).write(to: log)
    let frames = dir.appendingPathComponent("frames").path
    let video = try Tool.run(
      "imagestage",
      [
        "pano", "video", source, "--motion", log.path, "--hfov", "120", "--pitch", "90", "--size", "48x30", "-o", frames,
      ])
    #expect(video.status == 0, "\(video.stderr)")
    let reds = try Self.decode(frames + "/frame-00001.png").pixels.map { Double(RGBAImage.unpack($0).r) }
    let mean = reds.reduce(0, +) / Double(reds.count)
    let videoSpread = (reds.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(reds.count)).squareRoot()
    #expect(videoSpread < 3, "\(videoSpread)")
  }

  @Test func videoFollowsTheLogToPNGsRawFramesAndMP4() throws {
    let dir = try Tool.temporaryDirectory()
    let frames = dir.appendingPathComponent("frames").path
    let camera = dir.appendingPathComponent("camera.jsonl").path
    // A small source: five runs of 64×48 frames spent their time drawing the 4096-wide sample
    // and its mip levels in the debug build.
    let source = dir.appendingPathComponent("sample.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "512x256"]).status == 0)
    let args = ["pano", "video", source, "--motion", "docs/examples/turn.csv", "--fps", "5", "--size", "64x48"]
    let result = try Tool.run("imagestage", args + ["-o", frames, "--camera-log", camera])
    #expect(result.status == 0, "\(result.stderr)")
    let pngs = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }.sorted()
    #expect(pngs.count == 61 && pngs.first == "frame-00001.png")
    // The log turns right at 30°/s for 12 s: yaw grows past 180° without a jump.
    let lines = try String(contentsOfFile: camera, encoding: .utf8).split(separator: "\n")
    let yaws = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }.map {
      $0["yaw"] as! Double
    }
    #expect(yaws.count == 61)
    #expect(abs(yaws[0]) < 1, "recentred at start")
    #expect(yaws.last! > 300 && yaws.last! < 370, "\(yaws.last!)")
    for (a, b) in zip(yaws, yaws.dropFirst()) { #expect(b - a > 0 && b - a < 12) }

    // Into a pipe the frames' pages are spliced (vmsplice); written, the same bytes.
    let raw = try Tool.run("imagestage", args + ["-o", "-"])
    #expect(raw.status == 0)
    #expect(raw.stdoutBytes == 61 * 64 * 48 * 4)
    let written = try Tool.run("imagestage", args + ["-o", "-"], environment: ["IMAGESTAGE_PIPE": "write"])
    #expect(written.status == 0)
    #expect(written.stdoutData == raw.stdoutData)

    let mp4 = dir.appendingPathComponent("v.mp4").path
    let video = try Tool.run("imagestage", args + ["-o", mp4])
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") {
      #expect(video.status == 0, "\(video.stderr)")
      #expect((try FileManager.default.attributesOfItem(atPath: mp4)[.size] as? Int ?? 0) > 1000)
      // Spliced into ffmpeg's input or written through stdio: the same file.
      let writtenMP4 = dir.appendingPathComponent("w.mp4").path
      let viaWrite = try Tool.run("imagestage", args + ["-o", writtenMP4], environment: ["IMAGESTAGE_PIPE": "write"])
      #expect(viaWrite.status == 0)
      #expect(FileManager.default.contentsEqual(atPath: mp4, andPath: writtenMP4))
    } else {
      #expect(video.status == 2 && video.stderr.contains("ffmpeg not found"))
    }
  }

  @Test func aReaderThatStopsEndsTheVideoCleanly() throws {
    // `| head -c 1000` closes the pipe after the first kilobyte of a 1080p frame: the run
    // must end (no wait for a reader that is gone), with SIGPIPE as `write` has it or with a
    // message, never a crash.
    let imagestage = Tool.productsDirectory.appendingPathComponent("imagestage").path
    let source = try Tool.temporaryDirectory().appendingPathComponent("sample.png").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", source, "--size", "1024x512"]).status == 0)
    let script =
      "\"$0\" pano video \"$1\" --motion docs/examples/turn.csv --size 1920x1080 -o - | head -c 1000 > /dev/null; echo \"${PIPESTATUS[0]}\""
    for mode in ["splice", "write"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments = ["-c", script, imagestage, source]
      process.currentDirectoryURL = Tool.packageRoot
      process.environment = ProcessInfo.processInfo.environment.merging(["IMAGESTAGE_PIPE": mode]) { $1 }
      let out = Pipe(), err = Pipe()
      process.standardOutput = out
      process.standardError = err
      try process.run()
      let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let code = Int(status.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
      #expect(code == 141 || (code == 1 && message.contains("standard output closed")), "\(mode): \(code) \(message)")
    }
  }

  @Test(arguments: [
    (["pano", "render", "/nonexistent.jpg", "-o", "/tmp/x.png"], "cannot open /nonexistent.jpg"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--pitch", "120"], "--pitch: 120 is outside"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--hfov", "200"], "--hfov: 200 is outside"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--lens", "mirror"], "--lens: \"mirror\" is not"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--lens", "fisheye", "--hfov", "361"], "--hfov: 361 is outside"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--size", "0x10"], "--size"),
    (["pano", "render", "sample", "-o", "/tmp/x.bmp", "--size", "10x10"], "unknown image type; use OUT.png"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--threads", "0"], "--threads: 0 is outside 1…64"),
    (["pano", "video", "sample", "-o", "Package.swift", "--motion", "docs/examples/turn.csv"], "that is a file"),
    (["pano", "video", "sample", "-o", "/tmp/imagestage-clip.webm", "--motion", "x.csv"], "unknown video type .webm"),
    (["pano", "video", "sample", "-o", "/tmp/imagestage-clip.avi", "--motion", "x.csv"], "OUT.mp4 (H.264"),
    (["pano", "render", "sample"], "needs -o"),
    (["pano", "video", "sample", "-o", "/tmp/f", "--motion", "Package.swift"], "unknown motion log header"),
    (["pano", "sample", "-o", "/tmp/x.jpg", "--size", "300x300"], "2:1"),
    (["pano", "spin"], "unknown pano command"),
    (["pano", "info", "docs/screenshots/locations.png", "--max-pixels", "0.1"], "over the limit of 0.1 megapixels"),
    // An image given as the motion log: said as such, not its bytes.
    (["pano", "video", "sample", "-o", "/tmp/f", "--motion", "docs/screenshots/locations.png"], "this is a PNG image"),
    // Ranges as they are written: whole numbers for whole-number options.
    (["pano", "tiles", "sample", "-o", "/tmp/imagestage-never", "--quality", "0"], "--quality: 0 is outside 1…100"),
    (["pano", "tiles", "sample", "-o", "/tmp/imagestage-never", "--quality", "7.5"], "--quality: \"7.5\" is not a whole"),
    (["pano", "render", "sample", "-o", "/tmp/x.png", "--max-pixels", "5000"], "--max-pixels: 5000 is outside 0.001…1000"),
    (["pano", "render", "Tests", "-o", "/tmp/x.png"], "Tests: a folder with no config.json"),
    (["pano", "render", "--config", "Tests", "-o", "/tmp/x.png"], "--config Tests: a folder with no config.json"),
  ])
  func badArgumentsAreClearErrors(args: [String], message: String) throws {
    let result = try Tool.run("imagestage", args)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("px a side"), "only the limit broken is named")
    #expect(!result.stderr.contains(".0…") && !result.stderr.contains("\u{FFFD}"), "\(result.stderr)")
    #expect(result.stderr.utf8.allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "no binary: \(result.stderr)")
    // Refused before anything ran: an unknown video type once became a folder of PNGs.
    #expect(!FileManager.default.fileExists(atPath: "/tmp/imagestage-clip.webm"))
  }

  @Test func aWriteThatFailsNamesTheFileAskedFor() throws {
    let dir = try Tool.temporaryDirectory()
    // A folder where the image should go: the rename into place fails.
    let sealed = dir.appendingPathComponent("sealed.png")
    try FileManager.default.createDirectory(at: sealed, withIntermediateDirectories: false)
    try Data().write(to: sealed.appendingPathComponent("inside"))
    let result = try Tool.run("imagestage", ["pano", "render", "sample", "--size", "16x8", "-o", sealed.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains(sealed.path) && !result.stderr.contains(".tmp-"), "\(result.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["sealed.png"])
  }

  /// One rule for an output whose folder is missing, for every command: refused with the
  /// same words before the input is even opened (here it does not exist either), and no
  /// folder made.
  @Test(arguments: [
    ["pano", "render", "/nonexistent.jpg", "-o", "MISSING/x.png"],
    ["pano", "sample", "-o", "MISSING/x.jpg"],
    ["pano", "video", "/nonexistent.jpg", "--motion", "docs/examples/turn.csv", "-o", "MISSING/v.mp4"],
    ["pano", "video", "/nonexistent.jpg", "--motion", "docs/examples/turn.csv", "-o", "MISSING/frames"],
    ["pano", "video", "/nonexistent.jpg", "--motion", "docs/examples/turn.csv", "-o", "-", "--camera-log", "MISSING/c.jsonl"],
    ["pano", "tiles", "/nonexistent.jpg", "-o", "MISSING/tiles"],
    ["pano", "reframe", "/nonexistent.mp4", "-o", "MISSING/r.mp4"],
  ])
  func anOutputInAMissingFolderIsRefusedFirst(args: [String]) throws {
    let dir = try Tool.temporaryDirectory()
    let missing = dir.appendingPathComponent("missing").path
    let result = try Tool.run("imagestage", args.map { $0.replacingOccurrences(of: "MISSING", with: missing) })
    #expect(result.status == 2, "\(result.stderr)")
    #expect(result.stderr.contains(": the folder \(missing) does not exist"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
  func rawFramesAreNotWrittenToATerminal() throws {
    // script(1) gives the command a terminal for standard output.
    let tool = Tool.productsDirectory.appendingPathComponent("imagestage").path
    let command = "\(tool) pano video sample -o - --motion docs/examples/turn.csv --size 16x8; echo status=$?"
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    p.arguments = ["-qec", command, "/dev/null"]
    p.currentDirectoryURL = Tool.packageRoot
    let out = Pipe()
    p.standardOutput = out
    p.standardInput = Pipe()
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(text.contains("standard output is a terminal") && text.contains("status=2"), "\(text)")
    #expect(!text.contains("or - for raw"), "the refusal does not suggest - again: \(text)")
  }

  @Test func aLogWithAWildTimestampIsRefusedNotRenderedForever() throws {
    let dir = try Tool.temporaryDirectory()
    let log = dir.appendingPathComponent("wild.csv")
    try "t,qx,qy,qz,qw\n0,0.7071068,0,0,0.7071068\n99999999,0.7071068,0,0,0.7071068\n".write(
      to: log, atomically: true, encoding: .utf8)
    let result = try Tool.run(
      "imagestage",
      ["pano", "video", "sample", "--motion", log.path, "-o", dir.appendingPathComponent("f").path, "--size", "32x16"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("check its timestamps"), "\(result.stderr)")
  }

  /// `pano info` reads the header and metadata, not the pixels: a JPEG whose data is cut
  /// short still says its size, and a big one costs no decode (it took 0.66 s and 539 MB
  /// for 16000 × 8000).
  @Test func infoReadsOnlyTheHeader() throws {
    let dir = try Tool.temporaryDirectory()
    let path = dir.appendingPathComponent("pano.jpg").path
    #expect(try Tool.run("imagestage", ["pano", "sample", "-o", path, "--size", "2048x1024"]).status == 0)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
    let info = try Tool.run("imagestage", ["pano", "info", path])
    #expect(info.status == 0 && info.stdout.contains(#""width":2048,"height":1024,"format":"jpeg""#), "\(info.stderr)")

    let time = "/usr/bin/time", ffmpeg = "/usr/bin/ffmpeg"
    guard FileManager.default.isExecutableFile(atPath: time) && FileManager.default.isExecutableFile(atPath: ffmpeg) else {
      return
    }
    let big = dir.appendingPathComponent("big.jpg").path
    func run(_ program: String, _ arguments: [String]) throws -> (out: String, err: String) {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: program)
      p.arguments = arguments
      let out = Pipe(), err = Pipe()
      p.standardOutput = out
      p.standardError = err
      try p.run()
      let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      p.waitUntilExit()
      return (o, e)
    }
    _ = try run(ffmpeg, ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=8000x4000", "-frames:v", "1", big])
    let tool = Tool.productsDirectory.appendingPathComponent("imagestage").path
    let measured = try run(time, ["-f", "maxrss=%M", tool, "pano", "info", big])
    let kilobytes = measured.err.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(measured.out.contains(#""width":8000"#), "\(measured.out)\(measured.err)")
    // Decoded, the pixels alone are 128 MB.
    #expect((kilobytes ?? .max) < 60_000, "\(measured.err)")
  }

  @Test func corruptAndHugeImagesAreRefused() throws {
    let dir = try Tool.temporaryDirectory()
    let bad = dir.appendingPathComponent("bad.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array(repeating: 7, count: 100)).write(to: bad)
    let result = try Tool.run("imagestage", ["pano", "info", bad.path])
    #expect(result.status == 2)
    #expect(result.stderr.contains("bad.jpg"))
  }
}
