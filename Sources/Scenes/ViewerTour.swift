import CoreMath
import Panorama
import Stage
import StageJSON

/// A panorama viewer on a site's page (or the app's `--config`): a Pannellum config's scenes,
/// the one shown, its camera and its hotspots. Every host drives the same rules through it:
/// which image a scene needs, how its settings set the camera and the limits, where each
/// hotspot is on screen for the lens in use, where a scene link leads. The host fetches and
/// decodes, paints, and turns DOM (or SDL) events into calls.
public struct ViewerTour: Sendable {
  public private(set) var config: ViewerConfig
  /// The scene shown (or loading).
  public private(set) var sceneID: String
  /// The shown scene's panorama and camera; `nil` until its image is open.
  public private(set) var panorama: PanoramaScene?
  /// What the last key asked of a video scene's video, until the host takes it
  /// (`takeVideoCommand`): the host owns the player (a browser's `<video>`).
  public private(set) var videoCommand: VideoCommand?
  /// Where the next scene's camera starts, from a hotspot's targets or `loadScene` (degrees).
  var arrival: (yaw: Double?, pitch: Double?, hfov: Double?) = (nil, nil, nil)
  var viewport = StageSize(width: 1024, height: 640)
  /// Pannellum's default field of view, degrees (ours is 90°; a Pannellum page expects 100°).
  public static let defaultHfov = 100.0

  /// - Throws: nothing; a config is checked when it is read (`ViewerConfig.parse`).
  public init(config: ViewerConfig) {
    self.config = config
    sceneID = config.firstScene
  }

  public var scene: ViewerScene { config.scene(sceneID) ?? config.scenes[0] }
  public var settings: ViewerSettings { scene.settings }

  /// What the shown scene cannot show yet, in words for the view; `nil` when it can.
  public var unsupported: String? { Self.unsupported(settings) }

  /// The address of the scene's image: `panorama` under `basePath` unless it is absolute.
  public var imageURL: String? { Self.imageURL(settings) }

  /// The address of the scene's video (ours: `video`), under `basePath` unless absolute; a
  /// scene with one shows it rather than its `panorama`.
  public var videoURL: String? { Self.resolve(settings[text: .video], settings) }

  static func unsupported(_ s: ViewerSettings) -> String? {
    switch s.type ?? .equirectangular {
    case .equirectangular:
      return s[text: .panorama] == nil && s[text: .video] == nil
        ? "This scene has no panorama image (its config sets no \"panorama\")." : nil
    case .multires:
      guard let m = s.multiRes else { return "This multires scene has no \"multiRes\" settings." }
      guard MultiresLayout(cubeResolution: m.cubeResolution, tileResolution: m.tileResolution, maxLevel: m.maxLevel) != nil
      else { return "This scene's multiRes settings make no tile pyramid." }
      return nil
    case .cubemap:
      return s[list: .cubeMap]?.count == 6 ? nil : "This cubemap scene has no \"cubeMap\" list of six face images."
    }
  }

  // MARK: Tiled panoramas

  /// The shown scene's tile pyramid: a `multires` scene's, or a `cubemap` scene's six faces
  /// as a pyramid of one level, one tile a face (their size from `cubeFaceSize`, which a host
  /// that reads files sets from the first face; 1024 until then), or `nil`.
  public var tileLayout: MultiresLayout? {
    if settings.type == .cubemap, settings[list: .cubeMap]?.count == 6 {
      let size = max(cubeFaceSize ?? 1024, 1)
      return MultiresLayout(cubeResolution: size, tileResolution: size, maxLevel: 1)
    }
    guard settings.type == .multires, let m = settings.multiRes else { return nil }
    return MultiresLayout(cubeResolution: m.cubeResolution, tileResolution: m.tileResolution, maxLevel: m.maxLevel)
  }

  /// A cubemap scene's face size in pixels, when the host knows it (see `tileLayout`).
  public var cubeFaceSize: Int?

  /// Whether the host shows the viewer fullscreen: `mouseZoom: "fullscreenonly"` zooms only
  /// then, and `dragConfirm` asks for two fingers only outside it (Pannellum's rules).
  public var isFullscreen = false

  /// What the shown tiled scene fetches, draws and drops (`nil` for an image scene).
  public private(set) var tiles: TileSchedule?

