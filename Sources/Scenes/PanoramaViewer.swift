import CoreMath
import Panorama
import Stage

/// How the panorama is shown.
public enum ViewMode: String, Hashable, Sendable, CaseIterable {
  /// A camera looking out from the centre of the sphere, through one of the lenses.
  case perspective
  /// The seed's camera: the image scaled to the view's height, slid sideways with yaw.
  case strip
}

/// Where the camera's motion comes from.
public enum MotionSource: String, Hashable, Sendable, CaseIterable {
  case none, log, sensor
}

/// The panorama viewer's camera controller: motion (sensor or replayed log) plus the user's
/// own offset from drags, keys, wheel and pinch, with inertia, zoom limits per lens, and
/// limits that keep a partial panorama's view inside what the image covers. No drawing.
public struct PanoramaViewer: Sendable {
  public private(set) var geometry: PanoramaGeometry
  public private(set) var mode = ViewMode.perspective
  public private(set) var lens = Lens.rectilinear
  /// Horizontal field of view, radians.
  public internal(set) var hfov = defaultFieldOfView
  /// The field of view of a landscape view the user has not zoomed.
  public static let defaultFieldOfView = Angle(degrees: 90).radians
  /// Whether the user (or the host, from settings) chose the field of view.
  var fieldOfViewChosen = false
  /// What the longer side of the view sees until the user zooms (a viewer config makes it
  /// Pannellum's 100°).
  public var unzoomedFieldOfView = defaultFieldOfView {
    didSet {
      fieldOfViewChosen = false
      resize(width: viewport.width, height: viewport.height)
    }
  }
  /// The user's offset on top of motion (radians): drags, keys, wheel.
  public internal(set) var offset = ViewAngles()
  public private(set) var tracker: MotionTracker
  public private(set) var source = MotionSource.none
  public private(set) var replay: MotionReplay?
  /// Keeps the view inside the covered area of a partial panorama (the app, the page);
  /// off for `pano video`, which renders exactly the angles asked for.
  public var keepsInsideCoverage = true
  /// Points of the viewport; drags and the vertical field of view follow from it.
  public private(set) var viewport = StageSize(width: 1024, height: 640)
  /// Turning speed of the user's offset (rad/s): inertia after a flick, glide under keys.
  public internal(set) var velocity = (yaw: 0.0, pitch: 0.0)
  var heldTurns: [Key] = []
  /// Seconds since the last turning key went up, while its glide eases out.
  var keyCoast: Double?
  var pointers: [(id: Int, at: StagePoint)] = []
  var drag: (start: StagePoint, offset: ViewAngles)?
  var pinch: (distance: Double, hfov: Double, middle: StagePoint, offset: ViewAngles)?
  /// The axes a drag with one pointer leaves alone (Pannellum's `dragConfirm`: on a touch
  /// screen that axis turns with two fingers, and one finger scrolls the page). The host sets
  /// it for each pointer's kind; two pointers turn both axes whatever it says.
  public var onePointerLocks: (yaw: Bool, pitch: Bool) = (false, false)
  var dragSamples: [(t: Double, at: StagePoint)] = []
  var lastAdvance: Double?
  let smoothing: Bool
  /// A site's own limits (a viewer config's min/max keys), within the coverage's.
  public var limits = ViewLimits() {
    didSet {
      hfov = min(max(hfov, fieldOfViewRange.lowerBound), fieldOfViewRange.upperBound)
      offset = clampedOffset(offset)
    }
  }
  /// Turns the view by itself (a viewer config's `autoRotate`) until the user takes over.
  public internal(set) var autoRotation: AutoRotation?
  /// Host time of the last drag, key, wheel or pinch (autorotate waits after it).
  var lastInteraction: Double?
  /// A `lookAt` on its way: the offset and field of view it glides between.
  var glide: Glide?
  /// The panorama's own tilt (radians): Pannellum's `horizonPitch` and `horizonRoll`.
  public var horizon = (pitch: 0.0, roll: 0.0)
  /// A video's Spherical Video V2 pose (`SphericalVideo.pose`), undone when drawing as the CLI
  /// and the app undo it: content at the projection's centre shows at yaw −pose.yaw, pitch
  /// +pose.pitch. Applied after `horizon` (nearest the picture).
  public var pose = ViewAngles()
  /// Set when a glide arrived; the host reads and clears it (`animatefinished`).
  public var glideFinished = false

