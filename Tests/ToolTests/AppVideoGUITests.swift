import Foundation
import Panorama
import Raster
import Testing

/// The app playing a 360° clip under Xvfb, driven by xdotool: it plays with its sound
/// leading the clock (SDL's dummy sound driver: no sound card here), pauses (the picture
/// stops), steps a frame, seeks by a click on the progress bar and by a key (the marker is
/// where the time puts it), and plays again. Bad files get a clear message, never a crash.
@Suite("imagestage-app playing video under Xvfb", .serialized)
struct AppVideoGUITests {
  typealias GUI = AppGUITests

  /// 4 s at 30 fps from the 512 × 256 sample: a magenta marker on the horizon moving right at
  /// 10° a second from straight ahead, and a 440 Hz tone.
  static let clip: String = {
    let dir = try! Tool.temporaryDirectory()
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try! Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "512x256"])
    Clips.ffmpeg(
      [
        "-loop", "1", "-i", pano, "-f", "lavfi", "-i", "color=0xFF00FF:s=12x12", "-f", "lavfi", "-i",
        "sine=f=440:d=4:sample_rate=48000", "-filter_complex", "[0][1]overlay=x='250+512*10*t/360':y=122:shortest=1[v]",
        "-map", "[v]", "-map", "2:a", "-t", "4", "-r", "30", "-c:a", "aac", "clip.mp4",
      ], in: dir)
    return dir.appendingPathComponent("clip.mp4").path
  }()

  /// The marker's centre column on the horizon row `y` of a picture (the app's 800 × 600
  /// window: the view is 800 × 556 below the 44-point tabs, its horizon at y = 322), or nil
  /// when it is not there.
  static func markerX(_ image: RGBAImage, y: Int = 322) -> Double? {
    let xs = (0..<image.width).filter { x in
      let c = RGBAImage.unpack(image[x, y])
      return c.r > 190 && c.g < 90 && c.b > 190
    }
    return xs.isEmpty ? nil : Double(xs.min()! + xs.max()!) / 2
  }

  /// Where the marker is in the frame at `time`, as `pano render CLIP --time` draws it at the
  /// app's view size (the same decoder's frame, the same renderer): about 10° a second right
  /// of the centre.
  static func expectedX(_ time: Double) throws -> Double {
    let out = try Tool.temporaryDirectory().appendingPathComponent("frame.png").path
    let r = try Tool.run("imagestage", ["pano", "render", clip, "--time", "\(time)", "--size", "800x556", "-o", out])
    #expect(r.status == 0, "\(r.stderr)")
    let image = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out)))).image
    return try #require(markerX(image, y: 278))
  }

  /// Whether the picture (the view above the notice a screenshot leaves) is the same.
  static func samePicture(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    var changed = 0
    for y in 44..<470 {
      for x in 0..<a.width where a[x, y] != b[x, y] { changed += 1 }
    }
    return changed
  }

  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)))
  func playsPausesStepsAndSeeks() throws {
    let clip = Self.clip
    let display = try GUI.Display()
    let app = try GUI.RunningApp(
      display: display, arguments: ["--panorama", clip], directory: try Tool.temporaryDirectory(),
      environment: ["SDL_AUDIODRIVER": "dummy"])
    defer { app.stop() }
    func video(
      _ what: String, after skip: Int = 0, seconds: Int = 10, _ predicate: @escaping ([String: Any]) -> Bool
    ) throws -> [String: Any] {
      let found = app.wait(after: skip, seconds: seconds) { $0["type"] as? String == "video" && predicate($0) }
      let last = app.lines(ofType: "video").last.map { "\($0)" } ?? "none"
      return try #require(found, "waiting for \(what); the last video line: \(last)")
    }
    func time(_ line: [String: Any]) -> Double { line["time"] as! Double }

    // It plays, with the sound as its clock, at the sound's speed.
    let early = try video("playing") { time($0) >= 0.3 && $0["playing"] as? Bool == true }
    #expect(early["sound"] as? Bool == true, "the dummy device pulls the sound: \(early)")
    #expect(early["duration"] as? Double == 4)
    let later = try video("a second on") { time($0) >= time(early) + 1 }
    let rate = (time(later) - time(early)) / ((later["t"] as! Double) - (early["t"] as! Double))
    // SDL's dummy driver sleeps a buffer's length between callbacks, and a busy machine
    // wakes it late: its clock runs slow (0.97 on a quiet machine, 0.47 at a load of 7 on
    // two cores), and the picture follows it. It must run, and never ahead of the host.
    #expect(rate > 0.25 && rate < 1.15, "media seconds per host second: \(rate) (\(early), \(later))")
    let window = try display.appWindow()
    try display.xdotool(["windowfocus", "--sync", window])

    // Space pauses: the picture and the time stop.
    var before = app.count
    try display.xdotool(["key", "space"])
    let paused = try video("paused", after: before) { $0["playing"] as? Bool == false }
    let first = try app.screenshot()
    usleep(600_000)  // not a wait for the app: the picture must stay still this long
    let second = try app.screenshot()
    let changed = Self.samePicture(first, second)
    #expect(changed == 0, "the picture stopped changing: \(changed) pixels changed")
    #expect(app.lines(ofType: "video", after: before).allSatisfy { time($0) == time(paused) })
    let pausedX = try #require(Self.markerX(first))
    let pausedExpected = try Self.expectedX(time(paused))
    #expect(abs(pausedX - pausedExpected) < 3, "marker at \(pausedX) at \(time(paused)) s, not \(pausedExpected)")

    // '.' steps one frame on, paused.
    before = app.count
    try display.xdotool(["key", "period"])
    let stepped = try video("a step", after: before) { time($0) > time(paused) }
    #expect(abs(time(stepped) - time(paused) - 1.0 / 30) < 0.004, "\(time(paused)) → \(time(stepped))")
    #expect(stepped["playing"] as? Bool == false)

    // A click on the progress bar, three quarters along: 3 s, the marker 30° right.
    let bar = try #require(stepped["bar"] as? [Double])
    before = app.count
    try display.xdotool([
      "mousemove", "--window", window, "\(Int(bar[0] + 0.75 * bar[2]))", "\(Int(bar[1] + bar[3] / 2))", "click", "1",
    ])
    let sought = try video("3 s", after: before) { abs(time($0) - 3) < 0.05 }
    #expect(sought["playing"] as? Bool == false)
    #expect(
      (sought["label"] as? String)?.hasPrefix("0:02.9") == true || (sought["label"] as? String)?.hasPrefix("0:03.0") == true)
    // The seek's frame is drawn once it is decoded: look until the marker is there.
    let threeExpected = try Self.expectedX(time(sought))
    let atThree = try #require(Self.markerX(try app.screenshot { Self.markerX($0).map { abs($0 - threeExpected) < 3 } == true }))
    #expect(abs(atThree - threeExpected) < 3, "marker at \(atThree) at \(time(sought)) s, not \(threeExpected)")

    // '[' goes back 5 s: the start, the marker straight ahead.
    before = app.count
    try display.xdotool(["key", "bracketleft"])
    let start = try video("the start", after: before) { time($0) < 0.01 }
    let atStart = try #require(Self.markerX(try app.screenshot { Self.markerX($0).map { abs($0 - 400) < 6 } == true }))
    #expect(abs(atStart - 400) < 6, "straight ahead: marker at \(atStart) at \(time(start)) s")
    #expect(atThree - atStart > 150, "the seeks moved the picture: \(atThree) at 3 s, \(atStart) at 0 s")

    // Space plays again, and the lens key works while it plays.
    before = app.count
    try display.xdotool(["key", "space"])
    _ = try video("playing again", after: before) { $0["playing"] as? Bool == true && time($0) > 0.3 }
    try display.xdotool(["key", "l"])
    #expect(app.wait(after: before) { $0["type"] as? String == "view" && $0["lens"] as? String == "stereographic" } != nil)
    _ = try video("the end", after: before, seconds: 15) { $0["ended"] as? Bool == true }
  }

  /// A clip's pose (V2, yaw 90°) and one eye of a top-bottom stereo clip (the top one, here
  /// the negative): the app's first frame is what `pano render --time 0` draws, which the
  /// reframe tests hold to the metadata.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)))
  func thePoseAndOneEyeOfAStereoClip() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    Clips.metadata(Self.clip, file("posed.mp4"), ["--v2", "--yaw", "90"])
    Clips.ffmpeg(
      ["-i", Self.clip, "-filter_complex", "[0:v]split[a][b];[b]negate[n];[n][a]vstack", "-an", file("pair.mp4")])
    Clips.metadata(file("pair.mp4"), file("stereo.mp4"), ["--v2", "--stereo", "top-bottom"])
    let display = try GUI.Display()
    for name in ["posed.mp4", "stereo.mp4"] {
      let shot = file(name + ".png"), reference = file(name + ".cli.png")
      let (status, message) = try GUI.runApp(
        ["--panorama", file(name), "--window", "800x600", "--screenshot", shot],
        environment: ["DISPLAY": display.name, "HOME": dir.path, "SDL_AUDIODRIVER": "dummy"], timeout: 60)
      #expect(status == 0, "\(name): \(message)")
      let r = try Tool.run("imagestage", ["pano", "render", file(name), "--time", "0", "--size", "800x556", "-o", reference])
      #expect(r.status == 0, "\(r.stderr)")
      let app = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: shot)))).image
      let cli = try Raster.decode(Array(try Data(contentsOf: URL(fileURLWithPath: reference)))).image
      // The view above the controls; the marker may have moved a frame or two.
      var total = 0
      var count = 0
      for y in stride(from: 0, to: 490, by: 2) {
        for x in stride(from: 0, to: 800, by: 2) {
          let a = RGBAImage.unpack(app[x, y + 44]), b = RGBAImage.unpack(cli[x, y])
          total += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
          count += 3
        }
      }
      let mean = Double(total) / Double(count)
      #expect(mean < 6, "\(name): the app's frame is the CLI's (mean difference \(mean))")
      if name == "stereo.mp4" {
        // The top eye is the negative: its sky is dark.
        let sky = RGBAImage.unpack(app[400, 100])
        #expect(Int(sky.b) < 120, "the negative eye: \(sky)")
      }
    }
  }

  /// A truncated file, one cut mid-stream, no video stream, an unknown codec and a
  /// 20000-pixel-wide video: each a clear message on the Panorama tab (stderr says it too),
  /// the sample panorama shown when nothing could play, and never a crash or a hang.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)))
  func badVideosGetAClearMessage() throws {
    let dir = try Tool.temporaryDirectory()
    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file("cut.mp4")))
    var unknown = whole
    while let avc1 = unknown.range(of: Data("avc1".utf8)) { unknown.replaceSubrange(avc1, with: Data("zzzz".utf8)) }
    try unknown.write(to: URL(fileURLWithPath: file("unknown.mp4")))
    Clips.ffmpeg(["-f", "lavfi", "-i", "sine=d=0.5", "-c:a", "aac", file("audio.mp4")])
    Clips.ffmpeg(["-f", "lavfi", "-i", "color=gray:s=20000x2:d=0.1", "-c:v", "rawvideo", "-pix_fmt", "yuv420p", file("wide.mkv")])
    let display = try GUI.Display()
    let cases: [(String, String)] = [
      ("cut.mp4", "cut.mp4: not a video libavformat can read"),
      ("unknown.mp4", "no decoder for its video codec"),
      ("audio.mp4", "audio.mp4: has no video stream"),
      ("wide.mkv", "the video is 20000×2, over the limit of 16384 px a side"),
    ]
    for (name, expected) in cases {
      let shot = file(name + ".png")
      let (status, message) = try GUI.runApp(
        ["--panorama", file(name), "--window", "640x480", "--screenshot", shot],
        environment: ["DISPLAY": display.name, "HOME": dir.path], timeout: 60)
      #expect(status == 0, "\(name): \(message)")
      #expect(message.contains(expected) && message.contains("Showing the sample panorama"), "\(name): \(message)")
      #expect(FileManager.default.fileExists(atPath: shot), "\(name): the sample was shown")
    }

    // Cut with its index first: it opens and plays, then stops where the file does.
    Clips.ffmpeg(["-i", Self.clip, "-c", "copy", "-movflags", "+faststart", file("fast.mp4")])
    let fast = try Data(contentsOf: URL(fileURLWithPath: file("fast.mp4")))
    try fast.prefix(fast.count * 2 / 3).write(to: URL(fileURLWithPath: file("fastcut.mp4")))
    // A sound driver that is not there: the sound's failure is said, and the picture plays on.
    let app = try GUI.RunningApp(
      display: display, arguments: ["--panorama", file("fastcut.mp4")], directory: dir,
      environment: ["SDL_AUDIODRIVER": "none-here"])
    defer { app.stop() }
    let ended = try #require(app.wait(seconds: 20) { $0["type"] as? String == "video" && $0["ended"] as? Bool == true })
    #expect((ended["time"] as! Double) > 0.5, "it played up to the cut: \(ended)")
    // Still there: it answers a screenshot request after the end.
    let afterEnd = app.count
    kill(app.process.processIdentifier, SIGUSR1)
    #expect(app.wait(after: afterEnd) { $0["type"] as? String == "screenshot" } != nil, "it answers after the end")
    #expect(app.process.isRunning, "no crash")
    let log = try String(contentsOfFile: dir.appendingPathComponent("app-stderr.log").path, encoding: .utf8)
    #expect(log.contains("fastcut.mp4") && log.contains("truncated"), "\(log)")
    #expect(log.contains("no sound:"), "without a sound device it says so, and plays on: \(log)")
  }
}
