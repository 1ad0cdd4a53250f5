import CoreMath
import HostIO
import Scenes
import Stage
import StageJSON

/// The app's own `--events` lines; the scene layer writes the rest (`SceneLines`).
enum JSONLine {
  static func screenshot(_ path: String) -> String { "{\"type\":\"screenshot\",\"path\":\(JSONText.quoted(path))}" }

  static func stats(
    frames: Int, busyFrames: Int, fps: Double, p50: Double, p99: Double, worst: [(frame: Int, ms: Double)]
  ) -> String {
    let slowest = worst.map { "{\"frame\":\($0.frame),\"ms\":\(JSONText.number($0.ms))}" }.joined(separator: ",")
    return
      "{\"type\":\"stats\",\"frames\":\(frames),\"busyFrames\":\(busyFrames),\"fps\":\(JSONText.number(fps)),\"workP50ms\":\(JSONText.number(p50)),\"workP99ms\":\(JSONText.number(p99)),\"slowest\":[\(slowest)]}"
  }

}