  /// Seconds for a flick's speed to fall to 1/e (Pannellum and Photo Sphere Viewer coast for
  /// about a second).
  public static let inertiaTimeConstant = 0.3
  /// Key glide speed: this many fields of view per second.
  public static let glideSpeed = 0.6
  /// A key glide eases out this fast once the keys are up (a flick's 0.3 s coasted tens of
  /// degrees past the release), and stops `keyStopAfter` seconds after it, as Pannellum's
  /// and Photo Sphere Viewer's keys do.
  public static let keyEaseOut = 0.05
  public static let keyStopAfter = 0.15

  public init(geometry: PanoramaGeometry, smoothing: Bool = true) {
    self.geometry = geometry
    self.smoothing = smoothing
    tracker = MotionTracker(smoothing: smoothing)
  }

  /// The camera now: motion (recentred, smoothed) plus the offset, inside the limits.
  public var view: ViewAngles {
    let m = tracker.view
    let roll = mode == .perspective ? (levelsHorizon ? 0 : m.roll) + offset.roll : 0
    let v = ViewAngles(yaw: m.yaw + offset.yaw, pitch: m.pitch + offset.pitch, roll: roll)
    return clamped(v, turnsOf: m.yaw)
  }

  /// Whether the picture changes without input: inertia, a held key, a log or a sensor.
  public var isMoving: Bool {
    replay != nil || source == .sensor || !heldTurns.isEmpty || velocity.yaw != 0 || velocity.pitch != 0
      || glide != nil || autoRotation.map { $0.turning || $0.resumes } ?? false
  }

  // MARK: Settings

  /// Whether the device's roll is ignored, so the horizon stays level: a log recorded with
  /// the phone upside down (a real one's median roll was −163°) replays the right way up,
  /// looking where it looked. Yaw and pitch still follow the motion.
  public var levelsHorizon = false

  /// A new panorama: the offset, zoom and motion start over.
  public mutating func load(geometry: PanoramaGeometry) {
    self.geometry = geometry
    offset = ViewAngles()
    velocity = (0, 0)
    tracker.recenter()
    hfov = min(hfov, fieldOfViewRange.upperBound)
    offset = clamped(offset)
  }

  public mutating func resize(width: Double, height: Double) {
    viewport = StageSize(width: max(width, 1), height: max(height, 1))
    if !fieldOfViewChosen {
      // Until the user zooms, the longer side sees 90° (`unzoomedFieldOfView`): a portrait phone gets a narrower
      // horizontal field instead of 90° across and a stretched 150° top to bottom.
      hfov =
        height > width
        ? lens.fieldOfView(across: width, seeing: unzoomedFieldOfView, along: height) : unzoomedFieldOfView
    }
    hfov = min(max(hfov, fieldOfViewRange.lowerBound), fieldOfViewRange.upperBound)
  }

  /// Sets the starting camera (`pano video --yaw --pitch --roll --hfov`).
  public mutating func set(offset: ViewAngles, hfov: Double? = nil) {
    self.offset = offset
    if let hfov {
      self.hfov = hfov
      fieldOfViewChosen = true
    }
  }

  public mutating func setLens(_ lens: Lens) {
    self.lens = lens
    hfov = min(max(hfov, fieldOfViewRange.lowerBound), fieldOfViewRange.upperBound)
  }

  public mutating func setMode(_ mode: ViewMode) { self.mode = mode }

  /// The next lens in `Lens.allCases`.
  public mutating func cycleLens() {
    let all = Lens.allCases
    setLens(all[(all.firstIndex(of: lens)! + 1) % all.count])
  }

  public mutating func cycleMode() { mode = mode == .perspective ? .strip : .perspective }

  /// Straight ahead (motion and offset) becomes yaw 0, level.
  public mutating func recenter() {
    tracker.recenter()
    offset = ViewAngles()
    velocity = (0, 0)
  }

  /// Replays `log` (looping in the app).
  public mutating func play(_ log: MotionLog, loops: Bool) {
    replay = MotionReplay(log: log, loops: loops)
    tracker = MotionTracker(smoothing: smoothing)
    source = .log
  }

  /// Ends a replay where it is: the view stays on its last angles, the user's to move.
  /// - Returns: whether a replay was playing.
  @discardableResult
  public mutating func stopReplay() -> Bool {
    guard replay != nil else { return false }
    // The replayed angles become the user's offset, so stopping does not jump the view.
    let here = view
    replay = nil
    tracker = MotionTracker(smoothing: smoothing)
    source = .none
    offset = ViewAngles(yaw: here.yaw, pitch: here.pitch, roll: 0)
    velocity = (0, 0)
    return true
  }

