import CoreMath
import Panorama
import Scenes
import Stage
import StageJSON

// The demo page's side of its wasm module: one `Studio` (the scene layer every host drives)
// behind C-ABI exports that take numbers and return JSON text. The JS host (imagestage.js)
// turns DOM events into these calls and paints what `web_display_list` returns. Memory,
// the output buffer and the panorama's pixels are web/shared/WasmBridge.swift's.

nonisolated(unsafe) var studio = Studio()
nonisolated(unsafe) var art = RGBAImage(width: 1, height: 1)
/// What one input did, for the host: `--events` lines, boards to save, announcements to
/// speak, the scene now shown, requests.
func report(_ events: [SceneEvent], at t: Double) -> Int32 {
  var lines: [JSONValue] = []
  var saves: [String] = []
  var speech: [JSONValue] = []
  var shown = JSONValue.null
  var layout = false
  var requests: [JSONValue] = []
  for e in events {
    if let line = SceneLines.line(e, in: studio, at: t) { lines.append(.raw(line)) }
    switch e {
    case .engine(_, .announce(let text)):
      // An engine's announcement answers what the user just did: spoken at once.
      speech.append(["text": .string(text), "politeness": "assertive"])
    case .announce(let a): speech.append(["text": .string(a.text), "politeness": .string(a.politeness.rawValue)])
    case .save(let kind): if !saves.contains(kind.rawValue) { saves.append(kind.rawValue) }
    case .shown(let kind): shown = .string(kind.rawValue)
    case .layout: layout = true
    case .request(.screenshot): requests.append("screenshot")
    case .request(.quit): requests.append("quit")
    case .request(.loadTourScene): break  // the page has no tours in its Studio; the viewer has its own
    case .engine, .sort: break
    }
  }
  return answer([
    "lines": .array(lines), "save": .array(saves.map { .string($0) }), "speak": .array(speech), "shown": shown,
    "layout": .bool(layout), "requests": .array(requests),
  ])
}

func kind(_ code: Int32) -> SceneKind {
  switch code {
  case 1: .shortcuts
  case 2: .panorama
  default: .locations
  }
}

// MARK: Scenes

/// Starts over on scene `scene` (0 Locations, 1 Shortcuts, 2 Panorama).
@_cdecl("web_start")
public func webStart(_ scene: Int32, _ reducedMotion: Int32) {
  studio = Studio(active: kind(scene))
  studio.setReducedMotion(reducedMotion != 0)
}

@_cdecl("web_set_reduced_motion")
public func webSetReducedMotion(_ on: Int32) { studio.setReducedMotion(on != 0) }

@_cdecl("web_layout")
public func webLayout(_ width: Double, _ height: Double, _ t: Double) -> Int32 {
  report(studio.layout(viewport: StageSize(width: width, height: height), at: t), at: t)
}

@_cdecl("web_show")
public func webShow(_ scene: Int32, _ t: Double) -> Int32 { report(studio.show(kind(scene), at: t), at: t) }

/// `phase`: 0 down, 1 move, 2 up, 3 cancel; `pointerKind`: 0 mouse, 1 touch, 2 pen.
@_cdecl("web_pointer")
public func webPointer(_ phase: Int32, _ id: Int32, _ pointerKind: Int32, _ x: Double, _ y: Double, _ t: Double) -> Int32 {
  let phases: [PointerPhase] = [.down, .move, .up, .cancel]
  let kinds: [PointerKind] = [.mouse, .touch, .pen]
  let input = SceneInput.pointer(
    phases[Int(min(max(phase, 0), 3))], id: Int(id), kind: kinds[Int(min(max(pointerKind, 0), 2))], at: StagePoint(x: x, y: y))
  return report(studio.handle(input, at: t), at: t)
}

@_cdecl("web_wheel")
public func webWheel(_ dx: Double, _ dy: Double, _ precise: Int32, _ x: Double, _ y: Double, _ t: Double) -> Int32 {
  report(studio.handle(.wheel(dx: dx, dy: dy, precise: precise != 0, at: StagePoint(x: x, y: y)), at: t), at: t)
}

