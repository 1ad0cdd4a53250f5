import CoreMath

/// A camera path through keyframes (time, yaw, pitch, roll, field of view, lens), eased in
/// and out between each pair (smoothstep: at rest at every key), as a video editor's
/// keyframes are. Yaw is interpolated as written, so 0 → 720° turns twice. Between a
/// rectilinear and a stereographic key the projection blends continuously (`view(at:)`);
/// another lens switches at its key, or earlier when the eased field of view outgrows the
/// lens before it. Before the first key the view is the first key's, after the last the
/// last's.
public struct ViewKeyframes: Hashable, Sendable {
  /// One keyframe: when, where the camera looks, how wide, through which lens.
  public struct Key: Hashable, Sendable {
    /// Seconds on the clip's timeline.
    public var time: Double
    /// Radians.
    public var view: ViewAngles
    /// Horizontal field of view, in radians, within the lens's range.
    public var hfov: Double
    /// The lens at this key.
    public var lens: Lens

    /// A key at `time` seconds looking at `view` (radians), `hfov` radians wide.
    public init(time: Double, view: ViewAngles, hfov: Double, lens: Lens = .rectilinear) {
      self.time = time
      self.view = view
      self.hfov = hfov
      self.lens = lens
    }
  }

  /// Why keys were refused: which key, and what is wrong with it.
  public struct KeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key at fault, 0-based (the message counts from 1).
    public var index: Int
    /// What is wrong with the key.
    public var message: String
    /// `key N: message`, N counting from 1.
    public var description: String { "key \(index + 1): \(message)" }
  }

  /// The keys, in strictly increasing time.
  public let keys: [Key]

  /// Keys in strictly increasing time, every value finite, at least one.
  public init(_ keys: [Key]) throws(KeyError) {
    guard !keys.isEmpty else { throw KeyError(index: 0, message: "no keys: give at least one") }
    for (i, k) in keys.enumerated() {
      let values = [k.time, k.view.yaw, k.view.pitch, k.view.roll, k.hfov]
      guard values.allSatisfy({ $0.isFinite }) else { throw KeyError(index: i, message: "a value is not a finite number") }
      let range = k.lens.fieldOfViewDegrees
      let degrees = Angle(radians: k.hfov).degrees
      // A whisker of slack: degrees → radians → degrees need not round-trip exactly.
      guard degrees >= range.lowerBound - 1e-9, degrees <= range.upperBound + 1e-9 else {
        throw KeyError(
          index: i,
          message:
            "hfov \(JSONlessNumber(degrees)) is outside \(JSONlessNumber(range.lowerBound))…\(JSONlessNumber(range.upperBound)) for the \(k.lens.rawValue) lens"
        )
      }
      if i > 0, k.time <= keys[i - 1].time {
        throw KeyError(
          index: i,
          message:
            "at \(JSONlessNumber(k.time)) s, not after key \(i) at \(JSONlessNumber(keys[i - 1].time)) s: keys must be in time order"
        )
      }
    }
    self.keys = keys
  }

  /// The view at `t` seconds; `eye` is set between a rectilinear and a stereographic key,
  /// where the projection itself blends (`Lens.perspectiveRay`; `lens` is then the nearer
  /// key's, for what reads only the lens).
  public func view(at t: Double) -> (view: ViewAngles, hfov: Double, lens: Lens, eye: Double?) {
    guard let last = keys.last, t < last.time else { return (keys.last!.view, keys.last!.hfov, keys.last!.lens, nil) }
    guard t > keys[0].time else { return (keys[0].view, keys[0].hfov, keys[0].lens, nil) }
    // The pair around t (few keys: a linear search is the clearest).
    var i = 0
    while keys[i + 1].time <= t { i += 1 }
    let a = keys[i], b = keys[i + 1]
    let x = (t - a.time) / (b.time - a.time)
    let e = x * x * (3 - 2 * x)
    func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * e }
    let view = ViewAngles(
      yaw: mix(a.view.yaw, b.view.yaw), pitch: mix(a.view.pitch, b.view.pitch), roll: mix(a.view.roll, b.view.roll))
    if (a.lens == .rectilinear && b.lens == .stereographic) || (a.lens == .stereographic && b.lens == .rectilinear) {
      // Rectilinear ↔ stereographic (a little-planet zoom): switching lens would jump (the
      // stereographic view of a field is far larger at its centre) and the rectilinear one
      // smears into streaks near 179° before it. Instead the eye of the general perspective
      // moves from the centre to the far pole as the zoom eases, and the zoom eases the
      // centre's scale (focal length, geometrically: an even pace of zoom) from one key's to
      // the other's. The field follows from both: it grows steadily, and always stays inside
      // what the eye can show, so there is no streak and no jump.
      func eye(_ lens: Lens) -> Double { lens == .stereographic ? 1 : 0 }
      let eyeNow = mix(eye(a.lens), eye(b.lens))
      // The focal length of a view 2 units wide, the key's own lens's.
      func focal(_ k: Key) -> Double { Lens.perspectiveFocalLength(halfWidth: 1, fieldOfView: k.hfov, eye: eye(k.lens)) }
      let logFocal = mix(Elementary.log(focal(a)), Elementary.log(focal(b)))
      let hfov = 2 * Lens.perspectiveAngle(atRadius: 1 / Elementary.exp(logFocal), eye: eyeNow)
      return (view, hfov, e < 0.5 ? a.lens : b.lens, eyeNow)
    }
    let hfov = mix(a.hfov, b.hfov)
    // Other lenses switch at the next key, or earlier, the moment the eased field grows past
    // what this key's lens can show. The eased field lies between the two keys', so the next
    // key's lens can always show it.
    let lens = hfov > a.lens.maximumFieldOfView ? b.lens : a.lens
    return (view, hfov, lens, nil)
  }
}
