import CoreMath

/// The One Euro filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass filter whose cutoff
/// rises with speed, so a still device's jitter is smoothed away while a fast turn lags
/// little. Matches the reference implementation (casiez/OneEuroFilter) to the precision of
/// its published data (`Tests/PanoramaTests`).
public struct OneEuroFilter: Sendable {
  /// Cutoff at rest, Hz: lower smooths more.
  public var minCutoff: Double
  /// How fast the cutoff rises with speed: higher lags less in fast motion.
  public var beta: Double
  /// Cutoff for the derivative, Hz.
  public var derivativeCutoff: Double

  private var lastTime: Double?
  private var lastValue = 0.0
  private var lastDerivative = 0.0

  /// Defaults suited to head-tracking at 60–200 Hz, in radians.
  public init(minCutoff: Double = 1.0, beta: Double = 0.5, derivativeCutoff: Double = 1.0) {
    self.minCutoff = minCutoff
    self.beta = beta
    self.derivativeCutoff = derivativeCutoff
  }

  static func alpha(cutoff: Double, period: Double) -> Double {
    let tau = 1 / (Elementary.twoPi * cutoff)
    return 1 / (1 + tau / period)
  }

  /// Filters `x` sampled at time `t` seconds. A sample not later than the previous one is
  /// returned unfiltered and does not change the state.
  public mutating func filter(_ x: Double, at t: Double) -> Double {
    guard let previous = lastTime else {
      lastTime = t
      lastValue = x
      lastDerivative = 0
      return x
    }
    let period = t - previous
    guard period > 0 else { return lastValue }
    // As the reference: speed from the new sample against the previous *filtered* value.
    let dx = (x - lastValue) / period
    let ad = Self.alpha(cutoff: derivativeCutoff, period: period)
    let edx = ad * dx + (1 - ad) * lastDerivative
    let cutoff = minCutoff + beta * abs(edx)
    let a = Self.alpha(cutoff: cutoff, period: period)
    let filtered = a * x + (1 - a) * lastValue
    lastTime = t
    lastValue = filtered
    lastDerivative = edx
    return filtered
  }

  /// Forgets the history (after a recentre or a jump the user asked for).
  public mutating func reset() { lastTime = nil }
}
