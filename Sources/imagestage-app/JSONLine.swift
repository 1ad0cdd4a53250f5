import CoreMath
import Scenes
import Stage
import StageFiles

/// The app's own `--events` lines (engine events print through `EventLines`).
enum JSONLine {
  static func announcement(_ a: Announcement, at t: Double) -> String {
    "{\"type\":\"announce\",\"t\":\(JSONText.number(t)),\"text\":\(JSONText.quoted(a.text)),\"politeness\":\"\(a.politeness.rawValue)\"}"
  }

  /// The camera of a newly rendered panorama frame, angles in degrees (the CLI's signs).
  static func view(_ v: PanoramaViewer) -> String {
    let a = v.view
    func d(_ r: Double) -> String { JSONText.number(Angle(radians: r).degrees) }
    return
      "{\"type\":\"view\",\"yaw\":\(d(a.yaw)),\"pitch\":\(d(a.pitch)),\"roll\":\(d(a.roll)),\"hfov\":\(d(v.hfov)),\"lens\":\"\(v.lens.rawValue)\",\"mode\":\"\(v.mode.rawValue)\"}"
  }

  static func screenshot(_ path: String) -> String { "{\"type\":\"screenshot\",\"path\":\(JSONText.quoted(path))}" }

  static func stats(frames: Int, busyFrames: Int, fps: Double, p50: Double, p99: Double) -> String {
    "{\"type\":\"stats\",\"frames\":\(frames),\"busyFrames\":\(busyFrames),\"fps\":\(JSONText.number(fps)),\"workP50ms\":\(JSONText.number(p50)),\"workP99ms\":\(JSONText.number(p99))}"
  }

  /// The `layout` line: the window, the scene shown, every slot's frame and what it holds
  /// (Locations: the item sitting on it; Shortcuts: its content), every item's frame.
  static func layout(_ studio: Studio, window: (width: Int, height: Int)) -> String {
    let head =
      "{\"type\":\"layout\",\"scene\":\"\(studio.active.rawValue)\",\"window\":{\"width\":\(window.width),\"height\":\(window.height)}"
    guard studio.active.isBoard else { return head + ",\"slots\":[],\"items\":[]}" }
    let scene = studio.board(studio.active)
    let lines = EventLines(numericIDs: scene.numericIDs)
    let board = scene.engine.board
    func frame(_ r: Rect) -> String {
      "[\(JSONText.number(r.minX)),\(JSONText.number(r.minY)),\(JSONText.number(r.size.width)),\(JSONText.number(r.size.height))]"
    }
    var sitting: [Int: String] = [:]
    for item in board.items { if let s = item.slot, sitting[s] == nil { sitting[s] = item.id } }
    let slots = board.slots.enumerated().map { s, slot in
      let content = slot.content ?? sitting[s]
      return "{\"id\":\(lines.id(slot.id)),\"frame\":\(frame(slot.frame)),\"content\":\(content.map(lines.id) ?? "null")}"
    }
    let items = board.items.map { "{\"id\":\(lines.id($0.id)),\"frame\":\(frame($0.frame))}" }
    return head + ",\"slots\":[\(slots.joined(separator: ","))],\"items\":[\(items.joined(separator: ","))]}"
  }
}
