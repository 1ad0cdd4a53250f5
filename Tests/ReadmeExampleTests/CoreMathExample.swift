import CMacTypes
import CoreMath
import Testing

/// Sources/CoreMath/README.md's example, run.
@Suite struct CoreMathExample {
  @Test func elementaryFunctionsAndAnglesGiveWhatTheCommentsSay() {
    // README Sources/CoreMath/README.md
    let (s, c) = Elementary.sinCos(0.5)  // sin 0.5, cos 0.5
    let heading = Elementary.atan2(1, -1)  // 3π/4
    let value = DecimalText.parse("-12.5e-3")  // -0.0125
    let degrees = Angle(radians: heading).degrees  // 135
    // END README
    #expect(abs(s - 0.479_425_538_604_203) < 1e-15 && abs(c - 0.877_582_561_890_372_8) < 1e-15)
    #expect(abs(heading - 3 * Elementary.pi / 4) < 1e-15)
    #expect(value == -0.0125)
    #expect(abs(degrees - 135) < 1e-12)
  }
}
