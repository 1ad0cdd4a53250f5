import CoreMath
import Panorama
import Stage

/// A site's limits on the view (radians): Pannellum's `minYaw`/`maxYaw` and
/// `minPitch`/`maxPitch` bound where the view's edges may go, `minHfov`/`maxHfov` its zoom.
/// `nil` leaves a limit to the lens and the coverage.
public struct ViewLimits: Equatable, Sendable {
  public var yaw: ClosedRange<Double>?
  public var pitch: ClosedRange<Double>?
  public var hfov: ClosedRange<Double>?

  public init(yaw: ClosedRange<Double>? = nil, pitch: ClosedRange<Double>? = nil, hfov: ClosedRange<Double>? = nil) {
    self.yaw = yaw
    self.pitch = pitch
    self.hfov = hfov
  }
}

/// The view turning by itself (Pannellum's `autoRotate`): at `speed` rad/s (positive turns
/// right, so yaw grows), stopped by the user and, with `inactivityDelay`, resumed after
/// that many seconds without input; `stopAfter` seconds after it started it ends for good.
public struct AutoRotation: Equatable, Sendable {
  public var speed: Double
  public var inactivityDelay: Double?
  public var stopAfter: Double?
  /// Whether it turns now (false while it waits out the user's input).
  public internal(set) var turning = true
  var started: Double?

  public init(speed: Double, inactivityDelay: Double? = nil, stopAfter: Double? = nil) {
    self.speed = speed
    self.inactivityDelay = inactivityDelay
    self.stopAfter = stopAfter
  }

  /// Waiting to turn again: the host keeps the clock running until then.
  var resumes: Bool { !turning && inactivityDelay != nil }
}

/// One axis of a `lookAt` gliding from one value to another (radians).
struct AxisGlide: Sendable {
  var from: Double
  var to: Double
  var duration: Double
  var started: Double?

  /// The value at host time `t` (easing in and out, Pannellum's default timing), and whether
  /// it is there.
  mutating func value(at t: Double) -> (Double, done: Bool) {
    let start = started ?? t
    started = start
    let f = duration > 0 ? min(max((t - start) / duration, 0), 1) : 1
    let e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f)
    return (from + (to - from) * e, f >= 1)
  }
}

/// A `lookAt` gliding from one view to another. Each axis glides on its own, as Pannellum's
/// `setPitch`, `setYaw` and `setHfov` animate theirs: `setPitch(30).setYaw(-20)` turns both.
struct Glide: Sendable {
  var yaw: AxisGlide?
  var pitch: AxisGlide?
  var hfov: AxisGlide?
  var isEmpty: Bool { yaw == nil && pitch == nil && hfov == nil }
}

