import CoreMath
import Panorama
import Testing

/// The cube-face source: against an exact answer (a colour that is a known function of the
/// direction), across edges and corners, and against the equirectangular view it was cut from.
@Suite("Cube map")
struct CubeMapTests {
  /// A smooth colour per direction: what an exact renderer shows there.
  static func colour(_ x: Double, _ y: Double, _ z: Double) -> UInt32 {
    let n = (x * x + y * y + z * z).squareRoot()
    func c(_ v: Double) -> UInt32 { UInt32((127.5 + 127.5 * v / n).rounded()) }
    return 0xFF00_0000 | c(z) << 16 | c(y) << 8 | c(x)
  }

  static func analyticCube(size: Int) -> CubeMap {
    let faces = (0..<6).map { face in
      var image = RGBAImage(width: size, height: size)
      for y in 0..<size {
        for x in 0..<size {
          let d = CubeFace.direction(face: face, u: (Double(x) + 0.5) / Double(size), v: (Double(y) + 0.5) / Double(size))
          image[x, y] = colour(d.x, d.y, d.z)
        }
      }
      return image
    }
    return CubeMap(faces: faces)!
  }

  /// Largest channel difference between two pixels.
  static func difference(_ a: UInt32, _ b: UInt32) -> Int {
    (0..<4).map { abs(Int((a >> UInt32(8 * $0)) & 0xFF) - Int((b >> UInt32(8 * $0)) & 0xFF)) }.max()!
  }

  @Test func edgesAndCornersAreAsExactAsTheMiddle() {
    let cube = Self.analyticCube(size: 16)
    // Straight at an edge (front|right), at a corner (front|right|up), at the middle.
    let views = [
      ("middle", ViewAngles(yaw: 0.1, pitch: 0.05)), ("edge", ViewAngles(yaw: Elementary.halfPi / 2)),
      ("corner", ViewAngles(yaw: Elementary.halfPi / 2, pitch: 0.6155)), ("down", ViewAngles(yaw: 2, pitch: -1.4)),
    ]
    for (name, view) in views {
      for lens in Lens.allCases {
        var frame = RGBAImage(width: 96, height: 64)
        cube.render(view: view, hfov: 1.4, lens: lens, into: &frame, executor: InlineRows())
        // The exact answer: the colour of each pixel's own ray.
        var worst = 0
        let focal = lens.focalLength(halfWidth: 48, fieldOfView: 1.4)
        let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
        for j in 0..<64 {
          for i in 0..<96 {
            let r = lens.ray(x: (Double(i) + 0.5 - 48) / focal, y: (32 - Double(j) - 0.5) / focal)
            let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
            let exact = Self.colour(r.x * cy + z1 * sy, y1, z1 * cy - r.x * sy)
            worst = max(worst, Self.difference(frame[i, j], exact))
          }
        }
        // 16-pixel faces, so a texel spans about 16 levels: bilinear stays within 2 everywhere;
        // clamping at the edges instead of reading the neighbour face is off by 3–4 there.
        #expect(worst <= 2, "\(name) \(lens): \(worst)")
      }
    }
  }

  @Test func aCubeCutFromAnEquirectangularShowsTheSameViews() {
    let source = SamplePanorama.make(width: 2048)
    var renderer = PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    let cube = CubeMap.faces(from: &renderer, size: 512, executor: InlineRows())
    for view in [ViewAngles(yaw: 0.3, pitch: 0.2), ViewAngles(yaw: 2.4, pitch: -0.5), ViewAngles(yaw: -1, pitch: 1.2)] {
      var a = RGBAImage(width: 160, height: 90), b = RGBAImage(width: 160, height: 90)
      renderer.renderPerspective(view: view, hfov: 1.2, into: &a, executor: InlineRows())
      cube.render(view: view, hfov: 1.2, into: &b, executor: InlineRows())
      let psnr = a.psnr(against: b)
      #expect(psnr > 30, "\(view): \(psnr) dB")
    }
  }

  @Test func wrongFacesAreRefused() {
    #expect(CubeMap(faces: []) == nil)
    let square = RGBAImage(width: 8, height: 8), other = RGBAImage(width: 8, height: 4)
    #expect(CubeMap(faces: Array(repeating: square, count: 5)) == nil)
    #expect(CubeMap(faces: Array(repeating: square, count: 5) + [other]) == nil)
  }
}
