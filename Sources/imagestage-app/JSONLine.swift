import CoreMath
import HostIO
import Scenes
import Stage
import StageJSON

/// The app's own `--events` lines; the scene layer writes the rest (`SceneLines`).
enum JSONLine {
  static func screenshot(_ path: String) -> String { JSONValue.object([("type", "screenshot"), ("path", .string(path))]).text }

  /// The open panorama's mip levels and polar caps are in (built after its first frames).
  static func panoramaReady(mipLevels: Int, polarCaps: Bool) -> String {
    JSONValue.object([("type", "panorama"), ("mipLevels", .number(mipLevels)), ("polarCaps", .bool(polarCaps))]).text
  }

  static func stats(
    frames: Int, busyFrames: Int, fps: Double, p50: Double, p99: Double, worst: [(frame: Int, ms: Double)]
  ) -> String {
    let slowest = worst.map { w -> JSONValue in ["frame": .number(w.frame), "ms": .number(w.ms)] }
    let line: JSONValue = [
      "type": "stats", "frames": .number(frames), "busyFrames": .number(busyFrames), "fps": .number(fps),
      "workP50ms": .number(p50), "workP99ms": .number(p99), "slowest": .array(slowest),
    ]
    return line.text
  }
}
