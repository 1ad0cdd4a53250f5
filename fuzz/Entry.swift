import Panorama
import Raster
import StageFiles

/// libFuzzer's entry point. The first byte picks what reads the rest: JSON, a scenario
/// (decoded, then run through the engine), a motion log, or an image (with limits small
/// enough that a claimed size cannot exhaust the fuzzer's memory). Every input must end in a
/// value or a thrown error, never a crash.
nonisolated(unsafe) var renderer = PanoramaRenderer(
  source: SamplePanorama.make(width: 64), geometry: PanoramaGeometry(width: 64, height: 32))
nonisolated(unsafe) var frame = RGBAImage(width: 16, height: 8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let rest = Array(bytes.dropFirst())
  switch (bytes.first ?? 0) % 4 {
  case 0: _ = try? JSONParser.parse(rest)
  case 1:
    // Run with frames when the last byte is odd (60 Hz, as `board run --frames 60`), under a
    // guard like the CLI's (which allows a million frames; 10 000 keeps units fast).
    if let scenario = try? Scenario.decode(rest) {
      let frameRate: Double? = (bytes.last ?? 0) & 1 == 1 ? 60 : nil
      if frameRate == nil || (scenario.events.last?.t ?? 0) * 60 <= 10_000 {
        _ = ScenarioRunner(scenario: scenario, frameRate: frameRate).run { _ in }
      }
    }
  case 2:
    // A motion log through the tracker into both cameras, as `pano video` does.
    guard let log = try? MotionLog.parse(rest, maxRows: 200) else { break }
    var tracker = MotionTracker(smoothing: rest.count & 1 == 0)
    for sample in log.samples {
      guard let view = tracker.feed(sample) else { continue }
      renderer.renderPerspective(view: view, hfov: view.roll, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: view.yaw, edges: .repeat, into: &frame, executor: InlineRows())
    }
  default: _ = try? Raster.decode(rest, limits: ImageLimits(maxDimension: 4096, maxPixels: 1 << 22))
  }
  return 0
}
