import CoreMath

/// One reading from a motion sensor.
public enum MotionSample: Hashable, Sendable {
  /// An absolute attitude (device → world, Z up) at `t` seconds.
  case attitude(t: Double, Quaternion)
  /// Angular rate in rad/s about the device's x, y, z axes (right-hand rule), at `t`.
  case rate(t: Double, Vector3)

  /// The sample's time, in seconds.
  public var t: Double {
    switch self {
    case .attitude(let t, _), .rate(let t, _): return t
    }
  }
}

/// Turns motion samples into a smooth, continuous camera: validates each sample, integrates
/// rates, extracts heading, unwraps, filters (One Euro), and recentres (the seed's `adjX`).
public struct MotionTracker: Sendable {
  /// Samples refused, by reason. None of them reaches the camera.
  public struct Dropped: Hashable, Sendable {
    /// Samples not later than the last one accepted.
    public var outOfOrder = 0
    /// Samples with a NaN or infinite time or component.
    public var notFinite = 0
    /// Attitudes whose quaternion is too far from unit length to be a rotation.
    public var notUnit = 0
    /// Rates over `MotionTracker.maxRate`: no gyroscope turns that fast, so the sample is
    /// corrupt (and integrating it would spin the view without meaning).
    public var tooFast = 0
    /// All samples refused.
    public var total: Int { outOfOrder + notFinite + notUnit + tooFast }
  }

  /// Whether yaw, pitch and roll go through the One Euro filter.
  public var smoothing: Bool
  /// The samples refused so far, by reason.
  public private(set) var dropped = Dropped()
  /// The fastest rate accepted, rad/s: 100, about three times a phone gyroscope's range
  /// (2 000 °/s).
  public static let maxRate = 100.0
  /// The latest attitude, device → world.
  public private(set) var attitude: Quaternion
  /// The camera after the latest sample.
  public private(set) var view = ViewAngles()

  var lastTime: Double?
  var yawUnwrapper = AngleUnwrapper()
  var rollUnwrapper = AngleUnwrapper()
  var yawOffset = 0.0
  var recenterPending: Bool
  var filters: [OneEuroFilter]

  /// - Parameters:
  ///   - smoothing: run the One Euro filter on yaw, pitch and roll.
  ///   - recenterOnStart: make the first sample's heading yaw 0, so the picture does not jump
  ///     at start (the seed's `adjX`).
  ///   - filter: the filter's parameters (radians).
  public init(smoothing: Bool = true, recenterOnStart: Bool = true, filter: OneEuroFilter = OneEuroFilter()) {
    self.smoothing = smoothing
    self.recenterPending = recenterOnStart
    self.filters = [filter, filter, filter]
    // Rates integrate from a device held upright in portrait, facing yaw 0.
    self.attitude = ViewAngles().attitude
  }

  /// Makes the current heading yaw 0 from the next sample on.
  public mutating func recenter() { recenterPending = true }

  /// Feeds one sample; returns the new camera, or `nil` when the sample was dropped (it is
  /// counted in `dropped`).
  @discardableResult
  public mutating func feed(_ sample: MotionSample) -> ViewAngles? {
    let t = sample.t
    guard t.isFinite else {
      dropped.notFinite += 1
      return nil
    }
    if let last = lastTime, t <= last {
      dropped.outOfOrder += 1
      return nil
    }
    switch sample {
    case .attitude(_, let q):
      guard q.isFinite else {
        dropped.notFinite += 1
        return nil
      }
      let n = q.norm
      // Sensors deliver unit quaternions to a few 1e-4; far off means a corrupt sample.
      guard abs(n - 1) < 0.01 else {
        dropped.notUnit += 1
        return nil
      }
      attitude = q.normalized
    case .rate(_, let w):
      guard w.x.isFinite, w.y.isFinite, w.z.isFinite else {
        dropped.notFinite += 1
        return nil
      }
      guard w.length <= Self.maxRate else {
        dropped.tooFast += 1
        return nil
      }
      if let last = lastTime {
        // Body rates: the increment applies in the device frame, on the right.
        let dt = min(t - last, 0.5)
        let speed = w.length
        if speed > 0 { attitude = (attitude * Quaternion(axis: w, angle: speed * dt)).normalized }
      }
    }
    lastTime = t
    let raw = ViewAngles(attitude: attitude)
    let yaw = yawUnwrapper.unwrap(raw.yaw)
    let roll = rollUnwrapper.unwrap(raw.roll)
    if recenterPending {
      yawOffset = yaw
      recenterPending = false
      for i in filters.indices { filters[i].reset() }
    }
    var next = ViewAngles(yaw: yaw - yawOffset, pitch: raw.pitch, roll: roll)
    if smoothing {
      next.yaw = filters[0].filter(next.yaw, at: t)
      next.pitch = filters[1].filter(next.pitch, at: t)
      next.roll = filters[2].filter(next.roll, at: t)
    }
    view = next
    return next
  }
}