  /// The address of `tile`: `multiRes.path` filled in under its `basePath` (itself under the
  /// scene's, unless absolute), with the extension, as Pannellum builds it.
  public func tileURL(_ tile: TileID) -> String? {
    if settings.type == .cubemap, let faces = settings[list: .cubeMap], faces.count == 6, tile.level == 1 {
      // Pannellum's cubeMap order is the cube's: front, right, back, left, up, down.
      let face = faces[min(max(tile.face, 0), 5)]
      guard !face.isEmpty else { return nil }  // a missing face: the background shows there
      guard let base = settings[text: .basePath], !base.isEmpty, !Self.isAbsolute(face) else { return face }
      return Self.join(base, face)
    }
    guard let m = settings.multiRes else { return nil }
    return Self.join(tileBase, MultiresLayout.path(m.path, level: tile.level, face: tile.face, x: tile.x, y: tile.y))
      + "." + m.fileExtension
  }

  var tileBase: String {
    let outer = settings[text: .basePath] ?? ""
    guard let inner = settings.multiRes?.basePath else { return outer }
    return Self.isAbsolute(inner) || outer.isEmpty ? inner : Self.join(outer, inner)
  }

  /// `base` and `path` with one slash between them.
  static func join(_ base: String, _ path: String) -> String {
    if base.isEmpty { return path }
    let baseSlash = base.hasSuffix("/"), pathSlash = path.hasPrefix("/")
    if baseSlash && pathSlash { return base + String(path.dropFirst()) }
    return baseSlash || pathSlash ? base + path : base + "/" + path
  }

  /// Opens the shown `multires` scene: a full sphere as wide as the finest faces make it (four
  /// faces around), so zoom stops at one screen pixel per texel; its tiles are the host's to
  /// fetch, as `planTiles` says. `budget` caps the tiles held.
  /// - Returns: the coverage in words, or `nil` when the scene is not a tiled one.
  @discardableResult
  public mutating func openTiles(budget: Int = 384) -> String? {
    guard let layout = tileLayout else { return nil }
    tiles = TileSchedule(layout: layout, budget: budget)
    tilePixels = [:]
    plannedLevel = 1
    open(width: 4 * layout.cubeResolution, height: 2 * layout.cubeResolution, gpano: nil, name: "tiles")
    return settings.type == .cubemap
      ? "six cube faces" : "a multires pyramid of \(layout.maxLevel) levels, \(layout.cubeResolution) px faces"
  }

  /// The tiles to fetch, draw and drop for a `width`×`height` frame of the camera now.
  public mutating func planTiles(width: Int, height: Int) -> TileSchedule.Plan? {
    guard let v = panorama?.viewer, tiles != nil else { return nil }
    // Quads are drawn through a rectilinear camera.
    let plan = tiles!.plan(view: v.renderedView, hfov: v.hfov, lens: .rectilinear, width: width, height: height)
    for tile in plan.evict { tilePixels[tile] = nil }
    plannedLevel = plan.level
    return plan
  }

  /// A fetched tile is decoded and on the host's texture.
  public mutating func tileLoaded(_ tile: TileID) { tiles?.loaded(tile) }

  /// A fetched tile's pixels, held for the CPU renderer (``renderTiles(into:executor:)``)
  /// until the schedule drops the tile.
  public mutating func tileLoaded(_ tile: TileID, pixels: RGBAImage) {
    guard tiles != nil else { return }
    tilePixels[tile] = pixels
    tiles?.loaded(tile)
  }

  /// The tiles held for the CPU renderer.
  public private(set) var tilePixels: [TileID: RGBAImage] = [:] { didSet { tileTable = nil } }
  /// The level the last plan wanted: the CPU renderer draws at it.
  var plannedLevel = 1 {
    didSet { if plannedLevel != oldValue { tileTable = nil } }
  }
  /// The CPU renderer's table of `tilePixels` at `plannedLevel`, built at the first frame
  /// after either changes (rebuilt every frame, it walked every cell of every level).
  var tileTable: TiledCube.Texels?

