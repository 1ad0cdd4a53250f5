import Foundation
import Panorama
import Raster
import Testing

/// What a 360° camera owner hands the app under Xvfb: a clip under the camera's own name
/// (`.insv`), a motion log beside a clip, an unstitched dual-fisheye file, and a clip cut
/// short of what its header says.
@Suite("imagestage-app with a 360° camera's files under Xvfb", .serialized)
struct AppCameraGUITests {
  typealias GUI = AppGUITests

  /// `seconds` of the 512 × 256 sample at 30 fps with a 440 Hz tone, its index first (so
  /// a cut file still opens), in `dir`.
  static func clip(seconds: Int, in dir: URL, name: String = "clip.mp4") -> String {
    let pano = dir.appendingPathComponent("pano.png").path
    _ = try? Tool.run("imagestage", ["pano", "sample", "-o", pano, "--size", "512x256"])
    Clips.ffmpeg(
      [
        "-loop", "1", "-i", pano, "-f", "lavfi", "-i", "sine=f=440:d=\(seconds):sample_rate=48000", "-t", "\(seconds)", "-r",
        "30", "-c:a", "aac", "-movflags", "+faststart", name,
      ], in: dir)
    return dir.appendingPathComponent(name).path
  }

  /// A camera's MP4 under `.insv` (and one with no extension) plays as a video, as `pano
  /// reframe` reads it: it was taken for an image and refused.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)), arguments: ["clip.insv", "clip"])
  func aCameraFileIsPlayedAsAVideo(name: String) throws {
    let dir = try Tool.temporaryDirectory()
    let mp4 = Self.clip(seconds: 2, in: dir)
    let camera = dir.appendingPathComponent(name).path
    try FileManager.default.moveItem(atPath: mp4, toPath: camera)
    let display = try GUI.Display()
    let app = try GUI.RunningApp(
      display: display, arguments: ["--panorama", camera], directory: dir, environment: ["SDL_AUDIODRIVER": "dummy"])
    defer { app.stop() }
    let playing = app.wait(seconds: 20) { $0["type"] as? String == "video" && ($0["time"] as? Double ?? 0) > 0.2 }
    let log = (try? String(contentsOfFile: dir.appendingPathComponent("app-stderr.log").path, encoding: .utf8)) ?? ""
    #expect(playing != nil, "\(name) plays: \(log)")
    #expect(!log.contains("Showing the sample panorama"), "\(log)")
  }

  /// `--motion` turns a video's view as it turns a still's: the view lines follow the log
  /// (docs/examples/turn.csv turns right) while the clip plays.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)))
  func aMotionLogTurnsAVideosView() throws {
    let dir = try Tool.temporaryDirectory()
    let clip = Self.clip(seconds: 4, in: dir)
    let log = Tool.packageRoot.appendingPathComponent("docs/examples/turn.csv").path
    let display = try GUI.Display()
    let app = try GUI.RunningApp(
      display: display, arguments: ["--panorama", clip, "--motion", log], directory: dir,
      environment: ["SDL_AUDIODRIVER": "dummy"])
    defer { app.stop() }
    _ = app.wait(seconds: 20) { $0["type"] as? String == "video" && ($0["time"] as? Double ?? 0) > 1 }
    let yaws = app.lines(ofType: "view").compactMap { $0["yaw"] as? Double }
    let spread = (yaws.max() ?? 0) - (yaws.min() ?? 0)
    let said = (try? String(contentsOfFile: dir.appendingPathComponent("app-stderr.log").path, encoding: .utf8)) ?? ""
    #expect(spread > 10, "the log turned the view: yaws \(yaws.prefix(40)) \(said)")
    #expect(app.lines(ofType: "video").contains { $0["playing"] as? Bool == true }, "the clip plays meanwhile")
  }

  /// A clip that looks like an unstitched dual-fisheye file (two lens circles, no
  /// spherical metadata) is warned about, on stderr in the CLI's words and on the tab.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(2)))
  func anUnstitchedDualFisheyeClipIsWarnedAbout() throws {
    let dir = try Tool.temporaryDirectory()
    let plain = Self.clip(seconds: 1, in: dir)
    let fisheye = dir.appendingPathComponent("dual.mp4").path
    let inside = "lte(hypot(mod(X,W/2)-W/4,Y-H/2),H/2)"
    Clips.ffmpeg([
      "-i", plain, "-vf",
      "v360=e:dfisheye:h_fov=190:v_fov=190,format=rgb24,geq=r='if(\(inside),r(X,Y),0)':g='if(\(inside),g(X,Y),0)':b='if(\(inside),b(X,Y),0)'",
      "-an", fisheye,
    ])
    let display = try GUI.Display()
    let warning = "dual.mp4 looks like an unstitched dual-fisheye frame (two lens circles side by side)"
    for (input, warned) in [(fisheye, true), (plain, false)] {
      let shot = dir.appendingPathComponent("shot.png").path
      let (status, message) = try GUI.runApp(
        ["--panorama", input, "--window", "640x480", "--screenshot", shot],
        environment: ["DISPLAY": display.name, "HOME": dir.path, "SDL_AUDIODRIVER": "dummy"], timeout: 60)
      #expect(status == 0, "\(message)")
      #expect(message.contains(warning) == warned, "\(input): \(message)")
    }
  }

  /// A 10 s clip cut to about 6 s (its index first, so it opens): playback stops where the
  /// picture does, and every time the app gives is that one: the ended line's time, the
  /// bar's label (not "0:10.0 / 0:10.0"), and the message saying where the picture ends.
  @Test(.enabled(if: GUI.available), .timeLimit(.minutes(3)))
  func aClipCutShortGivesItsRealTimes() throws {
    let dir = try Tool.temporaryDirectory()
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.clip(seconds: 10, in: dir)))
    let cut = dir.appendingPathComponent("cut.mp4").path
    try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
    // Where the picture really ends: what `pano reframe` finds decoding it all.
    let reframed = try Clips.raw(["pano", "reframe", cut, "-o", "-", "--size", "16x8", "--quiet"])
    let said = try #require(reframed.stderr.range(of: "the clip ends early at "), "\(reframed.stderr)")
    let end = try #require(Double(reframed.stderr[said.upperBound...].prefix { $0 != " " }))
    #expect(end > 4 && end < 8, "\(reframed.stderr)")

    let display = try GUI.Display()
    let app = try GUI.RunningApp(
      display: display, arguments: ["--panorama", cut], directory: dir, environment: ["SDL_AUDIODRIVER": "dummy"])
    defer { app.stop() }
    let ended = try #require(
      app.wait(seconds: 40) { $0["type"] as? String == "video" && $0["ended"] as? Bool == true }, "it ends")
    let time = try #require(ended["shown"] as? Double), label = try #require(ended["label"] as? String)
    #expect(abs(time - end) < 0.1, "it stops at \(end) s and says \(time) (\(ended))")
    #expect(!label.contains("0:10.0"), "the bar's label: \(label)")
    #expect(abs((ended["duration"] as? Double ?? 0) - end) < 0.1, "the length is what the file holds: \(ended)")
    let log = try String(contentsOfFile: dir.appendingPathComponent("app-stderr.log").path, encoding: .utf8)
    let ends = try #require(log.range(of: "the picture ends at "), "\(log)")
    let saidEnd = try #require(Double(log[ends.upperBound...].prefix { $0 != " " }), "\(log)")
    #expect(abs(saidEnd - end) < 0.1, "\(log)")
    #expect(!log.contains("frame ") || log.contains("frame \(Int((end * 30).rounded()))"), "frame numbers by time: \(log)")
  }
}
