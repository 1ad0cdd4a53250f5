import Panorama
import Stage

/// Plays a motion log into a tracker on the host's clock: the app loops it, `pano video`
/// plays it once, frame by frame. The one place replay timing lives.
public struct MotionReplay: Sendable {
  public let log: MotionLog
  /// Start again from the first sample after the last one.
  public var loops: Bool
  /// Host time of the log's t = 0; set by the first `advance`.
  public private(set) var startTime: Double?
  var next = 0

  public init(log: MotionLog, loops: Bool) {
    self.log = log
    self.loops = loops
  }

  /// The log's length in seconds (its last finite timestamp).
  public var duration: Double { log.samples.map { $0.t }.filter { $0.isFinite }.max() ?? 0 }

  /// Feeds `tracker` every sample up to host time `t`. A looping replay restarts the tracker
  /// when it wraps, so each pass starts recentred, as the first did.
  public mutating func advance(to t: Double, tracker: inout MotionTracker, fresh: () -> MotionTracker) {
    if startTime == nil { startTime = t }
    var local = t - startTime!
    let length = max(duration, 0.001)
    if loops && local > length {
      startTime! += length * (local / length).rounded(.down)
      local = t - startTime!
      next = 0
      tracker = fresh()
    }
    while next < log.samples.count && log.samples[next].t <= local {
      tracker.feed(log.samples[next])
      next += 1
    }
  }

  /// Whether every sample has been fed (never, for a looping replay).
  public var isFinished: Bool { !loops && next >= log.samples.count }
}
