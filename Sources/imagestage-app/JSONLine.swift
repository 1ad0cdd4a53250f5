import CoreMath
import HostIO
import Scenes
import Stage
import StageJSON

/// The app's own `--events` lines; the scene layer writes the rest (`SceneLines`).
enum JSONLine {
  static func screenshot(_ path: String) -> String { "{\"type\":\"screenshot\",\"path\":\(JSONText.quoted(path))}" }

  static func stats(frames: Int, busyFrames: Int, fps: Double, p50: Double, p99: Double) -> String {
    "{\"type\":\"stats\",\"frames\":\(frames),\"busyFrames\":\(busyFrames),\"fps\":\(JSONText.number(fps)),\"workP50ms\":\(JSONText.number(p50)),\"workP99ms\":\(JSONText.number(p99))}"
  }

}
