import CMacTypes
import Panorama
import Testing

/// Sources/Panorama/README.md's example, run.
@Suite struct PanoramaExample {
  @Test func aPhoneHeldUprightLooksAtTheHorizonAndTheViewIsDrawn() throws {
    // README Sources/Panorama/README.md
    var tracker = MotionTracker()
    // A phone held upright, facing north (W3C deviceorientation angles, in degrees).
    let view = tracker.feed(.attitude(t: 0, .deviceOrientation(alpha: 0, beta: 90, gamma: 0, screenAngle: 0)))
    let sample = try SamplePanorama.make(width: 1024)
    var renderer = try PanoramaRenderer(source: sample, geometry: PanoramaGeometry(width: 1024, height: 512))
    renderer.buildMipLevels(executor: InlineRows())  // optional: a view that zooms out builds them itself
    renderer.buildPolarCaps(executor: InlineRows())  // optional: looking up or down as fast as level
    var frame = RGBAImage(width: 320, height: 180)
    let hfov = ViewAngles.radians(fromDegrees: 90)  // angles are radians; this converts
    renderer.renderPerspective(
      view: view ?? ViewAngles(), hfov: hfov, lens: .stereographic, into: &frame, executor: InlineRows())
    // view: pitch 0 (the horizon), and frame holds the sample's view north
    // END README
    let angles = try #require(view)
    #expect(abs(angles.pitch) < 1e-9)
    #expect(renderer.polarCaps != nil)
    #expect(Set(frame.pixels).count > 100, "a drawn view, not one colour")
  }
}
