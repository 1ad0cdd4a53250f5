import Foundation
import Panorama
import Testing

/// Short 360° clips made once with ffmpeg from the sample panorama (512 × 256, 30 fps): a
/// magenta marker moving right at 20° a second along the horizon, a flash and a tone that
/// both start at 1 s, V2 metadata written into the MP4 by scripts/spherical-metadata.py.
enum Clips {
  static let fps = 30.0
  static let dir: URL = {
    let dir = try! Tool.temporaryDirectory()
    func ffmpeg(_ args: [String]) { Clips.ffmpeg(args, in: dir) }
    func metadata(_ input: String, _ output: String, _ options: [String]) {
      Clips.metadata(dir.appendingPathComponent(input).path, dir.appendingPathComponent(output).path, options)
    }
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try! Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "512x256"])
    // The marker's centre: x = 256 + 512·(20t/360) px, on the horizon row.
    ffmpeg([
      "-loop", "1", "-i", pano, "-f", "lavfi", "-i", "color=0xFF00FF:s=12x12", "-filter_complex",
      "[0][1]overlay=x='250+512*20*t/360':y=122:shortest=1", "-t", "2", "-r", "30", "marker.mp4",
    ])
    // Black until 1 s, then the panorama; silence until 1 s, then a 1 kHz tone.
    ffmpeg([
      "-loop", "1", "-i", pano, "-f", "lavfi", "-i", "color=black:s=512x256", "-f", "lavfi", "-i",
      "aevalsrc='if(gte(t,1),0.5*sin(2*PI*1000*t),0)':s=48000:d=2", "-filter_complex",
      "[1][0]overlay=enable='gte(t,1)':shortest=1[v]", "-map", "[v]", "-map", "2:a", "-t", "2", "-r", "30", "-c:a", "aac",
      "tone.mp4",
    ])
    ffmpeg(["-loop", "1", "-i", pano, "-t", "1", "-r", "30", "plain.mp4"])
    // A left-right stereo pair: the panorama left, its negative right.
    ffmpeg([
      "-loop", "1", "-i", pano, "-filter_complex", "[0]split[a][b];[b]negate[n];[a][n]hstack", "-t", "1", "-r", "30",
      "pair.mp4",
    ])
    metadata("plain.mp4", "posed.mp4", ["--v2", "--yaw", "90"])
    metadata("pair.mp4", "stereo.mp4", ["--v2", "--stereo", "left-right"])
    metadata("plain.mp4", "v1.mp4", ["--v1", "--yaw", "45"])
    return dir
  }()

  static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

  /// ffmpeg with `args`, a bare `NAME.mp4` meaning a file in `dir`; H.264 (x264 ultrafast)
  /// unless the arguments name a codec.
  static func ffmpeg(_ args: [String], in dir: URL? = nil) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    p.standardInput = FileHandle.nullDevice
    p.arguments =
      ["-loglevel", "error", "-y"]
      + args.map { $0.hasSuffix(".mp4") && !$0.contains("/") ? (dir ?? Clips.dir).appendingPathComponent($0).path : $0 }
    if !(args.contains { $0.contains("-c:v") }) {
      p.arguments!.insert(
        contentsOf: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"], at: p.arguments!.count - 1)
    }
    try! p.run()
    p.waitUntilExit()
  }

  static func metadata(_ input: String, _ output: String, _ options: [String]) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = [Tool.packageRoot.appendingPathComponent("scripts/spherical-metadata.py").path, input, output] + options
    try! p.run()
    p.waitUntilExit()
  }

  /// `imagestage ARGS` with its binary standard output kept as bytes: `Tool.run` decodes it
  /// as text, which for megabytes of frames took most of a test's time (each repair of
  /// invalid UTF-8 is an error Swift Testing captures a backtrace for).
  static func raw(_ args: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    process.arguments = args
    process.currentDirectoryURL = Tool.packageRoot
    process.standardInput = FileHandle.nullDevice
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var errData = Data()
    let errThread = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
    errThread.start()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errThread.isFinished { usleep(1000) }
    return (process.terminationStatus, data, String(decoding: errData, as: UTF8.self))
  }

  /// Raw RGBA frames of `width`×`height` from `pano reframe … -o - --raw rgba`.
  static func frames(_ data: Data, width: Int, height: Int) -> [RGBAImage] {
    let count = width * height
    return stride(from: 0, to: data.count - 4 * count + 1, by: 4 * count).map { start in
      var pixels = [UInt32](repeating: 0, count: count)
      pixels.withUnsafeMutableBytes { out in
        data.withUnsafeBytes { raw in out.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + 4 * count)])) }
      }
      return try! RGBAImage(width: width, height: height, pixels: pixels)
    }
  }

  /// The marker's centre (mean x, y of magenta pixels), nil when none shows.
  static func marker(_ image: RGBAImage) -> (x: Double, y: Double)? {
    var sx = 0.0, sy = 0.0, n = 0.0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = RGBAImage.unpack(image[x, y])
        if p.r > 170 && p.b > 170 && p.g < 100 {
          sx += Double(x)
          sy += Double(y)
          n += 1
        }
      }
    }
    return n < 3 ? nil : (sx / n, sy / n)
  }
}

@Suite("imagestage pano reframe", .serialized)
struct ReframeCommandTests {
  static let degree = Double.pi / 180