  /// Draws the shown tiled scene from the tiles held (``tileLoaded(_:pixels:)``) with the
  /// cube grid renderer: what is missing shows its coarser cover, as on the GPU.
  /// - Returns: false when the scene is not a tiled one.
  @discardableResult
  public mutating func renderTiles<E: RowExecutor>(into frame: inout RGBAImage, executor: E) -> Bool {
    guard let layout = tileLayout, let v = panorama?.viewer, tiles != nil else { return false }
    if tileTable == nil {
      var cube = TiledCube(layout: layout, level: plannedLevel)
      cube.tiles = tilePixels
      tileTable = cube.texels()
    }
    tileTable?.render(view: v.renderedView, hfov: v.hfov, lens: .rectilinear, into: &frame, executor: executor)
    return true
  }

  /// A tile's fetch or decode failed; true when it will be tried again.
  public mutating func tileFailed(_ tile: TileID) -> Bool { tiles?.failed(tile) ?? false }

  /// The address of the scene's `preview` image: under `basePath` unless absolute, as
  /// Pannellum resolves it (so a pyramid's `"preview": "preview.jpg"` is found beside its
  /// config when the config's folder is the base).
  public var previewURL: String? {
    guard let p = settings[text: .preview] else { return nil }
    guard let base = settings[text: .basePath], !base.isEmpty, !Self.isAbsolute(p) else { return p }
    return Self.join(base, p)
  }

  static func imageURL(_ s: ViewerSettings) -> String? { resolve(s[text: .panorama], s) }

  /// `path` under the scene's `basePath` unless it is absolute.
  static func resolve(_ path: String?, _ s: ViewerSettings) -> String? {
    guard let p = path else { return nil }
    guard let base = s[text: .basePath], !base.isEmpty, !isAbsolute(p) else { return p }
    return base.hasSuffix("/") ? base + p : base + "/" + p
  }

  static func isAbsolute(_ url: String) -> Bool {
    if url.hasPrefix("/") || url.hasPrefix("data:") || url.hasPrefix("blob:") { return true }
    // A scheme: letters, then "://" (Embedded Swift has no substring search).
    let b = Array(url.utf8)
    var k = 0
    while k < b.count, (b[k] | 0x20) >= 0x61 && (b[k] | 0x20) <= 0x7A || (k > 0 && (b[k] == 0x2B || b[k] == 0x2D || b[k] == 0x2E))
    {
      k += 1
    }
    return k > 0 && k + 2 < b.count && b[k] == 0x3A && b[k + 1] == 0x2F && b[k + 2] == 0x2F
  }

  // MARK: Opening

  /// The scene's image is decoded: `width`×`height` pixels, with the GPano metadata of its
  /// file (ignored under `ignoreGPanoXMP`). `haov`/`vaov`/`vOffset` in the config win over
  /// both, as in Pannellum. Sets the camera from the settings (or the link that led here).
  /// `video`: a clip's spherical metadata, which gives its eye's geometry (in place of GPano)
  /// and its pose (undone in drawing, as the CLI and the app undo it).
  /// - Returns: how its coverage was decided, in words.
  @discardableResult
  public mutating func open(width: Int, height: Int, gpano: GPano?, name: String, video: SphericalVideo? = nil) -> String {
    let s = settings
    var (geometry, coverage) = PanoramaGeometry.of(
      width: width, height: height, gpano: s[flag: .ignoreGPanoXMP] == true ? nil : gpano)
    if let video {
      geometry = video.geometry(eyeWidth: width, eyeHeight: height)
      coverage = "from the clip's \(video.source)"
    }
    if s[number: .haov] != nil || s[number: .vaov] != nil || s[number: .vOffset] != nil {
      let haov = min(s[number: .haov] ?? 360, 360), vaov = min(s[number: .vaov] ?? 180, 180)
      let fullWidth = Double(width) * 360 / haov
      let fullHeight = Double(height) * 180 / vaov
      let pixelsPerDegree = Double(height) / vaov
      let top = (fullHeight - Double(height)) / 2 - (s[number: .vOffset] ?? 0) * pixelsPerDegree
      // GPano's rule (`GPano.geometry`): the image lies on the sphere and the panorama is under
      // 16 M pixels. A tiny haov or vaov, or a vOffset past the pole, gave an infinite panorama
      // or a crop off it, and a camera of NaN.
      let limit = Double(1 << 24)
      // (Half a pixel of slack: vaov 90 with vOffset 45 lands on the pole up to rounding.)
      if fullWidth <= limit, fullHeight <= limit, top >= -0.5, top <= fullHeight - Double(height) + 0.5 {
        geometry = PanoramaGeometry(
          projection: .equirectangular, fullWidth: fullWidth, fullHeight: fullHeight,
          croppedLeft: (fullWidth - Double(width)) / 2, croppedTop: top, croppedWidth: Double(width),
          croppedHeight: Double(height))
        coverage = "from the config's haov \(JSONText.number(haov))°, vaov \(JSONText.number(vaov))°"
      } else {
        coverage += "; the config's haov, vaov and vOffset are ignored (they put the image off the sphere)"
      }
    }
    if s.type != .multires && s.type != .cubemap { tiles = nil }
    var scene = PanoramaScene(geometry: geometry, name: s[text: .title] ?? name)
    scene.layout(in: StageRect(x: 0, y: 0, width: viewport.width, height: viewport.height))
    if let p = panorama { scene.inheritGeneration(from: p) }
    panorama = scene
    applySettings()
    if let video { update { $0.pose = video.pose } }
    return coverage
  }