  /// A sensor reading on the host clock.
  public mutating func feed(_ sample: MotionSample) {
    guard replay == nil else { return }
    if source != .sensor {
      // The phone's own pitch from its first sample on, as Pannellum shows it: a scene's
      // starting pitch (−30°) was in the offset, and was added to the phone's (20° up showed
      // 10° down). The heading stays relative: the first sample's is the view's yaw.
      offset.pitch = 0
      offset = clampedOffset(offset)
    }
    source = .sensor
    tracker.feed(sample)
  }

  // MARK: Zoom

  /// The fields of view the zoom moves between: the lens's, narrowed so a partial panorama
  /// fills the view.
  public var fieldOfViewRange: ClosedRange<Double> {
    let lensRange = lens.viewerFieldOfView
    guard keepsInsideCoverage, mode == .perspective else { return lensRange }
    var widest = lensRange.upperBound
    if !geometry.wraps { widest = min(widest, geometry.horizontalFOV) }
    let vaov = coveredLatitudes.top - coveredLatitudes.bottom
    if vaov < Elementary.pi - 1e-6 {
      // The widest field whose vertical extent still fits: bisection, the mapping is monotonic.
      var lo = 0.0, hi = widest
      for _ in 0..<40 {
        let mid = (lo + hi) / 2
        if lens.verticalFieldOfView(mid, width: viewport.width, height: viewport.height) <= vaov { lo = mid } else { hi = mid }
      }
      widest = lo
    }
    var narrowest = min(lensRange.lowerBound, widest)
    if let h = limits.hfov {
      widest = min(widest, h.upperBound)
      // A config's minHfov can zoom past the lens's 20° (down to 1°): a big tiled panorama
      // on a small screen reaches one screen pixel per texel only there.
      narrowest = min(max(h.lowerBound, Angle(degrees: 1).radians), widest)
    }
    return narrowest...max(widest, narrowest)
  }

  /// Multiplies the field of view by `factor` (< 1 zooms in), within the limits.
  public mutating func zoom(by factor: Double) {
    guard mode == .perspective, factor.isFinite, factor > 0 else { return }
    let range = fieldOfViewRange
    hfov = min(max(hfov * factor, range.lowerBound), range.upperBound)
    if factor != 1 { fieldOfViewChosen = true }
    offset = clampedOffset(offset)
  }

  /// A scroll: vertical zooms (perspective only), horizontal pans. Notched wheels zoom 10 %
  /// a line; precise ones by their distance, smoothly.
  public mutating func wheel(dx: Double, dy: Double, precise: Bool) {
    if dy != 0 { zoom(by: precise ? Elementary.exp(-dy * 0.003) : Elementary.pow(0.9, dy)) }
    if dx != 0 {
      let radians = precise ? dx * radiansPerPoint : dx * hfovOrStrip * 0.05
      offset.yaw += radians
      offset = clampedOffset(offset)
    }
  }

  // MARK: Pointers

  var radiansPerPoint: Double { hfovOrStrip / viewport.width }
  var hfovOrStrip: Double {
    mode == .perspective ? hfov : geometry.horizontalFOV * viewport.width / max(1, stripWidthPoints)
  }
  var stripWidthPoints: Double { viewport.height * geometry.croppedWidth / max(geometry.croppedHeight, 1) }

  /// A pointer event in viewport points. One pointer drags (the picture follows it); two
  /// pinch.
  public mutating func pointer(_ phase: PointerPhase, id: Int, at p: StagePoint, time t: Double) {
    switch phase {
    case .down:
      pointers.removeAll { $0.id == id }
      pointers.append((id, p))
      velocity = (0, 0)
      restartGesture(at: t)
    case .move:
      guard let k = pointers.firstIndex(where: { $0.id == id }) else { return }
      pointers[k].at = p
      if pointers.count >= 2, let pinch {
        let d = pointers[0].at.distance(to: pointers[1].at)
        if d > 1 {
          let range = fieldOfViewRange
          hfov = min(max(pinch.hfov * pinch.distance / d, range.lowerBound), range.upperBound)
          fieldOfViewChosen = true
        }
        // The two fingers' middle drags the picture, as one finger does.
        let middle = Self.middle(pointers[0].at, pointers[1].at)
        offset.yaw = pinch.offset.yaw - (middle.x - pinch.middle.x) * radiansPerPoint
        if mode == .perspective { offset.pitch = pinch.offset.pitch + (middle.y - pinch.middle.y) * radiansPerPoint }
        offset = clampedOffset(offset)
      } else if let drag, mode == .perspective || pointers.count == 1 {
        // Dragging moves the picture with the pointer: a drag to the right turns the camera left.
        if !onePointerLocks.yaw { offset.yaw = drag.offset.yaw - (p.x - drag.start.x) * radiansPerPoint }
        if mode == .perspective && !onePointerLocks.pitch {
          offset.pitch = drag.offset.pitch + (p.y - drag.start.y) * radiansPerPoint
        }
        offset = clampedOffset(offset)
        dragSamples.append((t, p))
        if dragSamples.count > 8 { dragSamples.removeFirst(dragSamples.count - 8) }
      }
    case .up, .cancel:
      guard pointers.contains(where: { $0.id == id }) else { return }
      let flick = phase == .up && pointers.count == 1 ? flickVelocity(at: t) : nil
      pointers.removeAll { $0.id == id }
      restartGesture(at: t)
      if let flick { velocity = flick }
    }
  }

