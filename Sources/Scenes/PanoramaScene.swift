import CoreMath
import Panorama
import Stage

/// What a rendered panorama frame depends on: when it is unchanged, the last frame stands.
public struct PanoramaFrameKey: Hashable, Sendable {
  public var view: ViewAngles
  public var hfov: Double
  public var lens: Lens
  public var mode: ViewMode
  public var width: Int
  public var height: Int
  public var generation: Int
}

/// The seed-003 scene: a panorama, its viewer, and the caption under it. The host renders
/// the frame (`render`, or its own GPU path from `viewer`) into the `.panorama` image.
public struct PanoramaScene: Sendable {
  public private(set) var viewer: PanoramaViewer
  /// The CPU renderer; `nil` while a host that draws on the GPU holds the pixels itself.
  public private(set) var renderer: PanoramaRenderer?
  /// The file name shown in the caption.
  public private(set) var name: String
  /// Where the picture goes, in viewport points.
  public private(set) var frame = StageRect(x: 0, y: 0, width: 1, height: 1)
  /// Bumped when the source changes, so a host re-renders.
  public private(set) var generation = 0
  /// Set when the panorama is a video: its playback, which the host drives (its frames are
  /// the host's, as a GPU host's pixels are).
  public private(set) var video: VideoPlayback?
  /// The caption bar's height, in points.
  static let captionHeight = 28.0

  public init(renderer: PanoramaRenderer, name: String) {
    self.renderer = renderer
    self.name = name
    viewer = PanoramaViewer(geometry: renderer.geometry)
  }

  /// A scene whose pixels the host keeps (on a GPU): only the geometry is needed here.
  public init(geometry: PanoramaGeometry, name: String) {
    self.name = name
    viewer = PanoramaViewer(geometry: geometry)
  }

  /// Shows another panorama: its geometry sets the limits, the camera starts over.
  public mutating func load(_ renderer: PanoramaRenderer, name: String) {
    load(geometry: renderer.geometry, name: name)
    self.renderer = renderer
  }

  /// Shows another panorama whose pixels the host keeps.
  public mutating func load(geometry: PanoramaGeometry, name: String) {
    renderer = nil
    video = nil
    self.name = name
    viewer.load(geometry: geometry)
    generation += 1
  }

  /// A scene showing a video whose frames the host decodes and draws: `geometry` is one
  /// eye's, and `playback` starts as the host says (playing from 0).
  public init(video playback: VideoPlayback, geometry: PanoramaGeometry, name: String) {
    self.init(geometry: geometry, name: name)
    video = playback
    viewer.setMode(.perspective)
  }

  /// Shows another video in this scene: the camera starts over, as for a panorama.
  public mutating func load(video playback: VideoPlayback, geometry: PanoramaGeometry, name: String) {
    load(geometry: geometry, name: name)
    video = playback
    viewer.setMode(.perspective)
    video?.layout(in: frame, captionHeight: Self.captionHeight)
  }

  /// A pointer on the video's controls (a click on the bar seeks, a drag scrubs, the button
  /// plays or pauses); whether they took it, so the camera does not drag too.
  mutating func controlsPointer(_ phase: PointerPhase, id: Int, at p: StagePoint) -> Bool {
    guard var v = video else { return false }
    defer { video = v }
    return v.pointer(phase, id: id, at: p)
  }

  /// Changes the playback (the host's reports, the user's requests).
  public mutating func updateVideo(_ body: (inout VideoPlayback) -> Void) {
    guard var v = video else { return }
    body(&v)
    video = v
  }

  /// Follows `previous` (the scene shown before): frame keys never repeat across scenes.
  public mutating func inheritGeneration(from previous: PanoramaScene) { generation = previous.generation + 1 }

  /// Changes the CPU renderer in place (its mip levels); a new frame follows.
  public mutating func updateRenderer(_ body: (inout PanoramaRenderer) -> Void) {
    guard var r = renderer else { return }
    renderer = nil
    body(&r)
    renderer = r
    generation += 1
  }

  /// Hands in the CPU renderer for the panorama shown (a fallback, or the reference).
  public mutating func attach(_ renderer: PanoramaRenderer) {
    self.renderer = renderer
    generation += 1
  }

