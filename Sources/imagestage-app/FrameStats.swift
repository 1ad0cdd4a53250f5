/// How long frames took to make (`--stats`): every frame's work, and the frames and time
/// spent while something moved.
struct FrameStats {
  var workTimes: [Double] = []
  var busyFrames = 0
  var busySeconds = 0.0

  /// Frames recorded (the most recent 50 000 to 100 000 are kept).
  var frames: Int { workTimes.count }

  /// One frame's work, from its events to its draw, in seconds.
  mutating func record(work: Double) {
    workTimes.append(work)
    if workTimes.count > 100_000 { workTimes.removeFirst(50_000) }
  }

  /// A frame drawn while something moved, and its time from start to present.
  mutating func recordBusy(seconds: Double) {
    busyFrames += 1
    busySeconds += seconds
  }

  /// The `stats` line; nil before a frame after the first.
  func line() -> String? {
    // The first frame creates every texture: start-up, not interaction.
    let interactive = Array(workTimes.dropFirst())
    let sorted = interactive.sorted()
    guard !sorted.isEmpty else { return nil }
    func ms(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1000 }
    // Frames per second while something moved: idle time asleep in the event queue is not
    // counted, and frames are paced by vsync.
    let fps = busySeconds > 0 ? Double(busyFrames) / max(busySeconds, 1e-9) : 0
    // The slowest frames with their numbers: a p99 over a few hundred frames is its two or
    // three worst, and knowing when they came (start-up, a drop) says what they were.
    let worst = interactive.enumerated().sorted { $0.element > $1.element }.prefix(5).map {
      (frame: $0.offset + 1, ms: $0.element * 1000)
    }
    return JSONLine.stats(
      frames: workTimes.count, busyFrames: busyFrames, fps: fps, p50: ms(0.5), p99: ms(0.99), worst: Array(worst))
  }
}