  static func middle(_ a: StagePoint, _ b: StagePoint) -> StagePoint { StagePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }

  mutating func restartGesture(at t: Double) {
    drag = nil
    pinch = nil
    dragSamples = []
    if pointers.count == 1 {
      drag = (pointers[0].at, offset)
      dragSamples = [(t, pointers[0].at)]
    } else if pointers.count >= 2 {
      pinch = (max(pointers[0].at.distance(to: pointers[1].at), 1), hfov, Self.middle(pointers[0].at, pointers[1].at), offset)
    }
  }

  /// The drag's speed over its last 100 ms, as a turn rate; `nil` when the pointer rested.
  func flickVelocity(at t: Double) -> (yaw: Double, pitch: Double)? {
    guard let last = dragSamples.last, t - last.t < 0.06 else { return nil }
    guard let first = dragSamples.first(where: { last.t - $0.t <= 0.1 }), last.t - first.t > 0.005 else { return nil }
    let dt = last.t - first.t
    let vyaw = onePointerLocks.yaw ? 0 : -(last.at.x - first.at.x) / dt * radiansPerPoint
    let vpitch = mode == .perspective && !onePointerLocks.pitch ? (last.at.y - first.at.y) / dt * radiansPerPoint : 0
    return abs(vyaw) + abs(vpitch) > 0.05 ? (vyaw, vpitch) : nil
  }

  // MARK: Keys

  /// A turning key went down or up: held keys glide at a speed in proportion to the field of
  /// view, and coast to a stop when let go.
  public mutating func turnKey(_ key: Key, isDown: Bool) {
    heldTurns.removeAll { $0 == key }
    if isDown { heldTurns.append(key) }
    keyCoast = heldTurns.isEmpty ? 0 : nil
  }

  /// Ends every drag and held key (the window lost focus).
  public mutating func releaseAll() {
    pointers = []
    heldTurns = []
    restartGesture(at: 0)
  }

  // MARK: Clock

  /// Runs replay, inertia and key glide up to host time `t`.
  public mutating func advance(to t: Double) {
    let dt = min(max(t - (lastAdvance ?? t), 0), 0.1)
    lastAdvance = t
    if var replay {
      let smoothing = self.smoothing
      replay.advance(to: t, tracker: &tracker) { MotionTracker(smoothing: smoothing) }
      self.replay = replay.isFinished ? nil : replay
    }
    advanceTour(to: t, dt: dt)
    guard dt > 0 else { return }
    let speed = Self.glideSpeed * hfovOrStrip
    if !heldTurns.isEmpty {
      var target = (yaw: 0.0, pitch: 0.0)
      for k in heldTurns {
        switch k {
        case .left: target.yaw -= speed
        case .right: target.yaw += speed
        case .up: target.pitch += mode == .perspective ? speed : 0
        case .down: target.pitch -= mode == .perspective ? speed : 0
        default: break
        }
      }
      // Ease in over about 0.1 s rather than jumping to full speed.
      let blend = 1 - Elementary.exp(-dt / 0.1)
      velocity.yaw += (target.yaw - velocity.yaw) * blend
      velocity.pitch += (target.pitch - velocity.pitch) * blend
    } else if pointers.isEmpty {
      let decay = Elementary.exp(-dt / (keyCoast == nil ? Self.inertiaTimeConstant : Self.keyEaseOut))
      velocity.yaw *= decay
      velocity.pitch *= decay
      if let coasted = keyCoast {
        keyCoast = coasted + dt
        if coasted + dt >= Self.keyStopAfter - 1e-9 { velocity = (0, 0) }
      }
      if abs(velocity.yaw) + abs(velocity.pitch) < 0.002 { velocity = (0, 0) }
    } else {
      keyCoast = nil
    }
    if velocity.yaw == 0 && velocity.pitch == 0 { keyCoast = nil }
    guard velocity.yaw != 0 || velocity.pitch != 0 else { return }
    let before = offset
    offset.yaw += velocity.yaw * dt
    offset.pitch += velocity.pitch * dt
    offset = clampedOffset(offset)
    // A limit stops the motion that ran into it.
    if heldTurns.isEmpty {
      if offset.yaw == before.yaw { velocity.yaw = 0 }
      if offset.pitch == before.pitch { velocity.pitch = 0 }
    }
  }