  public mutating func layout(in bounds: StageRect) {
    frame = bounds
    viewer.resize(width: bounds.size.width, height: bounds.size.height)
    video?.layout(in: bounds, captionHeight: Self.captionHeight)
  }

  /// The viewer, for input (`scene.update { $0.zoom(by: 0.9) }`).
  public mutating func update(_ body: (inout PanoramaViewer) -> Void) { body(&viewer) }

  /// The key of the frame a `width`×`height` pixel render would produce now.
  public func frameKey(width: Int, height: Int) -> PanoramaFrameKey {
    PanoramaFrameKey(
      view: viewer.renderedView, hfov: viewer.hfov, lens: viewer.lens, mode: viewer.mode, width: width, height: height,
      generation: generation)
  }

  /// Renders the current view into `frame` with the CPU renderer.
  public mutating func render<E: RowExecutor>(into image: inout RGBAImage, executor: E) {
    guard var renderer else { return }
    // Moved out and back, so its grid cache is mutated in place rather than copied.
    self.renderer = nil
    defer { self.renderer = renderer }
    let v = viewer.renderedView
    switch viewer.mode {
    case .perspective:
      renderer.renderPerspective(view: v, hfov: viewer.hfov, lens: viewer.lens, into: &image, executor: executor)
    case .strip:
      renderer.renderStrip(yaw: v.yaw, into: &image, executor: executor)
    }
  }

  /// The caption: what is shown, how, and how to change it, in plain words; the longest
  /// first, then shorter forms for narrower screens (`touch`: gestures, not keys).
  public func captions(touch: Bool = false) -> [String] {
    let v = viewer.view
    func degrees(_ r: Double) -> Int { Int(Angle(radians: r).degrees.rounded()) }
    let how: String
    switch viewer.mode {
    case .perspective:
      let lens = viewer.lens == .rectilinear ? "" : "\(viewer.lens.rawValue) lens, "
      let level = viewer.levelsHorizon ? ", horizon level" : ""
      how = "\(lens)\(degrees(viewer.hfov))° wide · yaw \(degrees(v.yaw))°, pitch \(degrees(v.pitch))°\(level)"
    case .strip:
      how = "strip view · yaw \(degrees(v.yaw))°"
    }
    let motion: String
    switch viewer.source {
    case .log: motion = "replaying motion"
    case .sensor: motion = "following the gyroscope"
    case .none: motion = touch ? "drag to look around" : "drag or use the arrows"
    }
    let keys =
      touch
      ? "pinch zooms"
      : video != nil
        ? "Space pause · ,/. frame · [/] 5 s · L lens"
        : viewer.mode == .perspective ? "wheel zooms · M strip · L lens · R recentre" : "M perspective · R recentre"
    return ["\(name) · \(how) · \(motion) · \(keys)", "\(name) · \(how) · \(motion)", "\(how) · \(motion)", how]
  }

  /// The longest caption: the app's.
  public var caption: String { captions()[0] }

  /// Appends the picture and the caption bar; `tabFocused`: the keyboard is on a tab, where
  /// the arrows switch tabs, so the caption says how to get them back.
  public func draw(into list: inout DisplayList, tabFocused: Bool = false, touch: Bool = false) {
    list.commands.append(.image(.panorama, frame, opacity: 1))
    video?.draw(into: &list)
    let bar = StageRect(
      x: frame.minX, y: frame.maxY - Self.captionHeight, width: frame.size.width, height: Self.captionHeight)
    list.fill(bar, Palette.caption)
    let width = bar.size.width - 20
    // Shorter forms for a phone, where the long one was cut before "Escape".
    let forms =
      tabFocused
      ? [
        "\(name) · the arrows switch tabs here: Escape or Tab goes back to the view",
        "Arrows switch tabs here · Escape: back to the view", "Escape: back to the view",
      ] : captions(touch: touch)
    let text = forms.first { TextLayout.fits($0, width: width, size: 14) } ?? forms[forms.count - 1]
    list.text(text, bar.minX + 10, bar.minY + 5, size: 14, color: Palette.white, maxWidth: bar.size.width - 20)
    list.cursor = .grab
  }
}