  /// The camera, lens, limits and autorotate the settings (and the arrival) ask for.
  mutating func applySettings() {
    let s = settings
    let degree = Elementary.pi / 180
    let arrival = self.arrival
    self.arrival = (nil, nil, nil)
    panorama?.update { v in
      if let name = s[text: .lens], let lens = Lens(rawValue: name) { v.setLens(lens) }
      func range(_ lo: Double?, _ hi: Double?, _ a: Double, _ b: Double) -> ClosedRange<Double>? {
        guard lo != nil || hi != nil else { return nil }
        let l = (lo ?? a) * degree, h = max((hi ?? b) * degree, l)
        return l...h
      }
      v.limits = ViewLimits(
        yaw: range(s[number: .minYaw], s[number: .maxYaw], -180, 180),
        pitch: range(s[number: .minPitch], s[number: .maxPitch], -90, 90),
        hfov: range(s[number: .minHfov], s[number: .maxHfov], 20, 360))
      // Without a field of view of its own, the longer side sees Pannellum's 100°: a portrait
      // phone is not stretched to 140° top to bottom.
      let hfov = arrival.hfov ?? s[number: .hfov]
      if hfov == nil { v.unzoomedFieldOfView = Self.defaultHfov * degree }
      v.look(
        yaw: (arrival.yaw ?? s[number: .yaw] ?? 0) * degree, pitch: (arrival.pitch ?? s[number: .pitch] ?? 0) * degree,
        hfov: hfov.map { $0 * degree }, duration: 0)
      v.glideFinished = false
      v.horizon = ((s[number: .horizonPitch] ?? 0) * degree, (s[number: .horizonRoll] ?? 0) * degree)
      if let speed = s[number: .autoRotate], speed != 0 {
        // Pannellum's positive autoRotate turns counter-clockwise seen from above: yaw falls.
        v.startAutoRotate(
          AutoRotation(
            speed: -speed * degree, inactivityDelay: s[number: .autoRotateInactivityDelay].map { $0 / 1000 },
            stopAfter: s[number: .autoRotateStopDelay].map { $0 / 1000 }))
      } else {
        v.stopAutoRotate()
      }
    }
  }

  public mutating func layout(width: Double, height: Double) {
    viewport = StageSize(width: max(width, 1), height: max(height, 1))
    panorama?.layout(in: StageRect(x: 0, y: 0, width: viewport.width, height: viewport.height))
  }

  /// Runs the camera (motion, inertia, glides, autorotate) to host time `t`.
  public mutating func advance(to t: Double) { panorama?.update { $0.advance(to: t) } }

  /// The camera, for input and the API (`tour.update { $0.zoom(by: 0.9) }`).
  public mutating func update(_ body: (inout PanoramaViewer) -> Void) { panorama?.update(body) }

  /// Changes the CPU renderer (the host's pixels arrived, or their mip levels).
  public mutating func updateScene(_ body: (inout PanoramaScene) -> Void) {
    guard var p = panorama else { return }
    panorama = nil
    body(&p)
    panorama = p
  }

  // MARK: Hotspots

  /// Where one hotspot is now: `at` in viewport points, `nil` when the lens does not show it.
  public struct Placement: Sendable {
    public var index: Int
    public var at: StagePoint?
  }

