import CoreMath
import Panorama
import TestSupport
import Testing

@testable import Raster

@Suite("Video renderer kernels")
struct YUVKernelTests {
  /// Random views, lenses, sizes and poses through the portable Swift loop and every C
  /// kernel this machine has, from packed planes and from one eye of a wider frame (strides
  /// larger than the width): the 4:2:0 bytes must be identical.
  @Test func everyKernelDrawsTheSwiftBytes() {
    var rng = SeededRandom(seed: 0x2545_F491_4F6C_DD1D)
    func random() -> Double { Double.random(in: 0..<1, using: &rng) }
    let packed = YUVImage(try! SamplePanorama.make(width: 1024))
    // One eye cut from a larger frame: strides of 2048 luma, 1024 chroma.
    let pair = YUVImage(try! SamplePanorama.make(width: 2048))
    print("video kernels on this machine:", YUVKernels.available.map(\.name), "chosen:", YUVKernels.chosen()?.name ?? "swift")
    for kernel in YUVKernels.available {
      for trial in 0..<10 {
        let lens = trial % 4 == 3 ? Lens.stereographic : .rectilinear
        let view = ViewAngles(yaw: (random() - 0.5) * 20, pitch: (random() - 0.5) * 3.1, roll: (random() - 0.5) * 0.6)
        let hfov = 0.3 + random() * (min(lens.maximumFieldOfView, 3) - 0.3)
        let width = 2 * (20 + Int(random() * 200)), height = 2 * (16 + Int(random() * 120))
        var video = SphericalVideo(source: "test")
        if trial % 5 == 4 { video.pose = ViewAngles(yaw: 0.3, pitch: 0.2, roll: 0.1) }
        for (source, eyeWidth) in [(packed, 1024), (pair, 1024)] {
          var swift = try! YUVRenderer(width: eyeWidth, height: 512, video: video), fast = swift
          fast.kernel = kernel
          var a = YUVImage(width: width, height: height), b = a
          source.withPlanes { whole in
            let planes = try! whole.cropped(width: eyeWidth, height: 512)
            try! swift.render(view: view, hfov: hfov, lens: lens, from: planes, into: &a, executor: InlineRows())
            try! fast.render(view: view, hfov: hfov, lens: lens, from: planes, into: &b, executor: InlineRows())
          }
          let differing = zip(a.bytes, b.bytes).filter { $0 != $1 }.count
          #expect(
            differing == 0,
            "\(kernel.name): \(differing) bytes differ, \(lens) \(view) hfov \(hfov) \(width)×\(height), stride \(source.width)")
        }
      }
    }
  }

  /// Magnified views (where the AVX2 kernel reads 16-byte windows of three rows instead of
  /// gathering) all round the seam and next to the poles, so that windows come to the
  /// planes' right edges and last rows (a window never reads past its row's stride: it
  /// gathers there), and slightly reduced ones (windows and gathers mixed within a pair).
  @Test func windowsAtThePlanesEdgesDrawTheSwiftBytes() {
    let packed = YUVImage(try! SamplePanorama.make(width: 1024))
    let pair = YUVImage(try! SamplePanorama.make(width: 2048))
    for kernel in YUVKernels.available {
      var differing = 0, views = 0
      for step in 0..<12 {
        for pitch in [-1.45, 0, 1.45] {
          for hfov in [0.12, 1.2] {
            let view = ViewAngles(yaw: Double(step) * 0.5236 + 0.01, pitch: pitch, roll: 0)
            for (source, eyeWidth) in [(packed, 1024), (pair, 1024)] {
              var swift = try! YUVRenderer(width: eyeWidth, height: 512, video: SphericalVideo(source: "test")), fast = swift
              fast.kernel = kernel
              var a = YUVImage(width: 160, height: 96), b = a
              source.withPlanes { whole in
                let planes = try! whole.cropped(width: eyeWidth, height: 512)
                try! swift.render(view: view, hfov: hfov, lens: .rectilinear, from: planes, into: &a, executor: InlineRows())
                try! fast.render(view: view, hfov: hfov, lens: .rectilinear, from: planes, into: &b, executor: InlineRows())
              }
              differing += zip(a.bytes, b.bytes).filter { $0 != $1 }.count
              views += 1
            }
          }
        }
      }
      #expect(differing == 0, "\(kernel.name): \(differing) bytes differ over \(views) views")
    }
  }
}
