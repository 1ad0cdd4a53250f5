import CoreMath
import Panorama
import Stage
import StageJSON

/// The scene layer's JSON lines, written the same way by every host: the app prints them
/// with `--events`, the page keeps them in `window.imagestage.events` (docs/events.md).
public enum SceneLines {
  /// A scene event as a line, or `nil` for events that have none (saves, requests).
  public static func line(_ event: SceneEvent, in studio: Studio, at t: Double) -> String? {
    switch event {
    case .engine(let kind, let e): EventLines(numericIDs: studio.board(kind).numericIDs).line(e, at: t)
    case .announce(let a): announcement(a, at: t)
    case .sort(_, let e): SortEventLines().line(e, at: t)
    default: nil
    }
  }

  public static func announcement(_ a: Announcement, at t: Double) -> String {
    let line: JSONValue = [
      "type": "announce", "t": .number(t), "text": .string(a.text), "politeness": .string(a.politeness.rawValue),
    ]
    return line.text
  }

  /// The camera of a newly rendered panorama frame, angles in degrees (the CLI's signs).
  public static func view(_ v: PanoramaViewer) -> String { JSONValue.object([("type", "view")] + viewFields(v)).text }

  /// `yaw, pitch, roll, hfov, lens, mode` for `view` lines and the page's `view()`.
  public static func viewFields(_ v: PanoramaViewer) -> [(String, JSONValue)] {
    let a = v.view
    func d(_ r: Double) -> JSONValue { .number(Angle(radians: r).degrees) }
    return [
      ("yaw", d(a.yaw)), ("pitch", d(a.pitch)), ("roll", d(a.roll)), ("hfov", d(v.hfov)), ("lens", .string(v.lens.rawValue)),
      ("mode", .string(v.mode.rawValue)),
    ]
  }

  /// A video's playback after the picture or its state changed, at host time `t`: the time of the frame on
  /// screen (seconds), the length, whether it plays or ended, frames dropped so far (late),
  /// and whether sound leads the clock (docs/events.md).
  public static func video(_ v: VideoPlayback, dropped: Int, sound: Bool, at t: Double) -> String {
    let line: JSONValue = [
      "type": "video", "t": .number(t), "time": .number(v.time), "shown": .number(v.shownTime), "duration": .number(v.duration),
      "playing": .bool(v.isPlaying), "ended": .bool(v.ended), "dropped": .number(dropped), "sound": .bool(sound),
      "label": .string(v.timeLabel),
      "bar": [
        .number(v.barFrame.minX), .number(v.barFrame.minY), .number(v.barFrame.size.width),
        .number(v.barFrame.size.height),
      ],
    ]
    return line.text
  }

  /// The `layout` line: the window, the scene shown, every slot's frame and what it holds
  /// (Locations: the item sitting on it; Shortcuts: its content), every item's frame.
  public static func layout(_ studio: Studio, window: (width: Int, height: Int)) -> String {
    var members: [(String, JSONValue)] = [
      ("type", "layout"), ("scene", .string(studio.active.rawValue)),
      ("window", ["width": .number(window.width), "height": .number(window.height)]),
    ]
    guard studio.active.isBoard else {
      // A tour's hotspots where they are now (tests click them; a tool can follow them).
      let spots = studio.tourHotSpots.map { s -> JSONValue in
        ["index": .number(s.index), "name": .string(s.name), "at": s.at.map { [.number($0.x), .number($0.y)] } ?? .null]
      }
      let tour: [(String, JSONValue)] =
        studio.tour.map { [("tourScene", .string($0.sceneID)), ("hotSpots", .array(spots))] } ?? []
      return JSONValue.object(members + [("slots", []), ("items", [])] + tour).text
    }
    let scene = studio.board(studio.active)
    let lines = EventLines(numericIDs: scene.numericIDs)
    let board = scene.engine.board
    func frame(_ r: StageRect) -> JSONValue {
      [.number(r.minX), .number(r.minY), .number(r.size.width), .number(r.size.height)]
    }
    var sitting: [Int: String] = [:]
    for item in board.items { if let s = item.slot, sitting[s] == nil { sitting[s] = item.id } }
    var slots: [JSONValue] = []
    for (s, slot) in board.slots.enumerated() {
      let content = slot.content ?? sitting[s]
      slots.append(["id": lines.id(slot.id), "frame": frame(slot.frame), "content": content.map { lines.id($0) } ?? .null])
    }
    let items = board.items.map { item -> JSONValue in ["id": lines.id(item.id), "frame": frame(item.frame)] }
    members += [("slots", .array(slots)), ("items", .array(items))]
    return JSONValue.object(members).text
  }

  /// The board's `state` line (the CLI's final line; also what the hosts save).
  public static func state(_ studio: Studio, _ kind: SceneKind) -> String {
    let scene = studio.board(kind)
    return EventLines(numericIDs: scene.numericIDs).state(scene.engine)
  }
}

extension Studio {
  /// What `kind` saves across restarts: its `state` line (docs/scenario.md's state format).
  public func savedState(_ kind: SceneKind) -> String { SceneLines.state(self, kind) }

  /// Restores `kind` from a saved state.
  /// - Throws: `InputError` (StageJSON) naming `source` and the field, when the text is not a state.
  public mutating func restoreSaved(_ kind: SceneKind, from bytes: [UInt8], source: String, at t: Double) throws(InputError) {
    var board = self.board(kind).engine.board
    try SavedState.apply(bytes, to: &board, file: source)
    restore(kind, board: board, at: t)
  }
}