  // MARK: Limits

  /// Latitudes (radians) the image covers, bottom to top.
  public var coveredLatitudes: (bottom: Double, top: Double) {
    let g = geometry
    func latitude(_ y: Double) -> Double {
      switch g.projection {
      case .equirectangular: return (0.5 - y / g.fullHeight) * Elementary.pi
      case .cylindrical: return Elementary.atan((g.fullHeight / 2 - y) / (g.fullWidth / Elementary.twoPi))
      }
    }
    return (latitude(g.croppedTop + g.croppedHeight), latitude(g.croppedTop))
  }

  /// The longitude (radians) of the middle of what the image covers.
  public var coveredCenterLongitude: Double {
    ((geometry.croppedLeft + geometry.croppedWidth / 2) / geometry.fullWidth - 0.5) * Elementary.twoPi
  }

  func clampedOffset(_ o: ViewAngles) -> ViewAngles {
    let m = tracker.view
    let v = clamped(ViewAngles(yaw: m.yaw + o.yaw, pitch: m.pitch + o.pitch, roll: o.roll), turnsOf: m.yaw)
    return ViewAngles(yaw: v.yaw - m.yaw, pitch: v.pitch - m.pitch, roll: o.roll)
  }

  /// `v` moved the least that keeps the view inside the covered area (and pitch within
  /// ±90°). A partial panorama is met again after each whole turn of `reference` (the
  /// device's yaw): the user's own offset does not wrap.
  func clamped(_ v: ViewAngles, turnsOf reference: Double? = nil) -> ViewAngles {
    var v = v
    let halfPi = Elementary.halfPi
    guard keepsInsideCoverage else {
      v.pitch = min(max(v.pitch, -halfPi), halfPi)
      return v
    }
    if mode == .strip {
      v.pitch = 0
    } else {
      let lat = coveredLatitudes
      let half = lens.verticalFieldOfView(hfov, width: viewport.width, height: viewport.height) / 2
      // A full sphere lets the centre reach the poles; a partial one keeps its edges in view.
      let lo = lat.bottom <= -halfPi + 1e-6 ? -halfPi : lat.bottom + half
      let hi = lat.top >= halfPi - 1e-6 ? halfPi : lat.top - half
      v.pitch = lo <= hi ? min(max(v.pitch, lo), hi) : (lat.bottom + lat.top) / 2
    }
    if !geometry.wraps {
      let centre = coveredCenterLongitude, haov = geometry.horizontalFOV
      let half: Double
      if mode == .strip {
        half = min(hfovOrStrip, haov) / 2
      } else {
        // Rows above or below the horizon reach further round: allow for the worst one.
        let vhalf = lens.verticalFieldOfView(hfov, width: viewport.width, height: viewport.height) / 2
        let edge = min(abs(v.pitch) + vhalf, halfPi - 0.01)
        let spread = lens == .rectilinear ? Elementary.atan(tangent(hfov / 2) / Elementary.cos(edge)) : hfov / 2
        half = min(spread, haov / 2)
      }
      let lo = centre - haov / 2 + half, hi = centre + haov / 2 - half
      // The device may have turned whole circles: clamp within the turn it is on.
      let turns = (((reference ?? v.yaw) - centre) / Elementary.twoPi).rounded()
      let y = v.yaw - turns * Elementary.twoPi
      v.yaw = (lo <= hi ? min(max(y, lo), hi) : centre) + turns * Elementary.twoPi
    }
    return limited(v, turnsOf: reference)
  }
}

func tangent(_ x: Double) -> Double {
  let (s, c) = Elementary.sinCos(x)
  return s / c
}
