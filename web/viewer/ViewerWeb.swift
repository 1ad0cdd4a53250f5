import CoreMath
import Panorama
import Scenes
import Stage
import StageJSON

// The embeddable viewer's side of its own wasm module (imagestage-viewer.wasm): one
// `ViewerTour` (a Pannellum config's scenes, the camera, the hotspots) behind C-ABI exports.
// No `Studio`, no boards: the linker drops what these exports never reach. Each viewer on a
// page instantiates the module afresh, so this global is one viewer's. JS:
// web/viewer/imagestage-viewer.js; memory and pixels: web/shared/WasmBridge.swift.

nonisolated(unsafe) var tour = ViewerTour(
  config: ViewerConfig(scenes: [ViewerScene(id: "", settings: ViewerSettings())], firstScene: ""))

let degree = Elementary.pi / 180

// MARK: A config in (web/viewer/viewer-config.js walks the page's object and feeds it here)

/// The config being fed: one call per value, member names as `ViewerKey` indices (or their
/// bytes, for a name the table lacks). The JS walks what `JSON.parse` (or the page) gave it,
/// so this module links no JSON parser, tree or reader; `viewer_configure`,
/// `viewer_add_scene` and `viewer_add_hotspot` read what was fed with the reader a file's
/// config goes through (the same rules and key paths).
nonisolated(unsafe) var fed = ViewerConfigFeed()
/// The page's URL parameters, fed one a call before `viewer_configure`: their names found in
/// the key table by the JS (web/viewer/viewer-config.js), so this module looks no name up.
nonisolated(unsafe) var fedParameters: [ViewerURLParameters.Given] = []

/// Starts a config (or a scene, a hotspot) afresh.
@_cdecl("viewer_feed_begin")
public func viewerFeedBegin() {
  fed = ViewerConfigFeed()
  fedParameters = []
}

/// The next member's name: `ViewerKey` case `index` (its `name`: the JS list is that table's,
/// ViewerKeyTests holds them together).
@_cdecl("viewer_feed_key")
public func viewerFeedKey(_ index: Int32) {
  if let key = ViewerKey(rawValue: Int(index)) { fed.key(key) } else { fed.key("") }
}

/// The next member's name, for one the key table does not have (a page's own, a scene's id).
@_cdecl("viewer_feed_name")
public func viewerFeedName(_ name: UnsafePointer<UInt8>?, _ count: Int32) { fed.key(text(name, count)) }

@_cdecl("viewer_feed_number")
public func viewerFeedNumber(_ value: Double) { fed.add(value.isFinite ? .number(value) : .null) }

@_cdecl("viewer_feed_flag")
public func viewerFeedFlag(_ value: Int32) { fed.add(.flag(value != 0)) }

@_cdecl("viewer_feed_text")
public func viewerFeedText(_ value: UnsafePointer<UInt8>?, _ count: Int32) { fed.add(.text(text(value, count))) }

@_cdecl("viewer_feed_null")
public func viewerFeedNull() { fed.add(.null) }

/// Opens an array (1) or an object (0); `viewer_feed_close` ends it.
@_cdecl("viewer_feed_open")
public func viewerFeedOpen(_ array: Int32) { fed.open(array: array != 0) }

@_cdecl("viewer_feed_close")
public func viewerFeedClose() { fed.close() }

/// One URL parameter, in the page's order: `ViewerKey` case `index` (its name, found by the JS
/// among the settings' and the URL's), or −1 and its `name` for one the table lacks, and its
/// value's text.
@_cdecl("viewer_feed_parameter")
public func viewerFeedParameter(
  _ index: Int32, _ name: UnsafePointer<UInt8>?, _ nameCount: Int32, _ value: UnsafePointer<UInt8>?, _ valueCount: Int32
) {
  let key = index >= 0 ? ViewerKey(rawValue: Int(index)) : nil
  fedParameters.append(.init(key: key, name: key?.name ?? text(name, nameCount), value: text(value, valueCount)))
}

/// What was fed, or the error that says the JS fed it out of order (a bug of ours).
func fedConfig(_ source: String) throws(InputError) -> ConfigValue {
  guard let value = fed.result else { throw InputError(path: source, message: "the config could not be read (nested too deep?)") }
  fed = ViewerConfigFeed()
  return value
}

/// Reads the config fed and the URL parameters fed over it; `source` names the config in
/// messages, and `folder` (the config file's, when it came from a URL) is the `basePath` of
/// scenes that set none, as in Pannellum's standalone viewer. Answers records
/// (`recordOutcome`): the error, or none and the warnings.
@_cdecl("viewer_configure")
public func viewerConfigure(
  _ source: UnsafePointer<UInt8>?, _ sourceCount: Int32, _ folder: UnsafePointer<UInt8>?, _ folderCount: Int32
) -> Int32 {
  do throws(InputError) {
    let name = text(source, sourceCount)
    var c = try ViewerConfig.read(try fedConfig(name), source: name)
    let base = text(folder, folderCount)
    if !base.isEmpty {
      for k in c.scenes.indices where c.scenes[k].settings[text: .basePath] == nil {
        c.scenes[k].settings[text: .basePath] = base
      }
      if c.defaults[text: .basePath] == nil { c.defaults[text: .basePath] = base }
    }
    var warnings = c.warnings.map { $0.description }
    if !fedParameters.isEmpty {
      let url = try ViewerURLParameters(given: fedParameters)
      fedParameters = []
      warnings += url.warnings.map { $0.description }
      if let first = url.settings[text: .firstScene] {
        if c.scene(first) != nil {
          c.firstScene = first
        } else {
          warnings.append("URL parameter firstScene: names no scene (\"\(first)\"); showing \"\(c.firstScene)\"")
        }
      }
      c.override(with: url.settings)
      var dropped: [ConfigWarning] = []
      for k in c.scenes.indices { c.scenes[k].dropVideoIfTiled(warnings: &dropped) }
      warnings += dropped.map { $0.description }
    }
    tour = ViewerTour(config: c)
    return recordOutcome(error: nil, warnings: warnings)
  } catch {
    fedParameters = []
    return recordOutcome(error: error.description, warnings: [])
  }
}