/// Keys by number (the JS host maps `KeyboardEvent.key`): 1 Tab, 2 Space, 3 Enter, 4 Escape,
/// 5 Backspace, 6 Delete, 7–10 Left, Right, Up, Down, 11 +, 12 −, 100 + n F n, 1000 + a
/// character's scalar value (lower case). `modifiers`: 1 Shift, 2 Control/Command, 4 Alt.
/// Returns −1 when the key means nothing here (the page lets the browser have it).
@_cdecl("web_key")
public func webKey(_ code: Int32, _ modifiers: Int32, _ down: Int32, _ isRepeat: Int32, _ t: Double) -> Int32 {
  let name: KeyName
  switch code {
  case 1: name = .tab
  case 2: name = .space
  case 3: name = .enter
  case 4: name = .escape
  case 5: name = .backspace
  case 6: name = .delete
  case 7: name = .left
  case 8: name = .right
  case 9: name = .up
  case 10: name = .down
  case 11: name = .plus
  case 12: name = .minus
  case 101...124: name = .function(Int(code) - 100)
  case 1000...:
    guard let scalar = Unicode.Scalar(UInt32(code - 1000)) else { return -1 }
    name = .character(Character(scalar))
  default: return -1
  }
  let mods = Modifiers(rawValue: UInt8(truncatingIfNeeded: modifiers))
  guard KeyBindings.action(for: name, mods, in: studio.active) != nil else { return -1 }
  // Tab past the last element (Shift+Tab before the first) leaves the canvas: the browser
  // moves on to the page's next control, and the scene gives its focus up.
  if name == .tab, down != 0, studio.focusLeaves(forward: !mods.contains(.shift)) {
    studio.releaseFocus()
    return -1
  }
  return report(studio.handle(.key(name, mods, isDown: down != 0, isRepeat: isRepeat != 0), at: t), at: t)
}

@_cdecl("web_focus_lost")
public func webFocusLost(_ t: Double) -> Int32 { report(studio.handle(.focusLost, at: t), at: t) }

/// A `deviceorientation` reading (degrees) and the screen's rotation, at host time `t`.
@_cdecl("web_orientation")
public func webOrientation(_ alpha: Double, _ beta: Double, _ gamma: Double, _ screenAngle: Double, _ t: Double) {
  let q = Quaternion.deviceOrientation(alpha: alpha, beta: beta, gamma: gamma, screenAngle: screenAngle)
  _ = studio.handle(.motion(.attitude(t: t, q)), at: t)
}

/// Runs animations and the camera to `t`; 1 when nothing moves any more.
@_cdecl("web_advance")
public func webAdvance(_ t: Double) -> Int32 {
  studio.advance(to: t)
  return studio.isIdle ? 1 : 0
}

/// Shows `text` in the message banner (an empty text removes it).
@_cdecl("web_message")
public func webMessage(_ pointer: UnsafePointer<UInt8>?, _ count: Int32) {
  let message = text(pointer, count)
  studio.showMessage(message.isEmpty ? nil : message)
}

// MARK: Drawing

func color(_ c: RGBA) -> JSONValue { .string("rgba(\(c.r),\(c.g),\(c.b),\(JSONText.number(Double(c.a) / 255)))") }
func rect(_ r: StageRect) -> [JSONValue] { [.number(r.minX), .number(r.minY), .number(r.size.width), .number(r.size.height)] }

