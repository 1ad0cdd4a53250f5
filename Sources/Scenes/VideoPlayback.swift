import CoreMath
import Stage

/// A video's playback as the scene layer keeps it: whether it plays, the time of the frame
/// on screen, the length, and the seek the user asked for. The host owns the decoder, the
/// sound and the clock: it takes seek requests (`takeSeek`), plays or pauses as `isPlaying`
/// says, and reports each frame it shows (`showed(frameAt:)`) and the end
/// (`reachedEnd()`). Keys, the progress bar and its drawing live here, so they are the
/// same in every host and testable without one.
///
/// Times are seconds from the stream's first frame.
public struct VideoPlayback: Hashable, Sendable {
  /// The stream's length in seconds (0 when the container does not say: the bar is then
  /// inert, and seeks are only clamped at 0); where the picture really ended, once playback
  /// found it ends before (`reachedEnd(at:)`: a file cut short).
  public private(set) var duration: Double
  /// Seconds per frame (a step with `,` and `.`).
  public let frameDuration: Double
  public private(set) var isPlaying = true
  /// The time of the frame on screen.
  public private(set) var time = 0.0
  /// A seek the host has not taken yet, in seconds.
  public private(set) var seekRequest: Double?
  /// Playback stopped at the last frame; Space starts again from the beginning.
  public private(set) var ended = false
  /// The start of the frame a step asked for, until the host shows a frame after taking
  /// the seek: a press before then goes on from it, not from the frame still on screen (a
  /// step lost) nor from the seek's half-frame slack (slack that added up: three presses
  /// went four frames).
  var stepTarget: Double?
  /// The pointer holding the progress bar (scrubbing), if any.
  var scrubbing: Int?
  /// Where the controls are, in viewport points (laid out with the scene).
  public private(set) var controls = StageRect(x: 0, y: 0, width: 0, height: 0)

  /// Seconds a `[` or `]` skips.
  public static let skipSeconds = 5.0
  /// Height of the controls strip, in points.
  public static let controlsHeight = 32.0

  /// A video of `duration` seconds at `frameDuration` seconds a frame, playing from 0.
  public init(duration: Double, frameDuration: Double, playing: Bool = true) {
    self.duration = duration.isFinite && duration > 0 ? duration : 0
    self.frameDuration = frameDuration.isFinite && frameDuration > 0 ? frameDuration : 1.0 / 30
    isPlaying = playing
  }

  /// The time the controls show: the pending seek's target, else the frame on screen.
  public var shownTime: Double { seekRequest ?? (ended ? max(duration, time) : time) }

  /// The latest time a seek may go to: the start of the last frame.
  var lastFrameTime: Double { max(0, duration - frameDuration) }

  // MARK: What the user asks

  public mutating func play() {
    if ended { seek(to: 0) }
    stepTarget = nil
    isPlaying = true
  }

  public mutating func pause() { isPlaying = false }

  /// Space: pause, or play (from the start when it ended).
  public mutating func togglePlay() {
    if isPlaying { pause() } else { play() }
  }

  /// Asks the host to show `seconds` (clamped to the stream); playing goes on from there.
  public mutating func seek(to seconds: Double) {
    guard seconds.isFinite else { return }
    var t = max(0, seconds)
    if duration > 0 { t = min(t, lastFrameTime) }
    seekRequest = t
    stepTarget = nil
    ended = false
  }

  /// `[` and `]`: a skip of `seconds` from the time shown.
  public mutating func skip(by seconds: Double) { seek(to: shownTime + seconds) }

  /// `,` and `.`: pauses and goes `frames` frames on (back when negative) from the frame shown.
  public mutating func step(frames: Int) {
    pause()
    var target = max(0, (stepTarget ?? seekRequest ?? time) + Double(frames) * frameDuration)
    if duration > 0 { target = min(target, lastFrameTime) }
    // Half a frame's slack: the frame found is the one starting at or before the target.
    seek(to: target + frameDuration / 2)
    stepTarget = target
  }

  // MARK: What the host reports

  /// The seek to do, taken: the host seeks its decoder and sound there.
  public mutating func takeSeek() -> Double? {
    defer { seekRequest = nil }
    return seekRequest
  }

  /// The host shows the frame that starts at `seconds`.
  public mutating func showed(frameAt seconds: Double) {
    time = seconds
    // The frame of the step's seek (the host shows only frames after the seek it took).
    if seekRequest == nil { stepTarget = nil }
    ended = false
  }

