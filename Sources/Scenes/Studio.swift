import Panorama
import Stage

/// What has the keyboard focus.
public enum Focus: Hashable, Sendable {
  case tab(SceneKind)
  case board(BoardFocus)
  /// The message banner's close button.
  case dismissMessage
  /// The panorama view itself: a focus stop of its own, where the arrows turn the camera.
  case view
}

/// Something a host must act on.
public enum HostRequest: Hashable, Sendable {
  case screenshot
  case quit
  /// The tour moved to another scene: the host opens `tour.imageURL` (`openTourScene`).
  case loadTourScene
}

/// What `Studio` reports to its host.
public enum SceneEvent: Sendable {
  /// A board engine's event (the app prints them with `--events`).
  case engine(SceneKind, StageEvent)
  /// The Shortcuts dock's sortable event (`start`, `sort`, `end`, `change`), printed as the
  /// web board's sortable events are.
  case sort(SceneKind, SortEvent)
  /// For a screen reader: the scene layer's own (focus, tabs). A board engine's
  /// announcements arrive as `.engine(_, .announce(text))`, to be spoken assertively.
  case announce(Announcement)
  /// A board was laid out anew: its slot and item frames changed.
  case layout(SceneKind)
  /// A board's saved data (placements, contents) changed: the host saves it.
  case save(SceneKind)
  /// Another scene is shown: the host updates its title, and loads the panorama if needed.
  case shown(SceneKind)
  case request(HostRequest)
}

/// The three scenes under one tab bar: layout, focus, the message banner, and routing of
/// host-neutral input to the scene shown. Every host (SDL app, web page) drives one.
public struct Studio: Sendable {
  public internal(set) var active: SceneKind
  public internal(set) var locations: BoardScene
  public internal(set) var shortcuts: BoardScene
  /// `nil` until the host hands one in (decoding a panorama costs; it waits for the tab).
  public internal(set) var panorama: PanoramaScene?
  /// A viewer config's tour shown in the Panorama tab (the app's `--config`): its scenes and
  /// hotspots; the camera is `panorama`'s.
  public internal(set) var tour: ViewerTour?
  /// Where a press on the panorama went down, to tell a click on a hotspot from a drag.
  var tourPress: (id: Int, at: StagePoint)?
  public internal(set) var focus: Focus?
  public internal(set) var viewport = StageSize(width: 1024, height: 720)
  /// Errors the user should see until they dismiss them, each for the tab it is about (a
  /// Locations photo that failed to load is no news on the Panorama tab) or, with no tab,
  /// for every tab.
  var messages: [(scene: SceneKind?, text: String)] = []
  /// The error shown on the active tab: its own, else one for every tab.
  public var message: String? {
    (messages.first { $0.scene == active } ?? messages.first { $0.scene == nil })?.text
  }
  /// A short confirmation ("Saved screenshot …") shown until host time `until`.
  public internal(set) var notice: (text: String, until: Double)?
  /// How long a notice stays on screen, in seconds.
  public static let noticeDuration = 2.5

  public static let tabHeight = 44.0
  /// Below this the tabs and boards overlap: hosts keep windows at least this big.
  public static let minimumSize = StageSize(width: 520, height: 400)

  public init(active: SceneKind = .locations, locations: BoardScene = .locations(), shortcuts: BoardScene = .shortcuts()) {
    self.active = active
    self.locations = locations
    self.shortcuts = shortcuts
  }

  /// The window title.
  public var title: String { "ImageStage: \(active.title)" }

  /// The board scene of `kind` (Locations or Shortcuts).
  public func board(_ kind: SceneKind) -> BoardScene {
    precondition(kind.isBoard, "\(kind) is not a board")
    return kind == .locations ? locations : shortcuts
  }

  mutating func withBoard<R>(_ kind: SceneKind, _ body: (inout BoardScene) -> R) -> R {
    kind == .locations ? body(&locations) : body(&shortcuts)
  }

  /// Whether nothing moves (the host may sleep until the next input).
  public var isIdle: Bool {
    guard notice == nil else { return false }
    switch active {
    case .locations: return locations.isIdle
    case .shortcuts: return shortcuts.isIdle
    case .panorama:
      guard let panorama else { return true }
      // A video playing, or one waiting for its seek, is the host's to keep drawing.
      return !panorama.viewer.isMoving && !(panorama.video.map { $0.isPlaying || $0.seekRequest != nil } ?? false)
    }
  }

  // MARK: Layout

  /// Points at the tab bar's right end left to the host (the page's help button).
  public var tabBarTrailingInset = 0.0

  /// The rect of tab `kind`.
  public func tabFrame(_ kind: SceneKind) -> StageRect {
    let w = max(viewport.width - tabBarTrailingInset, 1) / Double(SceneKind.allCases.count)
    return StageRect(x: Double(SceneKind.allCases.firstIndex(of: kind)!) * w, y: 0, width: w, height: Self.tabHeight)
  }

  var contentFrame: StageRect {
    StageRect(x: 0, y: Self.tabHeight, width: viewport.width, height: max(viewport.height - Self.tabHeight, 1))
  }

  /// Lines of the message banner: as many as it needs (up to four), never cut mid-sentence.
  var messageLines: [String] {
    guard let message else { return [] }
    return TextLayout.lines(message, width: viewport.width - 60, size: 14, maxLines: 4)
  }

  var messageFrame: StageRect {
    StageRect(x: 0, y: Self.tabHeight, width: viewport.width, height: 12 + 18 * Double(max(messageLines.count, 1)))
  }
  var dismissFrame: StageRect { StageRect(x: viewport.width - 34, y: Self.tabHeight + 2, width: 26, height: 26) }