/// The display list as JSON: `{"cursor":…, "commands":[[op, …], …]}` with ops `fill`,
/// `outline`, `image`, `text`, `shadow`, `focus` (docs/web.md).
@_cdecl("web_display_list")
public func webDisplayList() -> Int32 {
  let list = studio.displayList()
  var out: [JSONValue] = []
  out.reserveCapacity(list.commands.count)
  for command in list.commands {
    switch command {
    case .fill(let r, let c, let radius):
      out.append(.array(["fill"] + rect(r) + [color(c), .number(radius)]))
    case .outline(let r, let c, let width, let radius):
      out.append(.array(["outline"] + rect(r) + [color(c), .number(width), .number(radius)]))
    case .image(let id, let r, let opacity):
      let name: [JSONValue]
      switch id {
      case .photo(let s): name = ["photo", .string(s)]
      case .icon(let s): name = ["icon", .string(s)]
      case .panorama: name = ["panorama", ""]
      }
      out.append(.array(["image"] + name + rect(r) + [.number(opacity)]))
    case .text(let s, let at, let size, let c, let alignment, let maxWidth):
      let align: JSONValue
      switch alignment {
      case .leading: align = "left"
      case .center: align = "center"
      case .trailing: align = "right"
      }
      out.append(
        ["text", .string(s), .number(at.x), .number(at.y), .number(size), color(c), align, maxWidth.map { .number($0) } ?? .null])
    case .shadow(let r, let radius, let opacity):
      out.append(.array(["shadow"] + rect(r) + [.number(radius), .number(opacity)]))
    case .focusRing(let r):
      out.append(.array(["focus"] + rect(r)))
    }
  }
  let cursor: JSONValue
  switch list.cursor {
  case .arrow: cursor = "default"
  case .pointer: cursor = "pointer"
  case .grab: cursor = "grab"
  case .grabbing: cursor = "grabbing"
  }
  return answer(["cursor": cursor, "title": .string(studio.title), "commands": .array(out)])
}

/// What a screen reader needs beside the canvas: the tabs, and the shown board's slots and
/// items with their names and frames (points), and the focus.
@_cdecl("web_accessibility")
public func webAccessibility() -> Int32 {
  let tabs = SceneKind.allCases.map { k -> JSONValue in
    [
      "id": .string(k.rawValue), "name": .string(k.title), "selected": .bool(k == studio.active),
      "frame": .array(rect(studio.tabFrame(k))),
    ]
  }
  var nodes: [JSONValue] = []
  if studio.active.isBoard {
    let scene = studio.board(studio.active)
    for f in scene.focusOrder { nodes.append(["name": .string(scene.describe(f)), "frame": .array(rect(scene.frame(of: f)))]) }
  }
  return answer(["tabs": .array(tabs), "nodes": .array(nodes), "focus": .string(studio.focus.map(describeFocus))])
}

func describeFocus(_ f: Focus) -> String {
  switch f {
  case .tab(let k): "\(k.title) tab"
  case .board(let b): studio.active.isBoard ? studio.board(studio.active).describe(b) : ""
  case .dismissMessage: "Dismiss the message"
  case .view: "Panorama view"
  }
}

/// The `layout` line for a `width`×`height` page.
@_cdecl("web_layout_line")
public func webLayoutLine(_ width: Int32, _ height: Int32) -> Int32 {
  answer(SceneLines.layout(studio, window: (Int(width), Int(height))))
}

// MARK: Boards and saving

@_cdecl("web_state")
public func webState(_ scene: Int32) -> Int32 {
  let k = kind(scene)
  return k.isBoard ? answer(studio.savedState(k)) : answer(JSONValue.null)
}

/// Restores a board from saved text; the error (naming the field) or an empty answer.
@_cdecl("web_restore")
public func webRestore(_ scene: Int32, _ pointer: UnsafePointer<UInt8>?, _ count: Int32, _ t: Double) -> Int32 {
  let k = kind(scene)
  guard k.isBoard else { return answer("not a board") }
  do throws(InputError) {
    try studio.restoreSaved(k, from: bytes(pointer, count), source: "localStorage imagestage.\(k.rawValue)", at: t)
    return answer("")
  } catch {
    return answer(error.description)
  }
}