/// The shown scene, for the host to paint around the view, as records (read by `readScene`
/// in web/viewer/viewer-frame.js): its id, its settings (`recordSettings`), its image's
/// address, why it cannot be shown (or none), whether it is tiled, its preview's and video's
/// addresses; its hotspots (`recordHotSpot`, each with its accessible name), their Tab
/// order, the scenes it links to (id, image address) and every scene's id, each list after
/// its count.
@_cdecl("viewer_scene")
public func viewerScene() -> Int32 {
  beginRecords()
  record(text: tour.sceneID)
  recordSettings(tour.settings)
  record(text: tour.imageURL)
  record(text: tour.unsupported)
  record(tour.tileLayout != nil)
  record(text: tour.previewURL)
  record(text: tour.videoURL)
  let spots = tour.scene.hotSpots
  record(Double(spots.count))
  for k in spots.indices {
    recordHotSpot(spots[k])
    record(text: tour.name(ofHotSpot: k))
  }
  let order = tour.tabOrder
  record(Double(order.count))
  for k in order { record(Double(k)) }
  let linked = tour.linkedScenes
  record(Double(linked.count))
  for id in linked {
    record(text: id)
    record(text: tour.imageURL(ofScene: id))
  }
  record(Double(tour.config.scenes.count))
  for scene in tour.config.scenes { record(text: scene.id) }
  return Int32(recordCount)
}

/// Opens the scene's decoded image (`width`×`height`; `head`: its file's first bytes, for
/// GPano). Answers the geometry in the answer numbers (`ViewerGeometrySlot`).
@_cdecl("viewer_open")
public func viewerOpen(
  _ head: UnsafePointer<UInt8>?, _ headCount: Int32, _ width: Int32, _ height: Int32, _ name: UnsafePointer<UInt8>?,
  _ nameCount: Int32
) -> Int32 {
  _ = tour.open(width: Int(width), height: Int(height), gpano: gpano(bytes(head, headCount)), name: text(name, nameCount))
  return answerGeometry(eye: nil)
}

/// Writes the open scene's geometry (and a video's eye) into the answer numbers, as
/// `ViewerGeometrySlot` lays them out; answers how many.
func answerGeometry(eye: (x: Int, y: Int, width: Int, height: Int)?) -> Int32 {
  guard let g = tour.panorama?.viewer.geometry else { return 0 }
  func put(_ slot: ViewerGeometrySlot, _ value: Double) { answerRoom[slot.rawValue] = value }
  put(.projection, Double(ViewerGeometrySlot.projections.firstIndex(of: g.projection) ?? 0))
  put(.fullWidth, g.fullWidth)
  put(.fullHeight, g.fullHeight)
  put(.croppedLeft, g.croppedLeft)
  put(.croppedTop, g.croppedTop)
  put(.croppedWidth, g.croppedWidth)
  put(.croppedHeight, g.croppedHeight)
  put(.wraps, g.wraps ? 1 : 0)
  put(.eyeX, eye.map { Double($0.x) } ?? .nan)
  put(.eyeY, eye.map { Double($0.y) } ?? .nan)
  put(.eyeWidth, eye.map { Double($0.width) } ?? .nan)
  put(.eyeHeight, eye.map { Double($0.height) } ?? .nan)
  return Int32(ViewerGeometrySlot.count)
}

/// The scene's video's spherical metadata, read from its MP4 boxes by `MP4SphericalReader`
/// (viewer-video.js fetches the ranges it asks for), and what it found.
nonisolated(unsafe) var sphericalReader = MP4SphericalReader()
nonisolated(unsafe) var spherical: SphericalVideo?

/// A file size from JS (negative or not a safe integer: unknown).
func fileSize(_ size: Double) -> Int64? { size >= 0 && size < 9_007_199_254_740_992 ? Int64(size) : nil }

/// Starts reading a video's boxes afresh (`size`: the file's length, or −1). Answers the
/// reader's step in the answer numbers and text (`ViewerSphericalSlot`).
@_cdecl("viewer_spherical_begin")
public func viewerSphericalBegin(_ size: Double) -> Int32 {
  sphericalReader = MP4SphericalReader(fileSize: fileSize(size))
  spherical = nil
  return sphericalStep()
}

/// The bytes of the range the last step asked for (fewer where the file ends; `size` as for
/// begin, when this answer told it). Answers the next step.
@_cdecl("viewer_spherical_feed")
public func viewerSphericalFeed(_ data: UnsafePointer<UInt8>?, _ count: Int32, _ size: Double) -> Int32 {
  if sphericalReader.fileSize == nil, let size = fileSize(size) { sphericalReader.fileSize = size }
  sphericalReader.feed(bytes(data, count))
  return sphericalStep()
}

/// Writes the reader's step into the answer numbers (`ViewerSphericalSlot`); answers the
/// length of its text.
func sphericalStep() -> Int32 {
  func put(_ slot: ViewerSphericalSlot, _ value: Double) { answerRoom[slot.rawValue] = value }
  switch sphericalReader.next {
  case .need(let offset, let count):
    put(.step, 0)
    put(.offset, Double(offset))
    put(.count, Double(count))
    return answer("")
  case .done(let video, let reason):
    spherical = video
    // The sample entry's codec, where the boxes were read that far (the viewer asks the
    // browser whether it plays it).
    let codec = sphericalReader.codec
    put(.codecLength, codec.map { Double($0.utf8.count) } ?? .nan)
    guard let v = video else {
      put(.step, 2)
      return answer((codec ?? "") + reason)
    }
    put(.step, 1)
    put(.stereo, Double(ViewerSphericalSlot.stereos.firstIndex(of: v.stereo) ?? 0))
    put(.projection, Double(ViewerSphericalSlot.projections.firstIndex(of: v.projection) ?? 0))
    put(.yaw, v.pose.yaw / degree)
    put(.pitch, v.pose.pitch / degree)
    put(.roll, v.pose.roll / degree)
    put(.cropTop, v.cropTop)
    put(.cropBottom, v.cropBottom)
    put(.cropLeft, v.cropLeft)
    put(.cropRight, v.cropRight)
    return answer((codec ?? "") + v.source)
  }
}