  /// Lays every scene out for a viewport of `size` points.
  public mutating func layout(viewport size: StageSize, at t: Double) -> [SceneEvent] {
    viewport = StageSize(width: max(size.width, 1), height: max(size.height, 1))
    let content = contentFrame
    var events = locations.layout(in: content, canvas: viewport, at: t).map { SceneEvent.engine(.locations, $0) }
    events += shortcuts.layout(in: content, canvas: viewport, at: t).map { SceneEvent.engine(.shortcuts, $0) }
    panorama?.layout(in: content)
    return events + [.layout(.locations), .layout(.shortcuts)]
  }

  // MARK: Scenes

  /// Shows `kind`; drags in the scene left are cancelled.
  public mutating func show(_ kind: SceneKind, at t: Double) -> [SceneEvent] {
    guard kind != active else { return [] }
    var events = cancelDrags(at: t)
    active = kind
    if case .board = focus { focus = nil }
    if message == nil, focus == .dismissMessage { focus = nil }
    events.append(.shown(kind))
    if kind.isBoard { events.append(.layout(kind)) }
    events.append(.announce(Announcement("\(kind.title) shown.")))
    return events
  }

  /// Hands in the panorama scene (the host decoded its image).
  public mutating func setPanorama(_ scene: PanoramaScene) {
    var scene = scene
    scene.layout(in: contentFrame)
    panorama = scene
  }

  /// Changes the panorama scene (a new file, a motion log).
  public mutating func updatePanorama(_ body: (inout PanoramaScene) -> Void) {
    guard var scene = panorama else { return }
    body(&scene)
    panorama = scene
  }

  /// Adds photos to Locations; the first to the free slot at `droppedAt`, if any.
  public mutating func addPhotos(_ photos: [Photo], droppedAt: StagePoint? = nil, at t: Double) -> [SceneEvent] {
    let events = locations.addPhotos(photos, droppedAt: droppedAt, at: t)
    return report(.locations, events) + [.layout(.locations), .save(.locations)]
  }

  /// Restores a board's saved placements and contents.
  public mutating func restore(_ kind: SceneKind, board: Board, at t: Double) {
    withBoard(kind) { $0.restore(board, at: t) }
  }

  /// Turns reduced motion on or off (the platform's setting): animations become instant.
  public mutating func setReducedMotion(_ on: Bool) {
    locations.setReducedMotion(on)
    shortcuts.setReducedMotion(on)
  }

  /// Words and labels for a touch screen (the host's primary pointer is coarse): tabs
  /// without key numbers, buttons without key letters, "tap Undo" rather than "Ctrl+Z".
  public internal(set) var touchFirst = false

  /// Sets `touchFirst` (a web page from `(pointer: coarse)`; the app stays keyboard-first).
  public mutating func setTouchFirst(_ on: Bool) {
    touchFirst = on
    for kind in [SceneKind.locations, .shortcuts] {
      withBoard(kind) { $0.setTouchFirst(on) }
    }
  }

  /// Shows a short confirmation for a few seconds (a saved screenshot), and returns the
  /// announcement for screen readers.
  public mutating func notify(_ text: String, at t: Double) -> [SceneEvent] {
    notice = (text, t + Self.noticeDuration)
    return [.announce(Announcement(text))]
  }

  /// Shows an error on the tab of `scene` (every tab when `nil`) until the user dismisses
  /// it; `nil` text removes that tab's error.
  public mutating func showMessage(_ text: String?, in scene: SceneKind? = nil) {
    messages.removeAll { $0.scene == scene }
    if let text { messages.append((scene, text)) }
    if message == nil, focus == .dismissMessage { focus = nil }
  }

  /// Removes the error shown on the active tab (its close button, Escape).
  mutating func dismissMessage() {
    if let shown = messages.firstIndex(where: { $0.scene == active }) ?? messages.firstIndex(where: { $0.scene == nil }) {
      messages.remove(at: shown)
    }
    if message == nil, focus == .dismissMessage { focus = nil }
  }

  mutating func cancelDrags(at t: Double) -> [SceneEvent] {
    panorama?.update { $0.releaseAll() }
    guard active.isBoard else { return [] }
    let kind = active
    return boardInput(kind) { $0.handle(.cancelAll, at: t) }
  }

  // MARK: Clock

  /// Runs every animation, replay and glide up to host time `t`.
  public mutating func advance(to t: Double) {
    if let n = notice, t >= n.until { notice = nil }
    locations.advance(to: t)
    shortcuts.advance(to: t)
    if active == .panorama { panorama?.update { $0.advance(to: t) } }
  }

  // MARK: Reporting

  /// Wraps a board's engine events, adding announcements and a save when its data changed.
  mutating func report(_ kind: SceneKind, _ events: [StageEvent], before: [String?]? = nil) -> [SceneEvent] {
    var out: [SceneEvent] = []
    // Engine announcements stay engine events (`--events` prints them as such); hosts
    // speak them as assertive: they answer what the user just did.
    for e in events { out.append(.engine(kind, e)) }
    if let before, before != savedSignature(kind) { out.append(.save(kind)) }
    return out
  }

  /// What a board saves, flattened: a change means the host saves again.
  func savedSignature(_ kind: SceneKind) -> [String?] {
    let board = self.board(kind).engine.board
    return board.items.map { $0.slot.map { board.slots[$0].id } } + board.slots.map { $0.content }
  }

  mutating func boardInput(_ kind: SceneKind, _ body: (inout BoardScene) -> [StageEvent]) -> [SceneEvent] {
    let before = savedSignature(kind)
    let events = withBoard(kind, body)
    let sorts = withBoard(kind) { $0.takeSortEvents() }
    return sorts.map { SceneEvent.sort(kind, $0) } + report(kind, events, before: before)
  }
}