/// The Locations photo (`side` pixels square, RGBA): the same picture the app shows.
@_cdecl("web_default_photo")
public func webDefaultPhoto(_ side: Int32) -> UnsafeMutableRawPointer? {
  art = DefaultArt.photo(size: Int(max(8, min(side, 1024))))
  // Copied into memory this module owns: an array's address is only valid inside
  // `withUnsafeMutableBytes` (WasmBridge.swift).
  return publish(art)
}

/// Adds a photo to Locations (the host holds its thumbnail under the same id).
@_cdecl("web_add_photo")
public func webAddPhoto(
  _ id: UnsafePointer<UInt8>?, _ idCount: Int32, _ name: UnsafePointer<UInt8>?, _ nameCount: Int32, _ x: Double,
  _ y: Double, _ t: Double
)
  -> Int32
{
  // x, y: where it was dropped (NaN: from the file picker, no place).
  let at = x.isFinite && y.isFinite ? StagePoint(x: x, y: y) : nil
  return report(studio.addPhotos([Photo(id: text(id, idCount), name: text(name, nameCount))], droppedAt: at, at: t), at: t)
}

/// The shortcut icons: id, name, colour and letter, for the host to draw their tiles.
@_cdecl("web_icons")
public func webIcons() -> Int32 {
  answer(
    .array(
      ShortcutIcon.all.map {
        ["id": .string($0.id), "name": .string($0.name), "color": color($0.color), "letter": .string($0.letter)]
      }))
}

// MARK: Panorama

/// Opens a panorama of `width`×`height` pixels: `head` is the start of its file (for the
/// GPano XMP of a JPEG or PNG). Answers the geometry and the coverage reason.
@_cdecl("web_open_panorama")
public func webOpenPanorama(
  _ head: UnsafePointer<UInt8>?, _ headCount: Int32, _ width: Int32, _ height: Int32, _ name: UnsafePointer<UInt8>?,
  _ nameCount: Int32
) -> Int32 {
  let (geometry, coverage) = PanoramaGeometry.of(width: Int(width), height: Int(height), gpano: gpano(bytes(head, headCount)))
  let title = text(name, nameCount)
  if studio.panorama == nil {
    studio.setPanorama(PanoramaScene(geometry: geometry, name: title))
  } else {
    studio.updatePanorama { $0.load(geometry: geometry, name: title) }
  }
  return answer(geometryJSON(geometry, coverage: coverage))
}

/// The CPU renderer takes the filled pixels (`attachPendingPixels`).
@_cdecl("web_panorama_commit")
public func webPanoramaCommit() -> Int32 {
  var attached: Int32 = 0
  studio.updatePanorama { attached = attachPendingPixels(&$0) }
  return attached
}

/// Its mip levels and polar caps (`buildCPUExtras`).
@_cdecl("web_panorama_mip_levels")
public func webPanoramaMipLevels() { studio.updatePanorama { buildCPUExtras(&$0) } }

/// Renders the view with the CPU renderer into a `width`×`height` RGBA frame; returns its
/// address (valid until the next call), or 0 without pixels.
@_cdecl("web_render_cpu")
public func webRenderCPU(_ width: Int32, _ height: Int32) -> UnsafeMutableRawPointer? {
  var pointer: UnsafeMutableRawPointer?
  studio.updatePanorama { pointer = renderCPU(&$0, width, height) }
  return pointer
}

/// Everything the WebGL2 shader needs for a `width`×`height` pixel view (`gpuView`).
@_cdecl("web_gpu_view")
public func webGPUView(_ width: Int32, _ height: Int32, _ sourceWidth: Int32, _ sourceHeight: Int32) -> Int32 {
  guard let scene = studio.panorama else { return answer(JSONValue.null) }
  return answer(gpuView(scene, width, height, sourceWidth, sourceHeight))
}