/// Opens the scene's video (`width`×`height` frames): with the metadata the reader found,
/// one eye of a stereo frame (its top or left half) and that eye's geometry. Answers the
/// geometry and the eye (in frame pixels: what to sample) in the answer numbers
/// (`ViewerGeometrySlot`).
@_cdecl("viewer_open_video")
public func viewerOpenVideo(_ width: Int32, _ height: Int32, _ name: UnsafePointer<UInt8>?, _ nameCount: Int32) -> Int32 {
  let w = Int(width), h = Int(height)
  let eye = spherical?.eye(width: w, height: h) ?? (x: 0, y: 0, width: w, height: h)
  _ = tour.open(width: eye.width, height: eye.height, gpano: nil, name: text(name, nameCount), video: spherical)
  return answerGeometry(eye: eye)
}

/// The CPU renderer takes the pixels `web_panorama_buffer` gave room for.
@_cdecl("viewer_commit")
public func viewerCommit() -> Int32 {
  var attached: Int32 = 0
  tour.updateScene { attached = attachPendingPixels(&$0) }
  return attached
}

@_cdecl("viewer_mip_levels")
public func viewerMipLevels() { tour.updateScene { buildCPUExtras(&$0) } }

@_cdecl("viewer_render_cpu")
public func viewerRenderCPU(_ width: Int32, _ height: Int32) -> UnsafeMutableRawPointer? {
  var pointer: UnsafeMutableRawPointer?
  tour.updateScene { pointer = renderCPU(&$0, width, height) }
  return pointer
}

/// Writes the WebGL2 shader's numbers for a `width`×`height` pixel view into the frame
/// buffer (`gpuLens` … `matrix`); 0 before a scene is open.
@_cdecl("viewer_gpu_view")
public func viewerGPUView(_ width: Int32, _ height: Int32, _ sourceWidth: Int32, _ sourceHeight: Int32) -> Int32 {
  guard let scene = tour.panorama else { return 0 }
  let n = gpuNumbers(scene, width, height, sourceWidth, sourceHeight)
  let c = n.camera
  put(.gpuLens, Double(n.lensIndex))
  put(.gpuStrip, scene.viewer.mode == .strip ? 1 : 0)
  put(.focal, c.focal)
  put(.turn, c.yaw)
  put(.stripWidth, n.stripWidth)
  put(.stripOffset, n.stripOffset)
  put(axis: c.right, column: 0)
  put(axis: c.up, column: 1)
  put(axis: c.forward, column: 2)
  return 1
}

@_cdecl("viewer_layout")
public func viewerLayout(_ width: Double, _ height: Double) { tour.layout(width: width, height: height) }

// MARK: Input (1: the viewer used it; 0: the page may have it)

@_cdecl("viewer_pointer")
public func viewerPointer(_ phase: Int32, _ id: Int32, _ pointerKind: Int32, _ x: Double, _ y: Double, _ t: Double) -> Int32 {
  let phases: [PointerPhase] = [.down, .move, .up, .cancel]
  let kinds: [PointerKind] = [.mouse, .touch, .pen]
  let input = SceneInput.pointer(
    phases[Int(min(max(phase, 0), 3))], id: Int(id), kind: kinds[Int(min(max(pointerKind, 0), 2))], at: StagePoint(x: x, y: y))
  return tour.handle(input, at: t) ? 1 : 0
}

@_cdecl("viewer_wheel")
public func viewerWheel(_ dx: Double, _ dy: Double, _ precise: Int32, _ x: Double, _ y: Double, _ t: Double) -> Int32 {
  tour.handle(.wheel(dx: dx, dy: dy, precise: precise != 0, at: StagePoint(x: x, y: y)), at: t) ? 1 : 0
}

/// Keys by the demo page's numbers (web/shared/input.js `keyCode`).
@_cdecl("viewer_key")
public func viewerKey(_ code: Int32, _ modifiers: Int32, _ down: Int32, _ isRepeat: Int32, _ t: Double) -> Int32 {
  guard let name = keyName(code) else { return 0 }
  let mods = Modifiers(rawValue: UInt8(truncatingIfNeeded: modifiers))
  return tour.handle(.key(name, mods, isDown: down != 0, isRepeat: isRepeat != 0), at: t) ? 1 : 0
}

func keyName(_ code: Int32) -> KeyName? {
  switch code {
  case 1: .tab
  case 2: .space
  case 3: .enter
  case 4: .escape
  case 5: .backspace
  case 6: .delete
  case 7: .left
  case 8: .right
  case 9: .up
  case 10: .down
  case 11: .plus
  case 12: .minus
  case 101...124: .function(Int(code) - 100)
  case 1000...: Unicode.Scalar(UInt32(code - 1000)).map { .character(Character($0)) }
  default: nil
  }
}

/// What the last key asked of the scene's video, taken (the page's `<video>` carries it
/// out), in the answer numbers: [1, 0] play or pause, [2, n] pause and step n frames,
/// [3, s] skip s seconds; none (0) for nothing.
@_cdecl("viewer_video_command")
public func viewerVideoCommand() -> Int32 {
  switch tour.takeVideoCommand() {
  case .togglePlay: answerNumbers(1, 0)
  case .stepFrames(let n): answerNumbers(2, Double(n))
  case .skip(let seconds): answerNumbers(3, seconds)
  case nil: 0
  }
}

/// Whether the page shows the viewer fullscreen (1) or not (0): `mouseZoom: "fullscreenonly"`
/// and `dragConfirm` follow it.
@_cdecl("viewer_set_fullscreen")
public func viewerSetFullscreen(_ on: Int32) { tour.isFullscreen = on != 0 }

@_cdecl("viewer_focus_lost")
public func viewerFocusLost(_ t: Double) { _ = tour.handle(.focusLost, at: t) }