extension PanoramaViewer {
  /// The camera as drawn: `view` with the panorama's own horizon tilt (`horizon`) taken
  /// out, as Pannellum's `horizonPitch`/`horizonRoll` do for a panorama shot off level: a
  /// positive pitch looks that much lower straight ahead, a positive roll that much higher to
  /// the right. `view` stays what the user and the API move.
  public var renderedView: ViewAngles {
    let v = view
    let posed = pose.yaw != 0 || pose.pitch != 0 || pose.roll != 0
    guard mode == .perspective, horizon.pitch != 0 || horizon.roll != 0 || posed else { return v }
    // The camera's axes in the panorama frame (x right, y up, z forward at yaw 0): yaw about
    // y, then pitch about x, then roll about z.
    let (sy, cy) = Elementary.sinCos(v.yaw), (sp, cp) = Elementary.sinCos(v.pitch), (sr, cr) = Elementary.sinCos(v.roll)
    func camera(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
      // Rz(roll), Rx(pitch), Ry(yaw) in turn.
      let (x1, y1) = (cr * x + sr * y, -sr * x + cr * y)
      let (y2, z2) = (cp * y1 + sp * z, -sp * y1 + cp * z)
      return (cy * x1 + sy * z2, y2, -sy * x1 + cy * z2)
    }
    // The tilt: roll about the forward axis, then pitch about the right one (yaw 0).
    let (shp, chp) = Elementary.sinCos(horizon.pitch), (shr, chr) = Elementary.sinCos(horizon.roll)
    func tilt(_ d: (Double, Double, Double)) -> (Double, Double, Double) {
      let (x1, y1) = (chr * d.0 - shr * d.1, shr * d.0 + chr * d.1)
      let (y2, z2) = (chp * y1 - shp * d.2, shp * y1 + chp * d.2)
      return (x1, y2, z2)
    }
    // The pose, undone as `SphericalVideo.projectionMatrix` undoes it: about y (z towards x),
    // then x (z towards −y), then z (x towards y), in the picture's axes.
    let (spy, cpy) = Elementary.sinCos(pose.yaw), (spp, cpp) = Elementary.sinCos(pose.pitch)
    let (spr, cpr) = Elementary.sinCos(pose.roll)
    func unpose(_ d: (Double, Double, Double)) -> (Double, Double, Double) {
      guard posed else { return d }
      let (x1, z1) = (cpy * d.0 + spy * d.2, -spy * d.0 + cpy * d.2)
      let (y2, z2) = (cpp * d.1 - spp * z1, spp * d.1 + cpp * z1)
      return (cpr * x1 - spr * y2, spr * x1 + cpr * y2, z2)
    }
    let f = unpose(tilt(camera(0, 0, 1))), r = unpose(tilt(camera(1, 0, 0)))
    let pitch = Elementary.asin(min(max(f.1, -1), 1))
    let yaw = Elementary.atan2(f.0, f.2)
    // The roll that takes the unrolled camera's right axis to `r`.
    let (sy2, cy2) = Elementary.sinCos(yaw), (sp2, cp2) = Elementary.sinCos(pitch)
    let right0 = (cy2, 0.0, -sy2), up0 = (-sp2 * sy2, cp2, -sp2 * cy2)
    let roll = Elementary.atan2(
      -(r.0 * up0.0 + r.1 * up0.1 + r.2 * up0.2), r.0 * right0.0 + r.1 * right0.1 + r.2 * right0.2)
    // Keep the user's turns (the view's yaw may be many turns round).
    let turns = ((v.yaw - yaw) / Elementary.twoPi).rounded()
    return ViewAngles(yaw: yaw + turns * Elementary.twoPi, pitch: pitch, roll: roll)
  }

  /// Where direction (`yaw`, `pitch`) of the panorama (radians; Pannellum's hotspot angles)
  /// shows in the viewport, in points from its top left; `nil` when the lens does not show
  /// it now (behind a rectilinear camera, outside the fisheye's circle, off the view).
  /// `margin` points beyond the edges still count as shown (a hotspot's own size).
  public func screenPoint(yaw: Double, pitch: Double, margin: Double = 0) -> StagePoint? {
    let v = renderedView
    let w = viewport.width, h = viewport.height
    switch mode {
    case .strip:
      // The strip is the image scaled to the view's height, slid sideways with yaw.
      let pointsPerRadian = stripWidthPoints / max(geometry.horizontalFOV, 1e-9)
      var dx = yaw - v.yaw
      if geometry.wraps { dx -= (dx / Elementary.twoPi).rounded() * Elementary.twoPi }
      let top = coveredLatitudes.top, bottom = coveredLatitudes.bottom
      let y = (top - pitch) / max(top - bottom, 1e-9) * h
      let p = StagePoint(x: w / 2 + dx * pointsPerRadian, y: y)
      return inside(p, w, h, margin) ? p : nil
    case .perspective:
      // The hotspot's direction relative to the camera's yaw, then into the camera's frame
      // (the transpose of its axes: they are orthonormal).
      let (sy, cy) = Elementary.sinCos(yaw - v.yaw)
      let (sp, cp) = Elementary.sinCos(pitch)
      let d = (x: cp * sy, y: sp, z: cp * cy)
      let m = CameraParameters(
        width: 2, height: 2, view: ViewAngles(yaw: 0, pitch: v.pitch, roll: v.roll), hfov: hfov, lens: lens)
      let c = (
        x: m.right.x * d.x + m.right.y * d.y + m.right.z * d.z, y: m.up.x * d.x + m.up.y * d.y + m.up.z * d.z,
        z: m.forward.x * d.x + m.forward.y * d.y + m.forward.z * d.z
      )
      guard let image = lens.project(x: c.x, y: c.y, z: c.z) else { return nil }
      if let r = lens.visibleRadius, (image.x * image.x + image.y * image.y).squareRoot() > r { return nil }
      let focal = lens.focalLength(halfWidth: w / 2, fieldOfView: hfov)
      let p = StagePoint(x: w / 2 + image.x * focal, y: h / 2 - image.y * focal)
      return inside(p, w, h, margin) ? p : nil
    }
  }