  /// Every hotspot of the shown scene, placed for the camera and lens now.
  public func placements(margin: Double = 0) -> [Placement] {
    guard let v = panorama?.viewer else { return scene.hotSpots.indices.map { Placement(index: $0, at: nil) } }
    return placements(for: v, margin: margin)
  }

  /// The hotspots placed for `viewer`'s camera (a host that keeps the camera elsewhere).
  public func placements(for viewer: PanoramaViewer, margin: Double = 0) -> [Placement] {
    let degree = Elementary.pi / 180
    return scene.hotSpots.enumerated().map { k, h in
      Placement(index: k, at: viewer.screenPoint(yaw: h.yaw * degree, pitch: h.pitch * degree, margin: margin))
    }
  }

  /// Takes the camera a host moved (the app's `Studio` keeps its own copy of the scene).
  public mutating func adopt(viewer: PanoramaViewer) { panorama?.update { $0 = viewer } }

  /// A file the shown scene names, for a host that reads files: its address (under
  /// `basePath`), the config key that gives it (`scenes.hall.panorama`, `multiRes.path`,
  /// `cubeMap[2]`), for a message that names it, and whether a leading "/" is the config's
  /// folder's (our tiler's `"path": "/%l/%s%y_%x"` with no `basePath`). The host resolves it
  /// (HostIO's `ConfigFolder`: inside the config's folder only, unless trusted).
  public struct FileReference: Sendable, Equatable {
    public var url: String
    public var key: String
    public var rootIsFolder: Bool
  }

  /// The shown scene's image (`panorama`), or nil when it has none.
  public var imageReference: FileReference? {
    imageURL.map { FileReference(url: $0, key: keyPath("panorama"), rootIsFolder: false) }
  }

  /// Where `tile` of the shown tiled scene comes from (see ``tileURL(_:)``).
  // Not inlined: Swift 6.3.1's Embedded build of the fuzz replay (make embedded) crashed in
  // CopyPropagation ("Invalid SIL provided to OSSACompleteLifetime") on its inlined body once
  // `tileURL` answered nil for a cube's missing face.
  @inline(never)
  public func tileReference(_ tile: TileID) -> FileReference? {
    guard let url = tileURL(tile) else { return nil }
    if settings.type == .cubemap {
      return FileReference(url: url, key: keyPath("cubeMap[\(min(max(tile.face, 0), 5))]"), rootIsFolder: false)
    }
    return FileReference(url: url, key: keyPath("multiRes.path"), rootIsFolder: tileBase.isEmpty)
  }

  /// `key` of the shown scene, as a path into the config.
  func keyPath(_ key: String) -> String { scene.id.isEmpty ? key : "scenes.\(scene.id).\(key)" }

  /// The hotspots in the order Tab reaches them: left to right around the scene from its
  /// starting view, then top to bottom.
  public var tabOrder: [Int] {
    let start = settings[number: .yaw] ?? 0
    let keys = scene.hotSpots.map { h -> (Double, Double) in
      var d = (h.yaw - start + 180).truncatingRemainder(dividingBy: 360)
      if d < 0 { d += 360 }
      return (d, -h.pitch)
    }
    // An insertion sort by hand: a handful of hotspots, and the generic sort's specialisation
    // was 14 KB of the viewer's wasm.
    var order: [Int] = []
    for k in keys.indices {
      var at = order.count
      while at > 0, keys[order[at - 1]] > keys[k] { at -= 1 }
      order.insert(k, at: at)
    }
    return order
  }

  /// The accessible name of hotspot `index`: its text, or what it does.
  public func name(ofHotSpot index: Int) -> String {
    let h = scene.hotSpots[index]
    if let text = h.text, !text.isEmpty { return text }
    switch h.kind {
    case .info: return h.url != nil ? "Link" : "Information"
    case .scene:
      let target = h.sceneId.flatMap { config.scene($0) }
      return "Go to \(target?.settings[text: .title] ?? h.sceneId ?? "the next scene")"
    }
  }