@_cdecl("viewer_orientation")
public func viewerOrientation(_ alpha: Double, _ beta: Double, _ gamma: Double, _ screenAngle: Double, _ t: Double) {
  let q = Quaternion.deviceOrientation(alpha: alpha, beta: beta, gamma: gamma, screenAngle: screenAngle)
  _ = tour.handle(.motion(.attitude(t: t, q)), at: t)
}

/// Runs the camera to `t`. Bit 0: nothing moves any more; bit 1: a `lookAt` just arrived.
@_cdecl("viewer_advance")
public func viewerAdvance(_ t: Double) -> Int32 {
  tour.advance(to: t)
  var arrived = false
  tour.update {
    arrived = $0.glideFinished
    $0.glideFinished = false
  }
  let idle = !(tour.panorama?.viewer.isMoving ?? false)
  return (idle ? 1 : 0) | (arrived ? 2 : 0)
}

// MARK: The API

// MARK: The frame buffer

/// The numbers the host reads every frame, laid out as `ViewerFrameSlot` says: allocated
/// here, once, and grown only when a scene has more hotspots than it holds (never per
/// frame). Owned by this module for its lifetime, so the address `viewer_frame` gives stays
/// valid until the next call that grows it.
nonisolated(unsafe) var frameNumbers = newFrameNumbers(hotSpots: 16)

func newFrameNumbers(hotSpots: Int) -> UnsafeMutableBufferPointer<Double> {
  let numbers = UnsafeMutableBufferPointer<Double>.allocate(capacity: ViewerFrameSlot.count(hotSpots: hotSpots))
  numbers.initialize(repeating: .nan)
  return numbers
}

func put(_ slot: ViewerFrameSlot, _ value: Double) { frameNumbers[slot.rawValue] = value }
func put(_ slot: ViewerFrameSlot, _ flag: Bool) { frameNumbers[slot.rawValue] = flag ? 1 : 0 }
func put(axis: Vector3, column: Int) {
  let at = ViewerFrameSlot.matrix.rawValue + 3 * column
  frameNumbers[at] = axis.x
  frameNumbers[at + 1] = axis.y
  frameNumbers[at + 2] = axis.z
}

/// The frame buffer's address (its `Double`s: `ViewerFrameSlot`); read it again after a call
/// to `viewer_placements`, which may move it.
@_cdecl("viewer_frame")
public func viewerFrame() -> UnsafeMutablePointer<Double>? { frameNumbers.baseAddress }

/// Writes the view into the frame buffer: yaw, pitch, roll, hfov (degrees; yaw within
/// ±180°), the lens, mode and motion source, whether it autorotates and levels the horizon,
/// whether a scene is open, and the key, which changes when a `width`×`height` frame would.
@_cdecl("viewer_view")
public func viewerView(_ width: Int32, _ height: Int32) {
  let d = tour.currentDegrees
  put(.yaw, d.yaw)
  put(.pitch, d.pitch)
  put(.roll, d.roll)
  put(.hfov, d.hfov)
  guard let scene = tour.panorama else {
    let lens = tour.settings[text: .lens].flatMap { Lens(rawValue: $0) } ?? .rectilinear
    put(.lens, Double(ViewerFrameSlot.lenses.firstIndex(of: lens) ?? 0))
    put(.mode, 0)
    put(.source, 0)
    put(.autoRotating, false)
    put(.levelsHorizon, false)
    put(.hasPanorama, false)
    for k in ViewerFrameSlot.keyYaw.rawValue...ViewerFrameSlot.keyGeneration.rawValue { frameNumbers[k] = .nan }
    return
  }
  let v = scene.viewer
  put(.lens, Double(ViewerFrameSlot.lenses.firstIndex(of: v.lens) ?? 0))
  put(.mode, Double(ViewerFrameSlot.modes.firstIndex(of: v.mode) ?? 0))
  put(.source, Double(ViewerFrameSlot.sources.firstIndex(of: v.source) ?? 0))
  put(.autoRotating, v.autoRotation != nil)
  put(.levelsHorizon, v.levelsHorizon)
  put(.hasPanorama, true)
  let k = scene.frameKey(width: Int(width), height: Int(height))
  put(.keyYaw, k.view.yaw)
  put(.keyPitch, k.view.pitch)
  put(.keyRoll, k.view.roll)
  put(.keyHfov, k.hfov)
  put(.keyLens, Double(ViewerFrameSlot.lenses.firstIndex(of: k.lens) ?? 0))
  put(.keyMode, Double(ViewerFrameSlot.modes.firstIndex(of: k.mode) ?? 0))
  put(.keyWidth, Double(k.width))
  put(.keyHeight, Double(k.height))
  put(.keyGeneration, Double(k.generation))
}

/// Writes each hotspot's place in viewport points into the frame buffer (`placements`: x, y;
/// NaN for a hidden one) and their count; answers the count.
@_cdecl("viewer_placements")
public func viewerPlacements(_ margin: Double) -> Int32 {
  let spots = tour.scene.hotSpots
  if ViewerFrameSlot.count(hotSpots: spots.count) > frameNumbers.count {
    // Twice the room (as an array grows): a page adding hotspots one by one moves it rarely.
    let grown = newFrameNumbers(hotSpots: max(spots.count, frameNumbers.count - ViewerFrameSlot.fixedCount))
    _ = grown.update(fromContentsOf: UnsafeMutableBufferPointer(rebasing: frameNumbers[..<ViewerFrameSlot.fixedCount]))
    frameNumbers.deallocate()
    frameNumbers = grown
  }
  put(.placementCount, Double(spots.count))
  let degree = Elementary.pi / 180
  let viewer = tour.panorama?.viewer
  var at = ViewerFrameSlot.placements.rawValue
  for h in spots {
    let p = viewer?.screenPoint(yaw: h.yaw * degree, pitch: h.pitch * degree, margin: margin)
    frameNumbers[at] = p?.x ?? .nan
    frameNumbers[at + 1] = p?.y ?? .nan
    at += 2
  }
  return Int32(spots.count)
}