  /// A phone held upright, turned right by `yaw` degrees: its attitude quaternion (x, y, z, w).
  static func upright(yaw: Double) -> String {
    let a = -yaw * degree / 2, s = 0.5.squareRoot()
    return "\(cos(a) * s),\(sin(a) * s),\(sin(a) * s),\(cos(a) * s)"
  }

  func reframe(_ args: [String]) throws -> Tool.Result {
    try Tool.run("imagestage", ["pano", "reframe"] + args)
  }

  @Test func followsAMotionLogWithTheMarkerWhereTheLogPutsIt() throws {
    // The log turns with the marker (20°/s): the marker stays in the middle of the view.
    let log = Clips.dir.appendingPathComponent("follow.csv")
    let rows = stride(from: 0.0, through: 2.0, by: 0.02).map { "\($0),\(Self.upright(yaw: 20 * $0))" }
    try (["t,qx,qy,qz,qw"] + rows).joined(separator: "\n").write(to: log, atomically: true, encoding: .utf8)
    let result = try Clips.raw([
      "pano", "reframe", Clips.path("marker.mp4"), "--motion", log.path, "--raw-motion", "-o", "-", "--raw", "rgba",
      "--size", "160x90",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = Clips.frames(result.stdout, width: 160, height: 90)
    #expect(frames.count == 60)
    for (i, frame) in frames.enumerated() where i % 10 == 5 {
      let m = try #require(Clips.marker(frame), "frame \(i): no marker")
      #expect(abs(m.x - 79.5) < 3 && abs(m.y - 44.5) < 4, "frame \(i): marker at \(m)")
    }
    // Lined up 0.5 s late (--offset 0.5: the log's 0 is the clip's 0.5 s), the view lags the
    // marker by 10°: tan(10°) · 80 px to the right of the centre.
    let late = try Clips.raw([
      "pano", "reframe", Clips.path("marker.mp4"), "--motion", log.path, "--raw-motion", "--offset", "0.5", "-o", "-",
      "--raw", "rgba", "--size", "160x90", "--duration", "1.5",
    ])
    let lateFrames = Clips.frames(late.stdout, width: 160, height: 90)
    let m = try #require(Clips.marker(lateFrames[30]))
    #expect(abs(m.x - (79.5 + 80 * tan(10 * Self.degree))) < 3, "\(m)")
  }

  /// A 2 × 2 clip tagged top-bottom stereo has eyes of 2 × 1: the renderer refuses them,
  /// where its precondition crashed `pano reframe` and `pano render --time`.
  @Test func aClipWhoseEyeIsUnderTwoByTwoIsRefusedNotACrash() throws {
    let dir = try Tool.temporaryDirectory()
    let tiny = dir.appendingPathComponent("tiny.mp4").path, stereo = dir.appendingPathComponent("tiny-tb.mp4").path
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=c=red:size=2x2:rate=5", "-frames:v", "3", tiny])
    let tag = try Tool.run("imagestage", ["pano", "tag", tiny, "-o", stereo, "--stereo", "top-bottom"])
    #expect(tag.status == 0, "\(tag.stderr)")
    let message = "tiny-tb.mp4: one eye is 2×1, too small to draw (height: 1 is below the minimum of 2)"
    let reframed = try reframe([stereo, "-o", dir.appendingPathComponent("out.mp4").path, "--size", "16x8"])
    #expect(reframed.status == 2)
    #expect(reframed.stderr.contains(message), "\(reframed.stderr)")
    let rendered = try Tool.run(
      "imagestage", ["pano", "render", stereo, "--time", "0", "-o", dir.appendingPathComponent("out.png").path])
    #expect(rendered.status == 2)
    #expect(rendered.stderr.contains(message), "\(rendered.stderr)")
  }

  @Test func aLogShorterThanTheClipHoldsItsLastDirectionAndSaysSo() throws {
    let log = Clips.dir.appendingPathComponent("short.csv")
    try "t,qx,qy,qz,qw\n0,\(Self.upright(yaw: 0))\n0.5,\(Self.upright(yaw: 0))\n".write(
      to: log, atomically: true, encoding: .utf8)
    let result = try Clips.raw(["pano", "reframe", Clips.path("plain.mp4"), "--motion", log.path, "-o", "-", "--size", "64x32"])
    #expect(result.status == 0)
    #expect(result.stderr.contains("ends at 0.50 s of the clip (1.00 s): after that the view holds"), "\(result.stderr)")
    #expect(result.stdout.count == 30 * 64 * 32 * 3 / 2)
  }

  @Test func keyframesAreEasedAndOutOfOrderKeysRefused() throws {
    // The marker moves in whole source pixels, a little behind 20°/s: at frame 45 it is at
    // 29.53°, at frame 9 at 4.22°. Keys on it at 0 and 1.5 s: centred there; eased, the
    // view is behind it at 0.3 s (3.1°: the marker 1.6 px right of the centre), where a
    // linear path would be ahead (5.9°: 2.4 px left).
    let keys = Clips.dir.appendingPathComponent("keys.json")
    try #"[{"time": 0, "yaw": 0, "hfov": 90}, {"time": 1.5, "yaw": 29.53, "hfov": 90}]"#.write(
      to: keys, atomically: true, encoding: .utf8)
    let result = try Clips.raw([
      "pano", "reframe", Clips.path("marker.mp4"), "--keys", keys.path, "-o", "-", "--raw", "rgba", "--size", "160x90",
      "--duration", "1.6",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let frames = Clips.frames(result.stdout, width: 160, height: 90)
    #expect(frames.count == 48)
    for i in [0, 45] {
      let m = try #require(Clips.marker(frames[i]))
      #expect(abs(m.x - 79.5) < 1.5, "frame \(i): \(m)")
    }
    let early = try #require(Clips.marker(frames[9]))
    #expect(early.x > 80.2, "eased: behind the marker at 0.3 s (\(early))")

    try #"[{"time": 1, "yaw": 0}, {"time": 0.5, "yaw": 30}]"#.write(to: keys, atomically: true, encoding: .utf8)
    let refused = try reframe([Clips.path("marker.mp4"), "--keys", keys.path, "-o", "-"])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("key 2: at 0.5 s, not after key 1 at 1 s: keys must be in time order"), "\(refused.stderr)")
  }

  @Test func thePoseAndTheStereoLayoutComeFromTheMetadata() throws {
    let dir = Clips.dir
    func render(_ clip: String, _ yaw: String, _ name: String) throws -> RGBAImage {
      let out = dir.appendingPathComponent(name).path
      let r = try Tool.run(
        "imagestage", ["pano", "render", Clips.path(clip), "--time", "0.5", "--yaw", yaw, "--size", "128x64", "-o", out])
      #expect(r.status == 0, "\(r.stderr)")
      return try PanoCommandTests.decode(out)
    }
    // Posed 90° (content turned left): what the plain clip shows at yaw 90 shows at 0.
    let plain90 = try render("plain.mp4", "90", "plain90.png")
    let posed0 = try render("posed.mp4", "0", "posed0.png")
    #expect(posed0.psnr(against: plain90) > 35, "\(posed0.psnr(against: plain90))")
    #expect(try render("plain.mp4", "0", "plain0.png").psnr(against: posed0) < 20)
    let info = try Tool.run("imagestage", ["pano", "info", Clips.path("posed.mp4")])
    #expect(info.stdout.contains("\"spherical\":\"Spherical Video V2 (sv3d, st3d)\"") && info.stdout.contains("\"yaw\":90"))

    // Left-right stereo: the left eye only, the same picture as the mono clip.
    let left = try render("stereo.mp4", "0", "stereo.png")
    #expect(left.psnr(against: try render("plain.mp4", "0", "mono.png")) > 35)
    let stereoInfo = try Tool.run("imagestage", ["pano", "info", Clips.path("stereo.mp4")])
    #expect(stereoInfo.stdout.contains("\"stereo\":\"left-right\"") && stereoInfo.stdout.contains("\"eye\":{\"width\":512"))

    // V1 XML read by our parser; no metadata: assumed, and said why.
    let v1 = try Tool.run("imagestage", ["pano", "info", Clips.path("v1.mp4")])
    #expect(v1.stdout.contains("Spherical Video V1 (GSpherical XML)"), "\(v1.stdout)")
    let none = try Tool.run("imagestage", ["pano", "info", Clips.path("plain.mp4")])
    #expect(none.stdout.contains("no spherical metadata; 2:1, so assumed a full 360° equirectangular frame"))
  }

  /// A flat colour (200, 60, 40) encoded by ffmpeg full range BT.601 and limited range
  /// BT.709: RGBA frames give the colour back (decoded with the other range or matrix it
  /// is off by 10 levels or more), and the .mp4 carries the source's Y′CbCr untouched,
  /// tagged with its range and matrix.
  @Test(
    "the source's colour range and matrix are honoured and tagged",
    arguments: [("pc", "smpte170m", "bt601", "full"), ("tv", "bt709", "bt709", "tv")])
  func colourRangeAndMatrix(range: String, space: String, matrix: String, scaleRange: String) throws {
    let clip = Clips.path("colour-\(range).mp4"), out = Clips.path("colour-\(range)-out.mp4")
    Clips.ffmpeg([
      "-f", "lavfi", "-i", "color=0xC83C28:s=256x128:d=0.2:r=30", "-vf",
      "scale=out_color_matrix=\(matrix):out_range=\(scaleRange),format=yuv420p", "-c:v", "libx264", "-preset", "ultrafast",
      "-crf", "4", "-color_range", range, "-colorspace", space, clip,
    ])
    let info = try Tool.run("imagestage", ["pano", "info", clip])
    #expect(info.stdout.contains("\"range\":\"\(range)\"") && info.stdout.contains("\"matrix\":\"\(space)\""), "\(info.stdout)")
    let raw = try Clips.raw(["pano", "reframe", clip, "-o", "-", "--raw", "rgba", "--size", "64x32"])
    #expect(raw.status == 0, "\(raw.stderr)")
    let frame = try #require(Clips.frames(raw.stdout, width: 64, height: 32).first)
    let p = RGBAImage.unpack(frame[32, 16])
    #expect(abs(Int(p.r) - 200) <= 3 && abs(Int(p.g) - 60) <= 3 && abs(Int(p.b) - 40) <= 3, "\(p) from \(range) \(space)")
    let result = try reframe([clip, "-o", out, "--size", "64x32", "--quality", "4"])
    #expect(result.status == 0, "\(result.stderr)")
    func probe(_ path: String) throws -> String {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
      p.arguments = [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_range,color_space", "-of", "csv=p=0", path,
      ]
      let pipe = Pipe()
      p.standardOutput = pipe
      try p.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try probe(out) == "\(range),\(space)")
    func centreY(_ path: String) throws -> Int {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
      p.arguments = [
        "-loglevel", "error", "-i", path, "-frames:v", "1", "-vf", "scale=64:32", "-f", "rawvideo", "-pix_fmt", "gray", "-",
      ]
      let pipe = Pipe()
      p.standardOutput = pipe
      try p.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return data.count == 64 * 32 ? Int(data[16 * 64 + 32]) : -1
    }
    let source = try centreY(clip), reframed = try centreY(out)
    #expect(source > 0 && abs(reframed - source) <= 2, "luma \(reframed) after, \(source) before")
  }

  @Test func audioIsKeptAndInSync() throws {
    // From 0.5 s: the flash and the tone both start 0.5 s into the output.
    let out = Clips.dir.appendingPathComponent("synced.mp4").path
    let result = try reframe([Clips.path("tone.mp4"), "-o", out, "--size", "128x64", "--start", "0.5", "--progress"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains(" fps · ") && result.stderr.contains(" s left"), "the progress line: \(result.stderr)")
    #expect(result.stderr.contains("reframed 45 frames"), "\(result.stderr)")
    func decoded(_ args: [String]) throws -> Data {
      let p = Process()
      p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
      p.arguments = ["-loglevel", "error", "-i", out] + args + ["-"]
      let pipe = Pipe()
      p.standardOutput = pipe
      try p.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      p.waitUntilExit()
      return data
    }
    let pcm = try decoded(["-map", "0:a", "-f", "s16le", "-ac", "1", "-ar", "48000"])
    let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    let onset = try #require(samples.firstIndex { abs(Int($0)) > 3000 })
    let video = try decoded(["-map", "0:v", "-f", "rawvideo", "-pix_fmt", "gray"])
    let frameBytes = 128 * 64
    let firstLit = try #require(
      Array(stride(from: 0, to: video.count, by: frameBytes)).firstIndex { start in
        video[start..<(start + frameBytes)].reduce(0) { $0 + Int($1) } > frameBytes * 40
      })
    let toneAt = Double(onset) / 48000, flashAt = Double(firstLit) / Clips.fps
    #expect(abs(toneAt - 0.5) < 0.03, "tone at \(toneAt) s")
    #expect(abs(flashAt - 0.5) < 0.5 / Clips.fps + 1e-9, "flash at \(flashAt) s")
  }

  /// The codec of each stream of `path` (`video=vp9`, `audio=opus`), from ffprobe.
  static func codecs(_ path: String) throws -> [String: String] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    p.arguments = ["-v", "error", "-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0", path]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    var found: [String: String] = [:]
    for row in text.split(separator: "\n") {
      let parts = row.split(separator: ",").map(String.init)
      if parts.count == 2 { found[parts[1]] = parts[0] }
    }
    return found
  }

  /// Audio the container cannot hold is encoded (AAC into WebM becomes Opus, PCM from a
  /// MOV into MP4 becomes AAC) and one line says so; audio it can hold is copied unsaid.
  @Test func audioTheContainerCannotHoldIsEncodedAndSaidSo() throws {
    let dir = try Tool.temporaryDirectory()
    let mov = dir.appendingPathComponent("camera.mov").path
    Clips.ffmpeg([
      "-i", Clips.path("tone.mp4"), "-map", "0", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", mov,
    ])
    #expect(try Self.codecs(mov)["audio"] == "pcm_s16le")
    let cases: [(input: String, output: String, audio: String, video: String, note: String?)] = [
      (Clips.path("tone.mp4"), "out.webm", "opus", "vp9", "audio: aac does not go into WebM; encoding it as Opus"),
      (mov, "out.mp4", "aac", "h264", "audio: pcm_s16le does not go into MP4; encoding it as AAC"),
      (mov, "out.mov", "pcm_s16le", "h264", nil),
      (Clips.path("tone.mp4"), "out.mkv", "aac", "h264", nil),
    ]
    for c in cases {
      let out = dir.appendingPathComponent(c.output).path
      let result = try reframe([c.input, "-o", out, "--size", "64x32", "--duration", "1"])
      #expect(result.status == 0, "\(c.output): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n").map(String.init)
      if let note = c.note {
        #expect(lines.filter { $0.contains("audio: ") } == ["imagestage: \(note) (--no-audio leaves it out)"], "\(result.stderr)")
      } else {
        #expect(!result.stderr.contains("audio:"), "\(result.stderr)")
      }
      #expect(try Self.codecs(out) == ["video": c.video, "audio": c.audio], "\(c.output)")
    }
    // x264 into WebM: refused first, in our words.
    let refused = try reframe([Clips.path("tone.mp4"), "-o", dir.appendingPathComponent("x.webm").path, "--encoder", "libx264"])
    #expect(refused.status == 2 && refused.stderr.contains("WebM holds VP8, VP9 or AV1 video, not h264"), "\(refused.stderr)")
  }

  @Test func anInterruptedRunLeavesTheOutputAsItWas() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("out.mp4").path
    try Data("the user's old file".utf8).write(to: URL(fileURLWithPath: out))
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    // Slowed to a crawl: one thread, a big frame, the slowest preset.
    process.arguments = [
      "pano", "reframe", Clips.path("tone.mp4"), "-o", out, "--size", "1920x1080", "--threads", "1", "--progress",
      "--preset", "veryslow",
    ]
    let err = Pipe()
    process.standardError = err
    try process.run()
    var waited = 0
    while waited < 600,
      !((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).contains(where: {
        $0.contains(".partial-")
      })
    {
      usleep(20_000)
      waited += 1
    }
    usleep(200_000)
    #expect(process.isRunning, "still reframing when interrupted")
    kill(process.processIdentifier, SIGINT)
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130, "\(message)")
    #expect(message.contains("interrupted"), "\(message)")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "the user's old file")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left == ["out.mp4"], "\(left)")
  }