  /// Turns to hotspot `index` when it is off the view (it got the keyboard focus), over
  /// `duration` seconds.
  public mutating func reveal(hotSpot index: Int, duration: Double) {
    guard scene.hotSpots.indices.contains(index) else { return }
    let h = scene.hotSpots[index]
    let degree = Elementary.pi / 180
    let margin = -min(viewport.width, viewport.height) * 0.1
    guard let p = panorama, p.viewer.screenPoint(yaw: h.yaw * degree, pitch: h.pitch * degree, margin: margin) == nil else {
      return
    }
    update { $0.look(yaw: h.yaw * degree, pitch: h.pitch * degree, hfov: nil, duration: duration) }
  }

  /// Moves hotspot `index` to (`yaw`, `pitch`) degrees (a drag ended there).
  public mutating func move(hotSpot index: Int, yaw: Double, pitch: Double) {
    config.updateScene(sceneID) { scene in
      guard scene.hotSpots.indices.contains(index) else { return }
      scene.hotSpots[index].yaw = yaw
      scene.hotSpots[index].pitch = pitch
    }
  }

  /// Moves draggable hotspot `index` a keyboard step: `dx`, `dy` in steps right and up, a
  /// step a twentieth of the field of view (so it moves about as far on screen at any zoom),
  /// pitch kept within ±90°. Returns its new (yaw, pitch) in degrees, or `nil` when it is not
  /// draggable.
  public mutating func nudge(hotSpot index: Int, dx: Double, dy: Double) -> (yaw: Double, pitch: Double)? {
    guard scene.hotSpots.indices.contains(index), scene.hotSpots[index].draggable else { return nil }
    let h = scene.hotSpots[index], step = currentDegrees.hfov / 20
    var yaw = h.yaw + dx * step
    yaw -= (yaw / 360).rounded() * 360
    let pitch = min(max(h.pitch + dy * step, -90), 90)
    move(hotSpot: index, yaw: yaw, pitch: pitch)
    return (yaw, pitch)
  }

  /// The panorama direction (degrees) at viewport point `p` (Pannellum's `mouseEventToCoords`).
  public func direction(at p: StagePoint) -> (pitch: Double, yaw: Double)? {
    guard let v = panorama?.viewer, let d = v.direction(at: p) else { return nil }
    return (d.pitch * 180 / Elementary.pi, d.yaw * 180 / Elementary.pi)
  }

  public mutating func addHotSpot(_ spot: HotSpot, scene id: String?) -> Bool {
    let target = id ?? sceneID
    guard config.scene(target) != nil else { return false }
    config.updateScene(target) { $0.hotSpots.append(spot) }
    return true
  }

  /// Removes the hotspot with `id` (Pannellum's `removeHotSpot`); false when there is none.
  public mutating func removeHotSpot(id: String, scene: String?) -> Bool {
    var removed = false
    config.updateScene(scene ?? sceneID) { s in
      if let k = s.hotSpots.firstIndex(where: { $0.id == id }) {
        s.hotSpots.remove(at: k)
        removed = true
      }
    }
    return removed
  }

  // MARK: Scenes

  /// Where following hotspot `index` leads: the scene it names, with the camera its targets
  /// give (`same` keeps the current angle, `sameAzimuth` the compass heading); `nil` for an
  /// info hotspot.
  public mutating func follow(hotSpot index: Int) -> String? {
    guard scene.hotSpots.indices.contains(index) else { return nil }
    let h = scene.hotSpots[index]
    guard h.kind == .scene, let target = h.sceneId, config.scene(target) != nil else { return nil }
    let here = currentDegrees
    func resolve(_ t: HotSpot.Target?, same: Double) -> Double? {
      switch t {
      case .degrees(let d): return d
      case .same: return same
      case .sameAzimuth:
        let north = settings[number: .northOffset] ?? 0, theirs = config.scene(target)?.settings[number: .northOffset] ?? 0
        return here.yaw + north - theirs
      case nil: return nil
      }
    }
    loadScene(
      target, yaw: resolve(h.targetYaw, same: here.yaw), pitch: resolve(h.targetPitch, same: here.pitch),
      hfov: resolve(h.targetHfov, same: here.hfov))
    return target
  }

  /// Starts showing scene `id` (degrees; `nil` takes the scene's own); its image must be
  /// opened next (`open`). False when there is no such scene.
  @discardableResult
  public mutating func loadScene(_ id: String, yaw: Double?, pitch: Double?, hfov: Double?) -> Bool {
    guard config.scene(id) != nil else { return false }
    sceneID = id
    arrival = (yaw, pitch, hfov)
    return true
  }