/// Looks at yaw, pitch, hfov (degrees; NaN keeps each) over `seconds`.
@_cdecl("viewer_look")
public func viewerLook(_ yaw: Double, _ pitch: Double, _ hfov: Double, _ seconds: Double) {
  func rad(_ d: Double) -> Double? { d.isFinite ? d * degree : nil }
  tour.update { $0.look(yaw: rad(yaw), pitch: rad(pitch), hfov: rad(hfov), duration: max(seconds, 0)) }
}

/// Pannellum's zoom buttons: 5° narrower (`sign` −1) or wider (+1).
@_cdecl("viewer_zoom_step")
public func viewerZoomStep(_ sign: Int32) {
  let hfov = tour.currentDegrees.hfov + (sign < 0 ? -5 : 5)
  tour.update { $0.look(yaw: nil, pitch: nil, hfov: hfov * degree, duration: 0) }
}

/// Sets limits `kind` (0 yaw, 1 pitch, 2 hfov) to lo…hi degrees.
@_cdecl("viewer_set_bounds")
public func viewerSetBounds(_ kind: Int32, _ lo: Double, _ hi: Double) {
  tour.setBounds(ViewerTour.BoundsKind(rawValue: Int(kind)) ?? .yaw, lo, hi)
}

/// Limits `kind` in use, degrees: [lo, hi] in the answer numbers (`viewer_answer_numbers`).
@_cdecl("viewer_bounds")
public func viewerBounds(_ kind: Int32) -> Int32 {
  let b = tour.bounds(ViewerTour.BoundsKind(rawValue: Int(kind)) ?? .yaw)
  return answerNumbers(b.0, b.1)
}

/// Room for the small answers that are numbers (bounds, a direction, a hotspot's place, the
/// tiles held): written by the export, read by the JS at `viewer_answer_numbers` before its
/// next call. The export answers how many it wrote (0: none, where JSON said null).
nonisolated(unsafe) var answerRoom = UnsafeMutableBufferPointer<Double>.allocate(
  capacity: max(ViewerGeometrySlot.count, ViewerSphericalSlot.slotCount))

@_cdecl("viewer_answer_numbers")
public func viewerAnswerNumbers() -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(answerRoom.baseAddress) }

/// Writes two numbers, to 6 decimals as the JSON answers had them (a page reads back
/// `getHfovBounds()` as the 120 it set, not the 119.99999999999999 the radians leave).
func answerNumbers(_ a: Double, _ b: Double) -> Int32 {
  func sixDecimals(_ x: Double) -> Double { x.isFinite && x.magnitude < 1e9 ? (x * 1e6).rounded() / 1e6 : x }
  answerRoom[0] = sixDecimals(a)
  answerRoom[1] = sixDecimals(b)
  return 2
}

/// Starts autorotate at `speed` degrees a second (Pannellum's sign); NaN stops it.
@_cdecl("viewer_auto_rotate")
public func viewerAutoRotate(_ speed: Double, _ pitch: Double) {
  guard speed.isFinite, speed != 0 else {
    tour.update { $0.stopAutoRotate() }
    return
  }
  let s = tour.settings
  if pitch.isFinite { tour.update { $0.look(yaw: nil, pitch: pitch * degree, hfov: nil, duration: 0) } }
  tour.update {
    $0.startAutoRotate(
      AutoRotation(
        speed: -speed * degree, inactivityDelay: s[number: .autoRotateInactivityDelay].map { $0 / 1000 },
        stopAfter: nil))
    $0.glideFinished = false
  }
}

@_cdecl("viewer_stop_movement")
public func viewerStopMovement() { tour.update { $0.stopMovement() } }

/// Sets the lens: `ViewerFrameSlot.lenses`' `index` (the JS names them: `LENSES`, and says
/// what is wrong with a name it lacks).
@_cdecl("viewer_set_lens")
public func viewerSetLens(_ index: Int32) {
  guard index >= 0, Int(index) < ViewerFrameSlot.lenses.count else { return }
  tour.update { $0.setLens(ViewerFrameSlot.lenses[Int(index)]) }
}

@_cdecl("viewer_cycle_lens")
public func viewerCycleLens() { tour.update { $0.cycleLens() } }

/// Back to the scene's starting view (the recentre button).
@_cdecl("viewer_recenter")
public func viewerRecenter(_ seconds: Double) {
  let s = tour.settings
  tour.update {
    $0.recenter()
    $0.look(yaw: (s[number: .yaw] ?? 0) * degree, pitch: (s[number: .pitch] ?? 0) * degree, hfov: nil, duration: max(seconds, 0))
  }
}

@_cdecl("viewer_level_horizon")
public func viewerLevelHorizon(_ set: Int32) -> Int32 {
  var on = false
  tour.update {
    if set >= 0 { $0.levelsHorizon = set == 1 }
    on = $0.levelsHorizon
  }
  return on ? 1 : 0
}

/// Follows hotspot `index`: the scene it leads to (its image next), or an empty answer.
@_cdecl("viewer_follow")
public func viewerFollow(_ index: Int32) -> Int32 { answer(tour.follow(hotSpot: Int(index)) ?? "") }

/// Turns to hotspot `index` if it is off the view (it has the keyboard focus).
@_cdecl("viewer_reveal")
public func viewerReveal(_ index: Int32, _ seconds: Double) { tour.reveal(hotSpot: Int(index), duration: seconds) }

/// Goes to scene `id` (degrees; NaN: the scene's own); 1, or 0 when there is none.
@_cdecl("viewer_load_scene")
public func viewerLoadScene(_ id: UnsafePointer<UInt8>?, _ count: Int32, _ yaw: Double, _ pitch: Double, _ hfov: Double)
  -> Int32
{
  func value(_ d: Double) -> Double? { d.isFinite ? d : nil }
  return tour.loadScene(text(id, count), yaw: value(yaw), pitch: value(pitch), hfov: value(hfov)) ? 1 : 0
}

/// The same image again for a new scene's settings (no decode).
@_cdecl("viewer_reopen")
public func viewerReopen() { tour.reopen() }

/// `[pitch, yaw]` degrees at viewport point (x, y) in the answer numbers, or none.
@_cdecl("viewer_direction")
public func viewerDirection(_ x: Double, _ y: Double) -> Int32 {
  guard let d = tour.direction(at: StagePoint(x: x, y: y)) else { return 0 }
  var yaw = d.yaw
  yaw -= (yaw / 360).rounded() * 360
  return answerNumbers(d.pitch, yaw)
}