  /// The host showed the last frame and its time ran out: playback stops there. `end`:
  /// where the picture really ended when the host found it short of `duration` (a file cut
  /// short); the length, the bar and its label take it, so none of them says the header's.
  public mutating func reachedEnd(at end: Double? = nil) {
    isPlaying = false
    ended = true
    if let end, end.isFinite, end > 0, duration == 0 || end < duration { duration = end }
  }

  // MARK: The controls

  /// Lays the controls out along the bottom of the picture `frame`, above the caption bar.
  mutating func layout(in frame: StageRect, captionHeight: Double) {
    controls = StageRect(
      x: frame.minX, y: frame.maxY - captionHeight - Self.controlsHeight, width: frame.size.width,
      height: Self.controlsHeight)
  }

  /// The play/pause button at the controls' left end.
  public var buttonFrame: StageRect { StageRect(x: controls.minX, y: controls.minY, width: 40, height: controls.size.height) }

  /// The progress bar's track: what a click or a drag on it seeks along.
  public var barFrame: StageRect {
    let left = controls.minX + 48, right = controls.maxX - 130
    return StageRect(x: left, y: controls.minY + 12, width: max(right - left, 1), height: 8)
  }

  /// The time at `x` (viewport points) along the bar.
  public func time(atX x: Double) -> Double {
    let bar = barFrame
    let fraction = min(max((x - bar.minX) / bar.size.width, 0), 1)
    return fraction * duration
  }

  /// A pointer on the controls: a press on the bar seeks there and holds it (a drag
  /// scrubs), a press on the button plays or pauses.
  /// - Returns: whether the controls took the pointer (the camera must not drag).
  mutating func pointer(_ phase: PointerPhase, id: Int, at p: StagePoint) -> Bool {
    switch phase {
    case .down:
      guard controls.contains(p) else { return false }
      if buttonFrame.contains(p) {
        togglePlay()
      } else if duration > 0, barFrame.insetBy(-12).contains(p) || p.x >= barFrame.minX && p.x <= barFrame.maxX {
        scrubbing = id
        seek(to: time(atX: p.x))
      }
      return true
    case .move:
      guard scrubbing == id else { return false }
      seek(to: time(atX: p.x))
      return true
    case .up, .cancel:
      guard scrubbing == id else { return false }
      scrubbing = nil
      return true
    }
  }

  /// Clock text: `m:ss.t` (tenths), hours when there are any.
  public static func clock(_ seconds: Double) -> String {
    let tenths = Int((max(0, seconds) * 10).rounded(.down))
    let s = tenths / 10 % 60, m = tenths / 600 % 60, h = tenths / 36000
    let ss = s < 10 ? "0\(s)" : "\(s)"
    let head = h > 0 ? "\(h):\(m < 10 ? "0" : "")\(m)" : "\(m)"
    return "\(head):\(ss).\(tenths % 10)"
  }

  /// The time label: `0:01.2 / 0:02.0`.
  public var timeLabel: String {
    duration > 0 ? "\(Self.clock(shownTime)) / \(Self.clock(duration))" : Self.clock(shownTime)
  }

  /// Appends the controls: the button, the bar with the part played filled, and the time.
  func draw(into list: inout DisplayList) {
    list.fill(controls, Palette.caption)
    // Play (a triangle, as text) or pause (two bars).
    let b = buttonFrame
    if isPlaying {
      list.fill(StageRect(x: b.minX + 14, y: b.minY + 8, width: 4, height: 16), Palette.white)
      list.fill(StageRect(x: b.minX + 22, y: b.minY + 8, width: 4, height: 16), Palette.white)
    } else {
      list.text("▶", b.center.x, b.minY + 6, size: 16, color: Palette.white, align: .center)
    }
    let bar = barFrame
    list.fill(bar, RGBA(255, 255, 255, 90), radius: 4)
    let fraction = duration > 0 ? min(max(shownTime / duration, 0), 1) : 0
    let played = StageRect(x: bar.minX, y: bar.minY, width: bar.size.width * fraction, height: bar.size.height)
    if played.size.width >= 1 { list.fill(played, Palette.focus, radius: 4) }
    let knob = StageRect(x: bar.minX + bar.size.width * fraction - 6, y: bar.center.y - 6, width: 12, height: 12)
    list.fill(knob, Palette.white, radius: 6)
    list.text(timeLabel, controls.maxX - 10, controls.minY + 8, size: 13, color: Palette.white, align: .trailing)
  }
}