  /// A run killed outright (`kill -9`) leaves `OUT.partial-PID`; the next run into that
  /// folder removes it and says so, whatever name it writes (it was only ever cleaned by a
  /// run of the same name).
  @Test func aKilledRunsLeftoverIsRemovedByTheNextRunThere() throws {
    let dir = try Tool.temporaryDirectory()
    let process = Process()
    process.executableURL = Tool.productsDirectory.appendingPathComponent("imagestage")
    process.arguments = [
      "pano", "reframe", Clips.path("tone.mp4"), "-o", dir.appendingPathComponent("first.mp4").path, "--size", "1920x1080",
      "--threads", "1", "--preset", "veryslow", "--quiet",
    ]
    process.standardError = FileHandle.nullDevice
    try process.run()
    let partial = dir.appendingPathComponent("first.mp4.partial-\(process.processIdentifier)").path
    var waited = 0
    while waited < 600, !FileManager.default.fileExists(atPath: partial) {
      usleep(20_000)
      waited += 1
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(FileManager.default.fileExists(atPath: partial), "the killed run's leftover")
    let next = try reframe([Clips.path("plain.mp4"), "-o", dir.appendingPathComponent("second.mp4").path, "--size", "64x32"])
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stderr.contains("removed \(partial), left by an earlier run that was killed"), "\(next.stderr)")
    // ffmpeg, orphaned, may still be finishing: it writes to the removed file, not a new one.
    usleep(300_000)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["second.mp4"])
  }

  /// `pano video CLIP -o DIR` (its synopsis lists DIR) writes the clip's frames as numbered
  /// PNGs into DIR, staged and renamed as a still's frames are.
  @Test func panoVideoOfAClipWritesAFolderOfPNGs() throws {
    let dir = try Tool.temporaryDirectory()
    let frames = dir.appendingPathComponent("frames").path
    let log = dir.appendingPathComponent("still.csv")
    try "t,qx,qy,qz,qw\n0,\(Self.upright(yaw: 0))\n1,\(Self.upright(yaw: 0))\n".write(to: log, atomically: true, encoding: .utf8)
    let result = try Tool.run(
      "imagestage", ["pano", "video", Clips.path("marker.mp4"), "--motion", log.path, "-o", frames, "--size", "64x32"])
    #expect(result.status == 0, "\(result.stderr)")
    let written = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
    #expect(written.count == 60 && written.first == "frame-00001.png" && written.last == "frame-00060.png", "\(written)")
    let first = try PanoCommandTests.decode(frames + "/frame-00001.png")
    #expect(first.width == 64 && first.height == 32)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["frames", "still.csv"])
    // A folder holding the user's own file is refused, as for a still's frames.
    try Data("mine".utf8).write(to: URL(fileURLWithPath: frames + "/notes.txt"))
    let refused = try reframe([Clips.path("plain.mp4"), "-o", frames])
    #expect(refused.status == 2 && refused.stderr.contains("holds the file \"notes.txt\""), "\(refused.stderr)")
  }

  /// 4 s of ffmpeg's moving test pattern (every frame about the same size) and a tone, its
  /// index first (faststart: the index then promises frames a cut file lacks), in `dir`.
  static func noisyClip(in dir: URL) -> String {
    let path = dir.appendingPathComponent("fast.mp4").path
    Clips.ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=s=256x128:r=30:d=4", "-f", "lavfi", "-i", "sine=f=1000:d=4", "-c:v", "libx264",
      "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-movflags", "+faststart", path,
    ])
    return path
  }

  /// A clip cut short (`head -c`) gives the frames it has, its audio cut to match, and says
  /// where it ended; exit 0, as ffmpeg would.
  @Test func aClipCutShortGivesWhatItHasAndSaysWhere() throws {
    let dir = try Tool.temporaryDirectory()
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.noisyClip(in: dir)))
    let cut = dir.appendingPathComponent("cut.mp4").path
    try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
    let out = dir.appendingPathComponent("out.mp4").path
    let result = try reframe([cut, "-o", out, "--size", "64x32"])
    #expect(result.status == 0, "\(result.stderr)")
    let said = try #require(result.stderr.range(of: "cut.mp4: the clip ends early at "), "\(result.stderr)")
    let rest = result.stderr[said.upperBound...]
    #expect(rest.contains(" of 120): the output stops there"), "\(result.stderr)")
    let seconds = try #require(Double(rest.prefix { $0 != " " }))
    #expect(seconds > 1 && seconds < 3.5, "\(seconds) s")
    // The output holds those frames, and its audio ends with them.
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    p.arguments = [
      "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,nb_read_frames,duration", "-of", "csv=p=0", out,
    ]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let probe = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    let rows = probe.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
    let video = try #require(rows.first { $0.first == "video" }, "\(probe)")
    let audio = try #require(rows.first { $0.first == "audio" }, "\(probe)")
    #expect(Int(video[2]) == Int((seconds * Clips.fps).rounded()), "\(probe)")
    #expect(abs((Double(audio[1]) ?? 0) - seconds) < 0.1, "audio as long as the video: \(probe)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
    // `pano info` sees it from the index: as many frames in the file as reframe wrote.
    let frames = Int((seconds * Clips.fps).rounded())
    let info = try Tool.run("imagestage", ["pano", "info", cut])
    #expect(info.status == 0 && info.stdout.contains("\"framesInFile\":\(frames)"), "\(info.stdout)")
    #expect(
      info.stderr.contains("cut.mp4: the clip ends early: its header lists 120 frames, the file holds \(frames)"),
      "\(info.stderr)")
    let intact = try Tool.run("imagestage", ["pano", "info", dir.appendingPathComponent("fast.mp4").path])
    #expect(intact.stdout.contains("\"framesInFile\":null") && !intact.stderr.contains("ends early"), "\(intact.stderr)")
  }

  /// A cut-short clip's motion-log note measures the clip by the frames there, not its
  /// header: a log longer than what is left says nothing; a shorter one gives that length.
  @Test func theMotionLogNoteOfACutClipUsesTheFramesThere() throws {
    let dir = try Tool.temporaryDirectory()
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.noisyClip(in: dir)))
    let cut = dir.appendingPathComponent("cut.mp4").path
    try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
    func log(_ end: Double) throws -> String {
      let url = dir.appendingPathComponent("log-\(end).csv")
      try "t,qx,qy,qz,qw\n0,\(Self.upright(yaw: 0))\n\(end),\(Self.upright(yaw: 0))\n".write(
        to: url, atomically: true, encoding: .utf8)
      return url.path
    }
    // The header says 4 s; the frames end between 1 and 3.5 s (`aClipCutShort…`).
    let long = try Clips.raw(["pano", "reframe", cut, "--motion", try log(3.9), "-o", "-", "--size", "64x32"])
    #expect(long.status == 0 && long.stderr.contains("the clip ends early at "), "\(long.stderr)")
    #expect(!long.stderr.contains("ends at 3.90 s of the clip"), "\(long.stderr)")
    let short = try Clips.raw(["pano", "reframe", cut, "--motion", try log(0.5), "-o", "-", "--size", "64x32"])
    let said = try #require(short.stderr.range(of: "the clip ends early at "), "\(short.stderr)")
    let cutAt = try #require(Double(short.stderr[said.upperBound...].prefix { $0 != " " }))
    #expect(short.stderr.contains("ends at 0.50 s of the clip (\(String(format: "%.2f", cutAt)) s)"), "\(short.stderr)")
  }

  /// An unstitched dual-fisheye clip (made from the sample with v360, black outside the two
  /// circles) is warned about by info, reframe and render; the equirectangular sample is not.
  @Test func anUnstitchedDualFisheyeClipIsWarnedAbout() throws {
    let dir = try Tool.temporaryDirectory()
    let fisheye = dir.appendingPathComponent("dual.mp4").path
    let inside = "lte(hypot(mod(X,W/2)-W/4,Y-H/2),H/2)"
    Clips.ffmpeg([
      "-i", Clips.path("plain.mp4"), "-vf",
      "v360=e:dfisheye:h_fov=190:v_fov=190,format=rgb24,geq=r='if(\(inside),r(X,Y),0)':g='if(\(inside),g(X,Y),0)':b='if(\(inside),b(X,Y),0)'",
      fisheye,
    ])
    let warning = "looks like an unstitched dual-fisheye frame (two lens circles side by side)"
    let png = dir.appendingPathComponent("view.png").path
    for input in [fisheye, Clips.path("plain.mp4")] {
      let runs = [
        try Tool.run("imagestage", ["pano", "info", input]),
        try reframe([input, "-o", dir.appendingPathComponent("out.mp4").path, "--size", "64x32"]),
        try Tool.run("imagestage", ["pano", "render", input, "-o", png, "--size", "64x32"]),
      ]
      for run in runs {
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains(warning) == (input == fisheye), "\(input): \(run.stderr)")
      }
    }
  }

  /// An output in a missing folder is refused before the clip is decoded, in the words
  /// render and tiles use, never naming the staged `OUT.partial-PID`.
  @Test func anOutputInAMissingFolderIsRefusedBeforeDecoding() throws {
    let missing = try Tool.temporaryDirectory().appendingPathComponent("missing").path
    for name in ["out.mp4", "out.webm"] {
      let result = try reframe([Clips.path("tone.mp4"), "-o", "\(missing)/\(name)", "--size", "64x32"])
      #expect(result.status == 2, "\(result.stderr)")
      #expect(result.stderr.contains("-o \(missing)/\(name): the folder \(missing) does not exist"), "\(result.stderr)")
      #expect(!result.stderr.contains(".partial-") && !result.stderr.contains("reframed"), "\(result.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// Bad input: a clear error naming the file and what is wrong, exit 2, nothing written.
  @Test func badInputsAreRefusedClearly() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Clips.path("marker.mp4")))
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file("cut.mp4")))
    // Damaged in the middle, the rest intact: an error, not an early end.
    var damaged = try Data(contentsOf: URL(fileURLWithPath: Self.noisyClip(in: dir)))
    damaged.replaceSubrange((damaged.count / 2)..<(damaged.count / 2 + 3000), with: Data(repeating: 0xFF, count: 3000))
    try damaged.write(to: URL(fileURLWithPath: file("damaged.mp4")))
    // The sample entry's codec renamed: no decoder for it.
    var unknown = whole
    while let avc1 = unknown.range(of: Data("avc1".utf8)) { unknown.replaceSubrange(avc1, with: Data("zzzz".utf8)) }
    try unknown.write(to: URL(fileURLWithPath: file("unknown.mp4")))
    Clips.ffmpeg(["-f", "lavfi", "-i", "sine=d=0.5", "-c:a", "aac", file("audio.mp4")])
    _ = try Tool.run("imagestage", ["pano", "sample", "-o", file("still.jpg"), "--size", "64x32"])
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=gray:s=20000x2:d=0.1", "-c:v", "rawvideo", "-pix_fmt", "yuv420p", file("wide.mkv")])
    let cases: [(String, String)] = [
      ("cut.mp4", "cut.mp4: not a video libavformat can read"),
      (
        "damaged.mp4",
        "damaged.mp4: frame 63 cannot be decoded (Invalid data found when processing input): damaged or truncated?"
          + " The readable data ends at "
      ),
      ("unknown.mp4", "no decoder for its video codec"),
      ("audio.mp4", "audio.mp4: has no video stream"),
      ("still.jpg", "still.jpg is a still image: use pano render"),
      ("wide.mkv", "the video is 20000×2, over the limit of 16384 px a side"),
      ("missing.mp4", "missing.mp4: No such file or directory"),
    ]
    for (name, expected) in cases {
      let out = file(name + ".out.mp4")
      let result = try reframe([file(name), "-o", out, "--size", "64x32"])
      #expect(result.status != 0 && result.stderr.contains(expected), "\(name): \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
      // Issue 39: a damaged file's message says where its data ends, in time and frames.
      if name == "damaged.mp4" { #expect(result.stderr.contains(" s, after frame 62."), "\(result.stderr)") }
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(!left.contains { $0.contains(".partial-") }, "\(left)")
  }

  /// An unknown or non-video encoder, or a preset the encoder lacks: our message naming the
  /// option, what is accepted, before the clip is decoded (an unreadable input is not even
  /// opened), and nothing under the output name.
  @Test func encoderAndPresetAreCheckedBeforeDecoding() throws {
    let dir = try Tool.temporaryDirectory()
    let cases: [([String], String)] = [
      (["--encoder", "libx999"], "--encoder libx999: this ffmpeg has no such encoder; video encoders include libx264"),
      (["--encoder", "aac"], "--encoder aac: an audio encoder; give a video encoder such as libx264"),
      (["--preset", "turbo"], "--preset turbo: --encoder libx264 has no such preset; it takes ultrafast, superfast, veryfast"),
      (["--encoder", "libx265", "--preset", "p4"], "--encoder libx265 has no such preset; it takes ultrafast"),
      (["--encoder", "libaom-av1", "--preset", "fast"], "--preset fast: --encoder libaom-av1 takes no preset"),
      (["--encoder", "libsvtav1", "--preset", "99"], "--encoder libsvtav1 takes a preset number from -1 to 13"),
    ]
    for (options, expected) in cases {
      for input in [Clips.path("plain.mp4"), dir.appendingPathComponent("missing.mp4").path] {
        let out = dir.appendingPathComponent("out.mp4").path
        let result = try reframe([input, "-o", out, "--size", "64x32"] + options)
        #expect(result.status == 2 && result.stderr.contains(expected), "\(options): \(result.stderr)")
        // Not ffmpeg's own text (what it printed before).
        #expect(
          !["Unknown encoder", "Invalid encoder type", "Error setting preset", "stopped accepting"].contains {
            result.stderr.contains($0)
          }, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    // Every encoder suggested opens here: this ffmpeg is built with NVENC, which has no
    // device on a machine without an NVIDIA card (issue 39), and was suggested.
    let unknown = try reframe([Clips.path("plain.mp4"), "-o", dir.appendingPathComponent("x.mp4").path, "--encoder", "libx999"])
    let listed = try #require(unknown.stderr.split(separator: "video encoders include ").last?.split(separator: " (").first)
    let suggested = listed.split(separator: ", ").map(String.init)
    #expect(suggested.contains("libx264"), "\(unknown.stderr)")
    for encoder in suggested {
      let ffmpeg = Process()
      ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
      ffmpeg.arguments = [
        "-v", "quiet", "-f", "lavfi", "-i", "color=size=64x64:rate=25", "-frames:v", "1", "-c:v", encoder, "-f", "null", "-",
      ]
      ffmpeg.standardInput = FileHandle.nullDevice
      ffmpeg.standardOutput = FileHandle.nullDevice
      ffmpeg.standardError = FileHandle.nullDevice
      try ffmpeg.run()
      ffmpeg.waitUntilExit()
      #expect(ffmpeg.terminationStatus == 0, "--encoder \(encoder) was suggested but does not open here")
    }
    // A preset the encoder has goes through.
    let out = dir.appendingPathComponent("ok.mp4").path
    let ok = try reframe([Clips.path("plain.mp4"), "-o", out, "--size", "64x32", "--preset", "ultrafast"])
    #expect(ok.status == 0 && FileManager.default.fileExists(atPath: out), "\(ok.stderr)")
  }

  /// Without a terminal (a script, a CI log) a run still ends with one summary line on
  /// stderr, which `--quiet` leaves out.
  @Test func aRunEndsWithASummaryLineUnlessQuiet() throws {
    let dir = try Tool.temporaryDirectory()
    let out = dir.appendingPathComponent("out.mp4").path
    let result = try reframe([Clips.path("plain.mp4"), "-o", out, "--size", "64x32"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].hasPrefix("reframed 30 frames in "), "\(result.stderr)")
    #expect(lines.first?.hasSuffix(" fps) into \(out)") == true, "\(result.stderr)")
    let piped = try Clips.raw(["pano", "reframe", Clips.path("plain.mp4"), "-o", "-", "--size", "64x32"])
    #expect(
      piped.stderr.hasPrefix("reframed 30 frames in ") && piped.stderr.hasSuffix(" to standard output\n"), "\(piped.stderr)")
    let quiet = try reframe([Clips.path("plain.mp4"), "-o", out, "--size", "64x32", "--quiet"])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
  }

  /// `pano info` of a sound file says what `pano reframe` says (not "not a JPEG or PNG").
  @Test func panoInfoOfASoundFileSaysItHasNoVideo() throws {
    let dir = try Tool.temporaryDirectory()
    let m4a = dir.appendingPathComponent("audio.m4a").path
    Clips.ffmpeg(["-f", "lavfi", "-i", "sine=d=0.5", "-c:a", "aac", m4a])
    let result = try Tool.run("imagestage", ["pano", "info", m4a])
    #expect(result.status == 2 && result.stderr.contains("audio.m4a: has no video stream"), "\(result.stderr)")
    let text = dir.appendingPathComponent("notes.txt")
    try "hello".write(to: text, atomically: true, encoding: .utf8)
    let other = try Tool.run("imagestage", ["pano", "info", text.path])
    #expect(other.status == 2 && other.stderr.contains("notes.txt: not a JPEG or PNG file"), "\(other.stderr)")
  }

  /// Cameras write MP4 under other names (Insta360 `.insv` and `.lrv`, GoPro `.360`) or
  /// none: every command takes them by their content, as reframe does; a JPEG named
  /// `.mp4` is still a still, and a CSV before the clip is not taken for it.
  @Test(arguments: ["clip.insv", "clip.360", "clip.LRV", "clip"])
  func aVideoIsKnownByItsContentNotItsName(name: String) throws {
    let dir = try Tool.temporaryDirectory()
    let clip = dir.appendingPathComponent(name).path
    try FileManager.default.copyItem(atPath: Clips.path("plain.mp4"), toPath: clip)
    let info = try Tool.run("imagestage", ["pano", "info", clip])
    #expect(info.status == 0 && info.stdout.contains("\"format\":\"video\""), "\(name): \(info.stderr)")
    let png = dir.appendingPathComponent("view.png").path
    let render = try Tool.run("imagestage", ["pano", "render", clip, "--time", "0.5", "--size", "64x32", "-o", png])
    #expect(render.status == 0 && FileManager.default.fileExists(atPath: png), "\(name): \(render.stderr)")
    let log = dir.appendingPathComponent("still.csv")
    try "t,qx,qy,qz,qw\n0,\(Self.upright(yaw: 0))\n1,\(Self.upright(yaw: 0))\n".write(to: log, atomically: true, encoding: .utf8)
    let video = try Clips.raw(["pano", "video", "--motion", log.path, clip, "-o", "-", "--size", "64x32"])
    #expect(video.status == 0 && video.stdout.count == 30 * 64 * 32 * 3 / 2, "\(name): \(video.stderr)")
    if name == "clip" {
      // A still under a video's name is a still.
      let still = dir.appendingPathComponent("still.mp4").path
      _ = try Tool.run("imagestage", ["pano", "sample", "-o", dir.appendingPathComponent("s.jpg").path, "--size", "64x32"])
      try FileManager.default.moveItem(atPath: dir.appendingPathComponent("s.jpg").path, toPath: still)
      let stillInfo = try Tool.run("imagestage", ["pano", "info", still])
      #expect(
        stillInfo.status == 0 && stillInfo.stdout.contains("\"format\":\"jpeg\""), "\(stillInfo.stdout) \(stillInfo.stderr)")
    }
  }

  @Test func panoVideoTakesAVideoSource() throws {
    let log = Clips.dir.appendingPathComponent("still.csv")
    try "t,qx,qy,qz,qw\n0,\(Self.upright(yaw: 0))\n1,\(Self.upright(yaw: 0))\n".write(to: log, atomically: true, encoding: .utf8)
    let result = try Clips.raw(["pano", "video", Clips.path("plain.mp4"), "--motion", log.path, "-o", "-", "--size", "64x32"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.count == 30 * 64 * 32 * 3 / 2)
  }
}