/// Moves draggable hotspot `index` by keyboard steps (`dx` right, `dy` up): `[yaw, pitch]`
/// where it is now in the answer numbers, or none when it is not draggable.
@_cdecl("viewer_nudge_hotspot")
public func viewerNudgeHotSpot(_ index: Int32, _ dx: Double, _ dy: Double) -> Int32 {
  guard let at = tour.nudge(hotSpot: Int(index), dx: dx, dy: dy) else { return 0 }
  return answerNumbers(at.yaw, at.pitch)
}

@_cdecl("viewer_move_hotspot")
public func viewerMoveHotSpot(_ index: Int32, _ yaw: Double, _ pitch: Double) {
  tour.move(hotSpot: Int(index), yaw: yaw, pitch: pitch)
}

/// Adds scene `id` from its config fed (`viewer_feed_…`): records (`recordOutcome`), its
/// warnings, or the error when the feed was out of order.
@_cdecl("viewer_add_scene")
public func viewerAddScene(_ id: UnsafePointer<UInt8>?, _ idCount: Int32) -> Int32 {
  do throws(InputError) {
    let warnings = tour.addScene(text(id, idCount), config: try fedConfig("addScene"))
    return recordOutcome(error: nil, warnings: warnings.map { $0.description })
  } catch {
    return recordOutcome(error: error.description, warnings: [])
  }
}

@_cdecl("viewer_remove_scene")
public func viewerRemoveScene(_ id: UnsafePointer<UInt8>?, _ count: Int32) -> Int32 {
  tour.removeScene(text(id, count)) ? 1 : 0
}

/// Adds the hotspot fed (`viewer_feed_…`) to scene `scene` (empty: the shown one); the
/// error, or "".
@_cdecl("viewer_add_hotspot")
public func viewerAddHotSpot(_ scene: UnsafePointer<UInt8>?, _ sceneCount: Int32) -> Int32 {
  do throws(InputError) {
    let (spot, _) = try HotSpot.read(try fedConfig("addHotSpot"), source: "addHotSpot")
    let id = text(scene, sceneCount)
    guard tour.addHotSpot(spot, scene: id.isEmpty ? nil : id) else { return answer("addHotSpot: no scene \"\(id)\"") }
    return answer("")
  } catch {
    return answer(error.description)
  }
}

@_cdecl("viewer_remove_hotspot")
public func viewerRemoveHotSpot(
  _ id: UnsafePointer<UInt8>?, _ idCount: Int32, _ scene: UnsafePointer<UInt8>?, _ sceneCount: Int32
) -> Int32 {
  let s = text(scene, sceneCount)
  return tour.removeHotSpot(id: text(id, idCount), scene: s.isEmpty ? nil : s) ? 1 : 0
}

/// What `getConfig` is made of (web/viewer/viewer-frame.js's `readConfig` builds Pannellum's
/// object from it), as records: the view now (yaw, pitch, hfov) and the limits in use (yaw,
/// pitch, hfov: lowest, highest), degrees; the shown scene's settings (`recordSettings`) and
/// hotspots (a count, then `recordHotSpot` each); Pannellum's defaults for the keys a page
/// reads back (``ViewerKey/pannellumDefault``: a count, then each as `recordValue`); the scene's id; and the tour's
/// scenes (a count, 0 for a config without `scenes`; each its id, settings and hotspots).
@_cdecl("viewer_config")
public func viewerConfig() -> Int32 {
  beginRecords()
  let d = tour.currentDegrees
  record(d.yaw)
  record(d.pitch)
  record(d.hfov)
  for which in [ViewerTour.BoundsKind.yaw, .pitch, .hfov] {
    let b = tour.bounds(which)
    record(b.0)
    record(b.1)
  }
  recordSettings(tour.settings)
  recordHotSpots(tour.scene.hotSpots)
  let at = recordCount
  record(0)
  var count = 0
  for key in ViewerKey.allCases {
    guard let value = key.pannellumDefault else { continue }
    count += 1
    recordValue(value, of: key)
  }
  recordNumbers[at] = Double(count)
  record(text: tour.sceneID)
  // A tour's scenes by id, as Pannellum's `scenes` (pages build scene menus from their
  // titles); Pannellum has none for a config without scenes.
  let scenes = tour.config.scenes
  let isTour = scenes.count > 1 || scenes.first?.id.isEmpty == false
  record(isTour ? Double(scenes.count) : 0)
  if isTour {
    for scene in scenes {
      record(text: scene.id)
      recordSettings(scene.settings)
      recordHotSpots(scene.hotSpots)
    }
  }
  return Int32(recordCount)
}

/// Sets `northOffset` (0), `horizonPitch` (1) or `horizonRoll` (2), degrees.
@_cdecl("viewer_set_angle")
public func viewerSetAngle(_ which: Int32, _ degrees: Double) {
  guard degrees.isFinite else { return }
  tour.setSetting { s in
    switch which {
    case 0: s[number: .northOffset] = degrees
    case 1: s[number: .horizonPitch] = degrees
    default: s[number: .horizonRoll] = degrees
    }
  }
}

@_cdecl("viewer_version")
public func viewerVersion() -> Int32 { answer(imageStageVersion) }

// MARK: Tiled panoramas (multires)

/// Opens the shown `multires` scene: no image, a tile pyramid. Answers the geometry in the
/// answer numbers (`ViewerGeometrySlot`), or none (0) when the scene is not a tiled one.
/// `budget` caps the tiles held; 0 asks for the CPU renderer's cap (the tiles' pixels live in
/// this module's memory): 96 MB of them, but never under 64 tiles.
@_cdecl("viewer_open_tiles")
public func viewerOpenTiles(_ budget: Int32) -> Int32 {
  var cap = Int(budget)
  if cap == 0, let layout = tour.tileLayout {
    cap = 96 << 20 / max(layout.tileResolution * layout.tileResolution * 4, 1)
  }
  guard tour.openTiles(budget: max(cap, 64)) != nil else { return 0 }
  tour.update { $0.setLens(.rectilinear) }  // tiles are drawn as flat quads
  return answerGeometry(eye: nil)
}