  /// The panorama direction (radians) seen at viewport point `p`: the inverse of
  /// `screenPoint`; `nil` where the lens shows nothing (outside the fisheye's circle).
  public func direction(at p: StagePoint) -> (yaw: Double, pitch: Double)? {
    let v = renderedView
    let w = viewport.width, h = viewport.height
    switch mode {
    case .strip:
      let pointsPerRadian = stripWidthPoints / max(geometry.horizontalFOV, 1e-9)
      let top = coveredLatitudes.top, bottom = coveredLatitudes.bottom
      return (v.yaw + (p.x - w / 2) / pointsPerRadian, top - p.y / h * (top - bottom))
    case .perspective:
      let focal = lens.focalLength(halfWidth: w / 2, fieldOfView: hfov)
      let x = (p.x - w / 2) / focal, y = (h / 2 - p.y) / focal
      if let r = lens.visibleRadius, (x * x + y * y).squareRoot() > r { return nil }
      let c = lens.ray(x: x, y: y)
      let m = CameraParameters(
        width: 2, height: 2, view: ViewAngles(yaw: 0, pitch: v.pitch, roll: v.roll), hfov: hfov, lens: lens)
      let d = (
        x: m.right.x * c.x + m.up.x * c.y + m.forward.x * c.z, y: m.right.y * c.x + m.up.y * c.y + m.forward.y * c.z,
        z: m.right.z * c.x + m.up.z * c.y + m.forward.z * c.z
      )
      let yaw = v.yaw + Elementary.atan2(d.x, d.z)
      return (yaw, Elementary.atan2(d.y, (d.x * d.x + d.z * d.z).squareRoot()))
    }
  }

  func inside(_ p: StagePoint, _ w: Double, _ h: Double, _ margin: Double) -> Bool {
    p.x.isFinite && p.y.isFinite && p.x >= -margin && p.x <= w + margin && p.y >= -margin && p.y <= h + margin
  }

  /// `v` within the site's `limits` (edges for yaw and pitch, as Pannellum has them).
  func limited(_ v: ViewAngles, turnsOf reference: Double?) -> ViewAngles {
    var v = v
    let halfPi = Elementary.halfPi
    if let p = limits.pitch, mode == .perspective {
      let half = lens.verticalFieldOfView(hfov, width: viewport.width, height: viewport.height) / 2
      let lo = p.lowerBound <= -halfPi + 1e-6 ? -halfPi : p.lowerBound + half
      let hi = p.upperBound >= halfPi - 1e-6 ? halfPi : p.upperBound - half
      v.pitch = lo <= hi ? min(max(v.pitch, lo), hi) : (p.lowerBound + p.upperBound) / 2
    }
    if let y = limits.yaw, y.upperBound - y.lowerBound < Elementary.twoPi - 1e-6 {
      let half = mode == .perspective ? hfov / 2 : 0
      let centre = (y.lowerBound + y.upperBound) / 2
      let lo = y.lowerBound + half, hi = y.upperBound - half
      let turns = (((reference ?? v.yaw) - centre) / Elementary.twoPi).rounded()
      let local = v.yaw - turns * Elementary.twoPi
      v.yaw = (lo <= hi ? min(max(local, lo), hi) : centre) + turns * Elementary.twoPi
    }
    return v
  }

  // MARK: Set by the host (a viewer's API)