  /// The same image is shown again under scene `id` (its settings differ): the camera starts
  /// over without a new decode.
  public mutating func reopen() { applySettings() }

  /// Adds scene `id` (the API's `addScene`); answers the warnings about it.
  @discardableResult
  public mutating func addScene(_ id: String, json: [UInt8]) throws(InputError) -> [ConfigWarning] {
    try config.addScene(id, json: json, source: "addScene")
  }

  /// Adds scene `id` from its config already parsed (the web viewer's, fed to a
  /// `ViewerConfigFeed`).
  @discardableResult
  public mutating func addScene(_ id: String, config: ConfigValue) -> [ConfigWarning] {
    self.config.addScene(id, config: config, source: "addScene")
  }

  /// Removes scene `id`; the one shown cannot be (Pannellum's rule).
  public mutating func removeScene(_ id: String) -> Bool { id != sceneID && config.removeScene(id) }

  /// The scenes whose images to fetch ahead while this one is idle: where its links lead.
  public var linkedScenes: [String] {
    var out: [String] = []
    for h in scene.hotSpots where h.kind == .scene {
      if let id = h.sceneId, id != sceneID, !out.contains(id) { out.append(id) }
    }
    return out
  }

  /// The image scene `id` shows (for fetching ahead); `nil` for a video scene.
  public func imageURL(ofScene id: String) -> String? {
    guard let s = config.scene(id)?.settings, Self.unsupported(s) == nil, s[text: .video] == nil else { return nil }
    return Self.imageURL(s)
  }

  // MARK: The view in degrees

  /// Yaw, pitch, roll and horizontal field of view in degrees (Pannellum's units).
  public var currentDegrees: (yaw: Double, pitch: Double, roll: Double, hfov: Double) {
    guard let v = panorama?.viewer else {
      return (settings[number: .yaw] ?? 0, settings[number: .pitch] ?? 0, 0, settings[number: .hfov] ?? Self.defaultHfov)
    }
    let k = 180 / Elementary.pi
    var yaw = v.view.yaw * k
    yaw -= (yaw / 360).rounded() * 360
    return (yaw, v.view.pitch * k, v.view.roll * k, v.hfov * k)
  }

  /// Sets one of the limits (degrees); Pannellum's `setYawBounds` and the like.
  public mutating func setBounds(_ which: BoundsKind, _ lo: Double, _ hi: Double) {
    let degree = Elementary.pi / 180
    guard lo.isFinite, hi.isFinite, lo <= hi else { return }
    config.updateScene(sceneID) { s in
      switch which {
      case .yaw: (s.settings[number: .minYaw], s.settings[number: .maxYaw]) = (lo, hi)
      case .pitch: (s.settings[number: .minPitch], s.settings[number: .maxPitch]) = (lo, hi)
      case .hfov: (s.settings[number: .minHfov], s.settings[number: .maxHfov]) = (lo, hi)
      }
    }
    update { v in
      var l = v.limits
      switch which {
      case .yaw: l.yaw = (lo * degree)...(hi * degree)
      case .pitch: l.pitch = (lo * degree)...(hi * degree)
      case .hfov: l.hfov = (lo * degree)...(hi * degree)
      }
      v.limits = l
    }
  }

  public enum BoundsKind: Int, Sendable { case yaw, pitch, hfov }

  /// The limits in degrees, as Pannellum reports them (its defaults where unset).
  public func bounds(_ which: BoundsKind) -> (Double, Double) {
    let s = settings
    switch which {
    case .yaw: return (s[number: .minYaw] ?? -180, s[number: .maxYaw] ?? 180)
    case .pitch: return (s[number: .minPitch] ?? -90, s[number: .maxPitch] ?? 90)
    case .hfov:
      // Before the image is open, the lens's own range: the same answer as after, but for a
      // partial panorama's coverage (Pannellum's did not change at load either).
      let range =
        panorama?.viewer.fieldOfViewRange ?? (s[text: .lens].flatMap { Lens(rawValue: $0) } ?? .rectilinear).viewerFieldOfView
      let k = 180 / Elementary.pi
      return (s[number: .minHfov] ?? range.lowerBound * k, s[number: .maxHfov] ?? range.upperBound * k)
    }
  }