/// The last tile plan's numbers (`viewer_tile_plan`), owned by this module and grown only
/// when a plan needs more room: its address (`viewer_tile_numbers`) holds until the next plan.
nonisolated(unsafe) var tileNumbers = UnsafeMutableBufferPointer<Double>.allocate(capacity: 1024)

@_cdecl("viewer_tile_numbers")
public func viewerTileNumbers() -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(tileNumbers.baseAddress) }

/// The tiles for a `width`×`height` frame, as numbers at `viewer_tile_numbers` (answers how
/// many, or −1 when the scene is not a tiled one). web/viewer/viewer-tiles.js reads them:
///
///     level, focal (the rectilinear camera's), fetch count F, draw count D, evict count E,
///     F × (level, face, x, y)                      tiles to fetch (their URLs: viewer_tile_url)
///     E × (level, face, x, y)                      tiles dropped
///     D × (level, face, x, y, n, n × (x y z u v))  coarse first: each square as a polygon in
///                                                  the camera's frame, cut short of its plane
@_cdecl("viewer_tile_plan")
public func viewerTilePlan(_ width: Int32, _ height: Int32) -> Int32 {
  guard let layout = tour.tileLayout, let plan = tour.planTiles(width: Int(width), height: Int(height)),
    let v = tour.panorama?.viewer
  else { return -1 }
  let camera = CameraParameters(width: Int(width), height: Int(height), view: v.renderedView, hfov: v.hfov, lens: .rectilinear)
  // Written in place (no array a frame): grown by doubling, the rare frame that needs more.
  var count = 0
  func put(_ x: Double) {
    if count == tileNumbers.count {
      let grown = UnsafeMutableBufferPointer<Double>.allocate(capacity: tileNumbers.count * 2)
      _ = grown.update(fromContentsOf: tileNumbers)
      tileNumbers.deallocate()
      tileNumbers = grown
    }
    tileNumbers[count] = x
    count += 1
  }
  func put(_ t: TileID) {
    put(Double(t.level))
    put(Double(t.face))
    put(Double(t.x))
    put(Double(t.y))
  }
  put(Double(plan.level))
  put(camera.focal)
  put(Double(plan.fetch.count))
  put(Double(plan.draw.count))
  put(Double(plan.evict.count))
  for t in plan.fetch { put(t) }
  for t in plan.evict { put(t) }
  for t in plan.draw {
    let size = Double(layout.faceSize(level: t.level)), ts = Double(layout.tileResolution)
    let (w, h) = layout.tileSize(level: t.level, x: t.x, y: t.y)
    let u0 = Double(t.x) * ts / size, v0 = Double(t.y) * ts / size
    let u1 = u0 + Double(w) / size, v1 = v0 + Double(h) / size
    // The square in the camera's frame, cut short of the camera's plane: the cube's
    // orientation and the clipping stay here, with the tiler's and the schedule's rules.
    let corners = [(u0, v0), (u1, v0), (u0, v1), (u1, v1)].map { CubeFace.direction(face: t.face, u: $0.0, v: $0.1) }
    let polygon = camera.cameraPolygon(corners: corners)
    put(t)
    put(Double(polygon.count))
    for p in polygon {
      put(p.x)
      put(p.y)
      put(p.z)
      put(p.u)
      put(p.v)
    }
  }
  return Int32(count)
}

/// Tile (level, face, x, y)'s address (text in the output buffer), or −1 for none (a cube
/// face given as null: the background shows there).
@_cdecl("viewer_tile_url")
public func viewerTileURL(_ level: Int32, _ face: Int32, _ x: Int32, _ y: Int32) -> Int32 {
  guard let url = tour.tileURL(tileID(level, face, x, y)) else { return -1 }
  return answer(url)
}

func tileID(_ level: Int32, _ face: Int32, _ x: Int32, _ y: Int32) -> TileID {
  TileID(level: Int(level), face: Int(face), x: Int(x), y: Int(y))
}

@_cdecl("viewer_tile_loaded")
public func viewerTileLoaded(_ level: Int32, _ face: Int32, _ x: Int32, _ y: Int32) {
  tour.tileLoaded(tileID(level, face, x, y))
}

/// 1 when the tile will be tried again, 0 when it is left at its coarser cover.
@_cdecl("viewer_tile_failed")
public func viewerTileFailed(_ level: Int32, _ face: Int32, _ x: Int32, _ y: Int32) -> Int32 {
  tour.tileFailed(tileID(level, face, x, y)) ? 1 : 0
}

/// The pixels `web_panorama_buffer` was given are this tile's, for the CPU renderer.
@_cdecl("viewer_tile_pixels")
public func viewerTilePixels(_ level: Int32, _ face: Int32, _ x: Int32, _ y: Int32) -> Int32 {
  guard let image = takePendingImage() else { return 0 }
  tour.tileLoaded(tileID(level, face, x, y), pixels: image)
  return 1
}

/// A `width`×`height` frame of the tiled scene drawn on the CPU from the tiles held (RGBA,
/// valid until the next call), or null when the scene is not a tiled one.
@_cdecl("viewer_render_tiles")
public func viewerRenderTiles(_ width: Int32, _ height: Int32) -> UnsafeMutableRawPointer? {
  guard width > 0, height > 0 else { return nil }
  if frame.width != Int(width) || frame.height != Int(height) { frame = RGBAImage(width: Int(width), height: Int(height)) }
  guard tour.renderTiles(into: &frame, executor: InlineRows()) else { return nil }
  return publish(frame)
}

/// The CPU renderer's tiles: [how many, their bytes] in the answer numbers.
@_cdecl("viewer_tile_memory")
public func viewerTileMemory() -> Int32 {
  let bytes = tour.tilePixels.values.reduce(0) { $0 + $1.pixels.count * 4 }
  return answerNumbers(Double(tour.tilePixels.count), Double(bytes))
}

