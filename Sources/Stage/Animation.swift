import CoreMath

/// How an animation's progress follows time.
public enum TimingCurve: Hashable, Sendable {
  /// Constant speed (Core Animation's default for `CABasicAnimation`).
  case linear
  /// UIKit's default for `UIView.animate`: cubic Bézier (0.42, 0, 0.58, 1).
  case easeInOut
  /// A damped spring, as SwiftUI's `spring(response:dampingFraction:)`: `response` is the
  /// period of the undamped oscillation in seconds, `dampingRatio` 1 is critically damped,
  /// below 1 overshoots. The animation's duration is the time for the motion to settle
  /// within 0.1 % of the distance, so springs end like every other animation.
  case spring(response: Double, dampingRatio: Double)

  /// Progress (0 at start, 1 at rest; a spring may pass 1) at `t` seconds after start of
  /// an animation lasting `duration` seconds.
  public func progress(at t: Double, duration: Double) -> Double {
    if t <= 0 { return 0 }
    if duration <= 0 || t >= duration { return 1 }
    switch self {
    case .linear:
      return t / duration
    case .easeInOut:
      return Self.cubicBezier(x: t / duration, x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    case .spring(let response, let zeta):
      let omega = Elementary.twoPi / max(response, 1e-3)
      if zeta < 1 {
        let wd = omega * (1 - zeta * zeta).squareRoot()
        let (s, c) = Elementary.sinCos(wd * t)
        return 1 - Elementary.exp(-zeta * omega * t) * (c + zeta * omega / wd * s)
      }
      // Critically damped (and over-damped treated as critical: no overshoot either way).
      return 1 - Elementary.exp(-omega * t) * (1 + omega * t)
    }
  }

  /// The duration a spring needs to settle; other curves use the duration they are given.
  public func settlingDuration(default given: Double) -> Double {
    guard case .spring(let response, let zeta) = self else { return given }
    let omega = Elementary.twoPi / max(response, 1e-3)
    // Envelope e^(−ζωt)(1+ωt) < 1e-3; ln(1e-3) ≈ −6.9, +2 covers the (1+ωt) factor.
    return min(10, 8.9 / (max(zeta, 0.05) * omega))
  }

  /// y of the cubic Bézier from (0,0) to (1,1) at abscissa x, solved by Newton steps with a
  /// bisection fallback (as WebKit's UnitBezier).
  static func cubicBezier(x: Double, x1: Double, y1: Double, x2: Double, y2: Double) -> Double {
    let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
    let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    var t = x
    for _ in 0..<8 {
      let err = sampleX(t) - x
      if abs(err) < 1e-9 { return ((ay * t + by) * t + cy) * t }
      let d = slopeX(t)
      if abs(d) < 1e-9 { break }
      t -= err / d
    }
    var lo = 0.0, hi = 1.0
    t = x
    while hi - lo > 1e-9 {
      if sampleX(t) < x { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return ((ay * t + by) * t + cy) * t
  }
}

/// Where an animation is heading. Resolved at every step, so that a relayout mid-flight
/// moves the destination and the motion stays continuous.
public enum AnimationTarget: Hashable, Sendable {
  /// The centre of a slot (by index).
  case slot(Int)
  /// A fixed point on the board.
  case point(StagePoint)
  /// Wherever an item is drawn (a ghost returning to its source).
  case item(Int)
}

/// An animation on the board: one item's or ghost's movement from where it was to a
/// target, over time (a snap, a return). Not a sensor reading: device motion is Panorama's
/// `MotionTracker`.
public struct Motion: Hashable, Sendable {
  /// Where the animation started, in board points.
  public var from: StagePoint
  /// Where it ends, resolved at every step.
  public var target: AnimationTarget
  /// When it started, in the engine's seconds.
  public var start: Double
  /// How long it lasts, in seconds.
  public var duration: Double
  /// How progress follows time.
  public var curve: TimingCurve

  /// When it ends, in the engine's seconds.
  public var end: Double { start + duration }

  /// Position at time `t`, given where the target is now.
  public func position(at t: Double, targetPoint: StagePoint) -> StagePoint {
    from.interpolated(to: targetPoint, by: curve.progress(at: t - start, duration: duration))
  }
}