  /// Sets a setting the API changes at run time (`setNorthOffset`, `setHorizonRoll`, …).
  public mutating func setSetting(_ body: (inout ViewerSettings) -> Void) {
    config.updateScene(sceneID) { body(&$0.settings) }
    let s = settings, degree = Elementary.pi / 180
    update { $0.horizon = ((s[number: .horizonPitch] ?? 0) * degree, (s[number: .horizonRoll] ?? 0) * degree) }
  }
}

extension ViewerTour {
  /// Applies one input at host time `t`, with the config's say over it (`draggable`,
  /// `mouseZoom`, `keyboardZoom`, `disableKeyboardCtrl`); the panorama keys are the app's.
  /// - Returns: whether the viewer used it (a host lets the page have the rest: Tab, keys it
  ///   does not bind).
  public mutating func handle(_ input: SceneInput, at t: Double) -> Bool {
    guard panorama != nil else { return false }
    let s = settings
    switch input {
    case .pointer(let phase, let id, let kind, let p):
      guard s[flag: .draggable] ?? true else { return false }
      let confirm = kind == .touch && !isFullscreen ? s[text: .dragConfirm] : nil
      update {
        $0.onePointerLocks = (confirm == "yaw" || confirm == "both", confirm == "pitch" || confirm == "both")
        $0.noteInteraction(at: t)
        $0.pointer(phase, id: id, at: p, time: t)
      }
    case .wheel(let dx, let dy, let precise, _):
      guard s[text: .mouseZoom] != "false", s[text: .mouseZoom] != "fullscreenonly" || isFullscreen else { return false }
      update {
        $0.noteInteraction(at: t)
        $0.wheel(dx: 0, dy: dy, precise: precise)
        if dx != 0 { $0.wheel(dx: dx, dy: 0, precise: precise) }
      }
    case .pinch(let scale, _):
      guard scale > 0 else { return false }
      update {
        $0.noteInteraction(at: t)
        $0.zoom(by: 1 / scale)
      }
    case .key(let key, let modifiers, let isDown, let isRepeat):
      guard s[flag: .disableKeyboardCtrl] != true, let action = KeyBindings.action(for: key, modifiers, in: .panorama) else {
        return false
      }
      switch action {
      case .turn(let direction):
        if !isRepeat { update { $0.turnKey(direction, isDown: isDown) } }
      case .zoomIn, .zoomOut:
        guard s[flag: .keyboardZoom] ?? true else { return false }
        if isDown { update { $0.zoom(by: action == .zoomIn ? 0.9 : 1 / 0.9) } }
      case .cycleLens: if isDown && !isRepeat { update { $0.cycleLens() } }
      case .cycleMode: if isDown && !isRepeat { update { $0.cycleMode() } }
      case .recenter: if isDown && !isRepeat { update { $0.recenter() } }
      case .toggleLevelHorizon: if isDown && !isRepeat { update { $0.levelsHorizon.toggle() } }
      case .togglePlayback, .stepFrames, .skip:
        // The app's video keys; the page's `<video>` is the host's, so the host carries them out.
        guard s[text: .video] != nil else { return false }
        if isDown, let command = VideoCommand(action, isRepeat: isRepeat) { videoCommand = command }
      default: return false
      }
      if isDown { update { $0.noteInteraction(at: t) } }
    case .motion(let sample):
      update { $0.feed(sample) }
    case .focusLost:
      update { $0.releaseAll() }
    }
    return true
  }
}

/// A key's request to a video scene's player, as the app's keys do it (`KeyBindings`): Space
/// plays or pauses, `,`/`.` pause and step a frame, `[`/`]` skip 5 seconds.
public enum VideoCommand: Hashable, Sendable {
  case togglePlay
  case stepFrames(Int)
  case skip(Double)

  /// The command of a key action; nil for other actions, and for a held Space (a repeat
  /// would play and pause by turns).
  init?(_ action: Action, isRepeat: Bool) {
    switch action {
    case .togglePlayback where !isRepeat: self = .togglePlay
    case .stepFrames(let n): self = .stepFrames(n)
    case .skip(let seconds): self = .skip(seconds)
    default: return nil
    }
  }
}

extension ViewerTour {
  /// The pending video command, cleared.
  public mutating func takeVideoCommand() -> VideoCommand? {
    defer { videoCommand = nil }
    return videoCommand
  }
}