// MARK: Records (the answers longer than a few numbers)

/// Room for the answers that are more than a few numbers (the scene, `getConfig`'s parts, a
/// config's warnings): numbers at `viewer_records` and the UTF-8 bytes of their texts at
/// `viewer_record_bytes`, written in an order the JS reads back in the same order
/// (web/viewer/viewer-frame.js's `Records`), so no JSON is written. Each is owned here and
/// grown by doubling; their addresses hold until the next export that writes records.
nonisolated(unsafe) var recordNumbers = UnsafeMutableBufferPointer<Double>.allocate(capacity: 1024)
nonisolated(unsafe) var recordCount = 0
nonisolated(unsafe) var recordBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 8192)
nonisolated(unsafe) var recordByteCount = 0

@_cdecl("viewer_records")
public func viewerRecords() -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(recordNumbers.baseAddress) }

@_cdecl("viewer_record_bytes")
public func viewerRecordBytes() -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(recordBytes.baseAddress) }

func beginRecords() {
  recordCount = 0
  recordByteCount = 0
}

/// A number, to 6 decimals as the JSON answers had them (`getConfig()` reads back a
/// `maxHfov` of 120, not the 119.99999999999999 the radians leave). (Not inlined: the
/// writers call these hundreds of times, each copy bytes of the viewer's download.)
@inline(never)
func record(_ x: Double) {
  let x = x.isFinite && x.magnitude < 1e9 ? (x * 1e6).rounded() / 1e6 : x
  if recordCount == recordNumbers.count {
    let grown = UnsafeMutableBufferPointer<Double>.allocate(capacity: recordNumbers.count * 2)
    _ = grown.update(fromContentsOf: recordNumbers)
    recordNumbers.deallocate()
    recordNumbers = grown
  }
  recordNumbers[recordCount] = x
  recordCount += 1
}

/// A flag: 1 or 0, NaN for none.
func record(_ flag: Bool?) { record(flag.map { $0 ? 1 : 0 } ?? .nan) }

/// A text: its length in bytes (−1 for none), its bytes after the ones written before it.
@inline(never)
func record(text: String?) {
  guard var s = text else { return record(-1) }
  s.withUTF8 { u in
    record(Double(u.count))
    if recordByteCount + u.count > recordBytes.count {
      let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(recordBytes.count * 2, recordByteCount + u.count))
      _ = grown.update(fromContentsOf: recordBytes)
      recordBytes.deallocate()
      recordBytes = grown
    }
    guard let from = u.baseAddress, let to = recordBytes.baseAddress else { return }
    (to + recordByteCount).update(from: from, count: u.count)
    recordByteCount += u.count
  }
}

/// A config's outcome (`viewer_configure`, `viewer_add_scene`): the error (or none), then how
/// many warnings and each one.
func recordOutcome(error: String?, warnings: [String]) -> Int32 {
  beginRecords()
  record(text: error)
  record(Double(warnings.count))
  for w in warnings { record(text: w) }
  return Int32(recordCount)
}

/// The settings that are set: how many, then each one's `ViewerKey` index and value, in the
/// table's order. A value is its kind and what it holds: 0 a number; 1 a flag (and
/// `mouseZoom`'s or `dragConfirm`'s true or false); 2 a text; 3 numbers, 5 texts (none for
/// a cube face given as null), each after their count; 4 names and texts (`strings`, by
/// name), after their count; 6 `multiRes`: its base path (or none), path, fallback path (or
/// none), extension, tile resolution, levels and cube resolution.
func recordSettings(_ s: ViewerSettings) {
  let at = recordCount
  record(0)
  var count = 0
  for key in ViewerKey.allCases where key.isSetting {
    guard let value = s[key] else { continue }
    count += 1
    recordValue(value, of: key)
  }
  recordNumbers[at] = Double(count)
}

/// Setting `key` and its value, as `recordSettings` lays them out.
func recordValue(_ value: ViewerSettings.Value, of key: ViewerKey) {
  record(Double(key.rawValue))
  switch value {
  case .number(let d):
    record(0)
    record(d)
  case .flag(let b):
    record(1)
    record(b)
  case .text(let t):
    if case .flagOrWord = key.kind, t == "true" || t == "false" {
      record(1)
      record(t == "true")
    } else {
      record(2)
      record(text: t)
    }
  case .numbers(let n):
    record(3)
    record(Double(n.count))
    for x in n { record(x) }
  case .texts(let t):
    record(4)
    record(Double(t.count))
    for name in t.keys.sorted() {
      record(text: name)
      record(text: t[name])
    }
  case .list(let l):
    record(5)
    record(Double(l.count))
    for x in l { record(text: x.isEmpty ? nil : x) }
  case .multires(let m):
    record(6)
    record(text: m.basePath)
    record(text: m.path)
    record(text: m.fallbackPath)
    record(text: m.fileExtension)
    record(Double(m.tileResolution))
    record(Double(m.maxLevel))
    record(Double(m.cubeResolution))
  }
}

/// Hotspots: how many, then each one (`recordHotSpot`).
func recordHotSpots(_ spots: [HotSpot]) {
  record(Double(spots.count))
  for h in spots { recordHotSpot(h) }
}

/// A hotspot: pitch, yaw (degrees), whether it leads to a scene; its text, URL and scene id
/// (each or none); its targets (pitch, yaw, hfov: each a kind, 0 none, 1 degrees, 2 "same",
/// 3 "sameAzimuth", and the degrees); its id and CSS class (or none); whether it is draggable.
func recordHotSpot(_ h: HotSpot) {
  record(h.pitch)
  record(h.yaw)
  record(h.kind == .scene)
  record(text: h.text)
  record(text: h.url)
  record(text: h.sceneId)
  for t in [h.targetPitch, h.targetYaw, h.targetHfov] {
    switch t {
    case nil:
      record(0)
      record(0)
    case .degrees(let d)?:
      record(1)
      record(d)
    case .same?:
      record(2)
      record(0)
    case .sameAzimuth?:
      record(3)
      record(0)
    }
  }
  record(text: h.id)
  record(text: h.cssClass)
  record(h.draggable)
}