  /// Looks at `yaw`/`pitch`/`hfov` (radians; `nil` keeps each), within the limits: at once
  /// (`duration` 0) or gliding there over `duration` seconds, easing in and out as
  /// Pannellum's `lookAt` does. Either way `glideFinished` is set when it is there.
  public mutating func look(yaw: Double?, pitch: Double?, hfov newHfov: Double?, duration: Double) {
    let here = view, m = tracker.view
    var g = glide ?? Glide()
    // Where each axis ends: the new value, else where its glide was going, else where it is.
    var target = ViewAngles(
      yaw: yaw ?? (g.yaw.map { $0.to + m.yaw } ?? here.yaw), pitch: pitch ?? (g.pitch.map { $0.to + m.pitch } ?? here.pitch),
      roll: here.roll)
    if yaw != nil, geometry.wraps && limits.yaw == nil {
      // The short way round.
      target.yaw -= ((target.yaw - here.yaw) / Elementary.twoPi).rounded() * Elementary.twoPi
    }
    var toHfov = g.hfov?.to ?? hfov
    var hfovGiven = false
    if let newHfov, newHfov.isFinite, newHfov > 0 {
      let range = fieldOfViewRange
      toHfov = min(max(newHfov, range.lowerBound), range.upperBound)
      fieldOfViewChosen = true
      hfovGiven = true
    }
    // Limits for the field of view it ends with.
    let saved = hfov
    hfov = toHfov
    let to = clampedOffset(ViewAngles(yaw: target.yaw - m.yaw, pitch: target.pitch - m.pitch, roll: offset.roll))
    hfov = saved
    velocity = (0, 0)
    // An axis asked for glides (or jumps) there; one already gliding keeps its timing with
    // its end clamped; one at rest that the limits move follows the asked ones.
    func axis(_ current: Double, _ end: Double, _ asked: Bool, _ old: AxisGlide?) -> (AxisGlide?, jump: Double?) {
      if asked || (old == nil && end != current) {
        return duration > 0 ? (AxisGlide(from: current, to: end, duration: duration), nil) : (nil, end)
      }
      guard var old else { return (nil, nil) }
      old.to = end
      return (old, nil)
    }
    let y = axis(offset.yaw, to.yaw, yaw != nil, g.yaw)
    let p = axis(offset.pitch, to.pitch, pitch != nil, g.pitch)
    let f = axis(hfov, toHfov, hfovGiven, g.hfov)
    g = Glide(yaw: y.0, pitch: p.0, hfov: f.0)
    if let j = y.jump { offset.yaw = j }
    if let j = p.jump { offset.pitch = j }
    if let j = f.jump { hfov = j }
    offset.roll = to.roll
    glide = g.isEmpty ? nil : g
    if glide == nil { glideFinished = true }
  }

  /// Ends every motion the user or `lookAt` started: inertia, key glides, a glide.
  public mutating func stopMovement() {
    velocity = (0, 0)
    heldTurns = []
    keyCoast = nil
    glide = nil
  }

  /// Starts turning by itself (`speed` rad/s, positive turning right).
  public mutating func startAutoRotate(_ rotation: AutoRotation) {
    autoRotation = rotation
    glide = nil
  }

  public mutating func stopAutoRotate() { autoRotation = nil }

  /// The user moved the view at host time `t`: a glide ends, autorotate pauses (or stops,
  /// without an inactivity delay).
  public mutating func noteInteraction(at t: Double) {
    lastInteraction = t
    glide = nil
    guard var r = autoRotation else { return }
    if r.inactivityDelay == nil {
      autoRotation = nil
    } else {
      r.turning = false
      autoRotation = r
    }
  }

  /// Runs the glide and autorotate to host time `t`, `dt` seconds after the last step.
  mutating func advanceTour(to t: Double, dt: Double) {
    if var g = glide {
      if let step = g.yaw?.value(at: t) {
        offset.yaw = step.0
        if step.done { g.yaw = nil }
      }
      if let step = g.pitch?.value(at: t) {
        offset.pitch = step.0
        if step.done { g.pitch = nil }
      }
      if let step = g.hfov?.value(at: t) {
        hfov = step.0
        if step.done { g.hfov = nil }
      }
      if g.isEmpty {
        glide = nil
        glideFinished = true
      } else {
        glide = g
      }
    }
    guard var r = autoRotation else { return }
    let start = r.started ?? t
    r.started = start
    if let stop = r.stopAfter, t - start >= stop {
      autoRotation = nil
      return
    }
    if !r.turning, let delay = r.inactivityDelay, t - (lastInteraction ?? t) >= delay { r.turning = true }
    if r.turning && glide == nil && dt > 0 {
      let before = offset.yaw
      // A turn or more per tick turns by its remainder: a config's 1e308 °/s overflowed the
      // yaw to NaN.
      let step = r.speed * dt
      offset.yaw += step.isFinite ? step.truncatingRemainder(dividingBy: Elementary.twoPi) : 0
      offset = clampedOffset(offset)
      // At a yaw limit it turns back, as Pannellum's does.
      if offset.yaw == before { r.speed = -r.speed }
    }
    autoRotation = r
  }
}