/// `{yaw, pitch, roll, hfov, lens, mode, caption, key}`: `key` changes when the frame would.
@_cdecl("web_view")
public func webView(_ width: Int32, _ height: Int32) -> Int32 {
  guard let scene = studio.panorama else { return answer(JSONValue.null) }
  let extra: [(String, JSONValue)] = [
    ("source", .string(scene.viewer.source.rawValue)), ("key", .string(frameKey(scene, width, height))),
    ("line", .string(SceneLines.view(scene.viewer))),
  ]
  return answer(.object(SceneLines.viewFields(scene.viewer) + extra))
}

/// Sets the camera from the page's URL: angles in degrees; a lens by name; NaN keeps one.
@_cdecl("web_set_camera")
public func webSetCamera(_ yaw: Double, _ pitch: Double, _ hfov: Double, _ lens: UnsafePointer<UInt8>?, _ lensCount: Int32)
  -> Int32
{
  let name = text(lens, lensCount)
  var problem = ""
  studio.updatePanorama { scene in
    scene.update { viewer in
      if !name.isEmpty {
        if let l = Lens(rawValue: name) { viewer.setLens(l) } else { problem = "unknown lens \"\(name)\"" }
      }
      let degree = Elementary.pi / 180
      let o = viewer.offset
      viewer.set(
        offset: ViewAngles(
          yaw: yaw.isFinite ? yaw * degree : o.yaw, pitch: pitch.isFinite ? pitch * degree : o.pitch, roll: o.roll),
        hfov: hfov.isFinite ? hfov * degree : nil)
      viewer.zoom(by: 1)  // back inside the lens's and the coverage's limits
    }
  }
  return answer(problem)
}

/// Keeps the horizon level (`set` 1), lets the view roll with the device (0), or only asks
/// (-1); answers whether it is kept level now (the H key toggles it too).
@_cdecl("web_level_horizon")
public func webLevelHorizon(_ set: Int32) -> Int32 {
  var on = false
  studio.updatePanorama { scene in
    scene.update { viewer in
      if set >= 0 { viewer.levelsHorizon = set == 1 }
      on = viewer.levelsHorizon
    }
  }
  return on ? 1 : 0
}

/// Replays a motion log (Sensor Logger CSV or the other formats of docs/motion.md) from host
/// time `t`, looping; the parse error with its line, or an empty answer.
@_cdecl("web_play_log")
public func webPlayLog(_ pointer: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
  do throws(MotionLog.ParseError) {
    let log = try MotionLog.parse(bytes(pointer, count))
    studio.updatePanorama { $0.update { $0.play(log, loops: true) } }
    return answer("")
  } catch {
    // A log that does not read stops the one playing: the user asked for another.
    studio.updatePanorama { $0.update { $0.stopReplay() } }
    return answer(error.description)
  }
}

/// The key help, without the keys a browser keeps for itself (F12, Ctrl+Q).
@_cdecl("web_help")
public func webHelp() -> Int32 { answer(KeyBindings.helpText(indent: "", leaving: [.screenshot, .quit])) }

/// Touch wording (the page's primary pointer is coarse): labels without keys, tap Undo.
@_cdecl("web_set_touch_first")
public func webSetTouchFirst(_ on: Int32) { studio.setTouchFirst(on != 0) }

/// Leaves `points` at the tab bar's right end to the page (its help button).
@_cdecl("web_set_tab_bar_inset")
public func webSetTabBarInset(_ points: Double) { studio.tabBarTrailingInset = max(0, min(points, 200)) }

/// The canvas lost the keyboard focus to the page (a toolbar button): no ring stays drawn.
@_cdecl("web_release_focus")
public func webReleaseFocus() { studio.releaseFocus() }

/// Stops a motion-log replay (the page's Stop button); 1 when one was playing.
@_cdecl("web_stop_replay")
public func webStopReplay() -> Int32 {
  var stopped = false
  studio.updatePanorama { $0.update { stopped = $0.stopReplay() } }
  return stopped ? 1 : 0
}

@_cdecl("web_version")
public func webVersion() -> Int32 { answer(imageStageVersion) }
