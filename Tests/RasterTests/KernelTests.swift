import CoreMath
import Panorama
import Raster
import Testing

@Suite("Per-CPU kernels")
struct KernelTests {
  /// Random views, lenses, sizes, mip levels and polar caps through the Swift loop and every kernel this
  /// machine has: the pixels must be identical.
  @Test func everyKernelDrawsTheSwiftPixels() {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    let source = SamplePanorama.make(width: 1024)
    let plain = PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    var mipped = plain
    mipped.buildMipLevels(executor: InlineRows())
    var capped = mipped
    capped.buildPolarCaps(executor: InlineRows())
    print("kernels on this machine:", BlendKernels.available.map(\.name), "chosen:", BlendKernels.chosen()?.name ?? "swift")
    for kernel in BlendKernels.available {
      for trial in 0..<24 {
        let lens = Lens.allCases[trial % Lens.allCases.count]
        let view = ViewAngles(yaw: (random() - 0.5) * 20, pitch: (random() - 0.5) * 3.1, roll: (random() - 0.5) * 0.6)
        let hfov = 0.3 + random() * (min(lens.maximumFieldOfView, 5) - 0.3)
        let width = 37 + Int(random() * 300), height = 29 + Int(random() * 200)
        for base in [plain, mipped, capped] {
          var swift = base, fast = base
          fast.groupKernel = kernel
          var a = RGBAImage(width: width, height: height), b = a
          swift.renderPerspective(view: view, hfov: hfov, lens: lens, into: &a, executor: InlineRows())
          fast.renderPerspective(view: view, hfov: hfov, lens: lens, into: &b, executor: InlineRows())
          let differing = zip(a.pixels, b.pixels).filter { $0 != $1 }.count
          #expect(differing == 0, "\(kernel.name): \(differing) pixels differ, \(lens) \(view) hfov \(hfov) \(width)×\(height)")
        }
      }
    }
  }
}
