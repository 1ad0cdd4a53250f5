import CoreMath
import Panorama
import TestSupport
import Testing

/// The tile rules every host shares: which tiles a view needs, centre first; what covers a
/// missing one; retries; the memory budget.
@Suite("Tile schedule")
struct TileScheduleTests {
  /// Pannellum's example pyramid: 2048 px faces, 256 px tiles, 4 levels (1, 2, 4, 8 tiles a side).
  let layout = MultiresLayout(cubeResolution: 2048, tileResolution: 256, maxLevel: 4)!

  @Test func faceCoordinatesRoundTrip() {
    var rng = SeededRandom(seed: 7)
    func random() -> Double { Double.random(in: 0..<1, using: &rng) }
    for _ in 0..<2000 {
      let face = Int(random() * 6), u = random(), v = random()
      let d = CubeFace.direction(face: face, u: u, v: v)
      let back = CubeFace.locate(x: d.x * 3, y: d.y * 3, z: d.z * 3)
      #expect(back.face == face || abs(u - 0.5) > 0.4999 || abs(v - 0.5) > 0.4999)
      if back.face == face { #expect(abs(back.u - u) < 1e-12 && abs(back.v - v) < 1e-12) }
    }
    // The seams meet: the front's top edge is the up face's bottom edge, its right edge the
    // right face's left edge.
    #expect(CubeFace.direction(face: 0, u: 0.3, v: 0) == CubeFace.direction(face: 4, u: 0.3, v: 1))
    #expect(CubeFace.direction(face: 0, u: 1, v: 0.6) == CubeFace.direction(face: 1, u: 0, v: 0.6))
    #expect(CubeFace.direction(face: 0, u: 0.3, v: 1) == CubeFace.direction(face: 5, u: 0.3, v: 0))
  }

  @Test func aForwardViewSeesTheFrontCentreFirstAndLookingUpTheUpFace() {
    let schedule = TileSchedule(layout: layout)
    let forward = schedule.visible(view: ViewAngles(), hfov: 1.2, width: 1024, height: 576, level: 4)
    // 8 tiles a side: the centre of the front face is where four tiles meet (3|4, 3|4).
    #expect(forward.first?.face == 0 && [3, 4].contains(forward.first!.x) && [3, 4].contains(forward.first!.y))
    #expect(forward.allSatisfy { $0.face == 0 })  // 69° across stays on the front face
    let up = schedule.visible(view: ViewAngles(pitch: Elementary.halfPi), hfov: 1.2, width: 800, height: 800, level: 2)
    #expect(up.first?.face == 4)
    let right = schedule.visible(view: ViewAngles(yaw: Elementary.halfPi), hfov: 0.5, width: 400, height: 300, level: 1)
    #expect(right == [TileID(level: 1, face: 1, x: 0, y: 0)])
    // A wide view sees across the seams: front, right, left, up and down at 170° (little planet).
    let wide = schedule.visible(
      view: ViewAngles(pitch: -1.2), hfov: 5, lens: .stereographic, width: 800, height: 800, level: 1)
    #expect(Set(wide.map(\.face)).isSuperset(of: [0, 1, 3, 5]))
  }

  @Test func theBaseComesFirstThenTheCentreAndNothingIsEverAHole() {
    var schedule = TileSchedule(layout: layout)
    schedule.maxInFlight = 100
    let view = ViewAngles(yaw: 0.4, pitch: 0.2)
    var plan = schedule.plan(view: view, hfov: 1.0, width: 1280, height: 720)
    let level = plan.level
    #expect(level == 4)
    #expect(Array(plan.fetch.prefix(6)) == schedule.baseTiles)
    #expect(plan.fetch.dropFirst(6).first?.level == 4)
    #expect(plan.draw.isEmpty)  // nothing loaded yet
    for t in schedule.baseTiles { schedule.loaded(t) }
    plan = schedule.plan(view: view, hfov: 1.0, width: 1280, height: 720)
    // Every tile the view sees is drawn from the base until its own arrives.
    #expect(plan.draw.allSatisfy { $0.level == 1 } && !plan.draw.isEmpty)
    #expect(plan.fetch.isEmpty)  // all the view's tiles are in flight already
    let first = schedule.visible(view: view, hfov: 1.0, width: 1280, height: 720, level: 4)[0]
    schedule.loaded(first)
    plan = schedule.plan(view: view, hfov: 1.0, width: 1280, height: 720)
    #expect(plan.draw.last == first)  // drawn last, over its cover
    // Random views and random loads: whatever the view sees has a cover.
    var rng = SeededRandom(seed: 1)
    func random() -> Double { Double.random(in: 0..<1, using: &rng) }
    for _ in 0..<60 {
      let v = ViewAngles(yaw: random() * 6.3, pitch: (random() - 0.5) * 3.1)
      let p = schedule.plan(view: v, hfov: 0.2 + random() * 1.8, width: 960, height: 540)
      for t in p.fetch where random() < 0.5 { schedule.loaded(t) }
      for t in schedule.visible(view: v, hfov: 1, width: 960, height: 540, level: p.level) {
        #expect(schedule.cover(t) != nil)
      }
    }
  }

  /// Every tile any pixel of the view shows is found, slivers at the view's edges included
  /// (rays a quarter tile apart missed one at the top corners: it showed black), and the
  /// whole coarsest level is drawn under the rest. Found by casting rays, 10 of these views
  /// missed a tile, shown as a low-detail patch: by an edge (pixel (0, 205) of view 4, rays 4
  /// px apart there) and inside, by a cube corner seen from a phone (pixel (200, 472) of view 3).
  @Test func everyTileAPixelShowsIsSeenAndTheBaseIsUnderEverything() throws {
    let layout = try #require(MultiresLayout(cubeResolution: 1024, tileResolution: 256, maxLevel: 3))
    var schedule = TileSchedule(layout: layout)
    schedule.maxInFlight = 1000
    var rng = SeededRandom(seed: 7)
    func random() -> Double { Double.random(in: 0..<1, using: &rng) }
    // A desktop view and a phone held upright.
    let sizes = [(640, 480), (390, 844)]
    views: for k in 0..<200 {
      let (w, h) = sizes[k % 2]
      let view = k == 0 ? ViewAngles(yaw: 0.785, pitch: 0.349) : ViewAngles(yaw: random() * 6.3, pitch: (random() - 0.5) * 3.1)
      let hfov = k == 0 ? Elementary.halfPi : 0.3 + random() * 1.5
      let seen = Set(schedule.visible(view: view, hfov: hfov, width: w, height: h, level: 3))
      let focal = Lens.rectilinear.focalLength(halfWidth: Double(w) / 2, fieldOfView: hfov)
      let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
      // Every pixel of the rim (where slivers are), every fourth one each way inside.
      for j in 0..<h {
        let columns =
          j == 0 || j == h - 1 ? Array(0..<w) : j % 4 == 0 ? Array(stride(from: 0, to: w, by: 4)) + [w - 1] : [0, w - 1]
        for i in columns {
          let r = Lens.rectilinear.ray(x: (Double(i) + 0.5 - Double(w) / 2) / focal, y: (Double(h) / 2 - Double(j) - 0.5) / focal)
          let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
          let (face, u, v) = CubeFace.locate(x: r.x * cy + z1 * sy, y: y1, z: z1 * cy - r.x * sy)
          let t = schedule.tile(level: 3, face: face, u: u, v: v)
          if !seen.contains(t) {
            Issue.record("view \(k) (\(w)×\(h)): pixel \(i),\(j) shows \(t), not among the \(seen.count) seen")
            continue views
          }
        }
      }
    }
    for t in schedule.baseTiles { schedule.loaded(t) }
    let plan = schedule.plan(view: ViewAngles(), hfov: 1, width: 640, height: 480)
    #expect(Set(plan.draw) == Set(schedule.baseTiles), "the whole base, drawn first")
  }

  /// A tile handed to a GPU is cut short of the camera's plane, exactly: a face in front
  /// stays its four corners, one half behind the camera becomes the part in front, one
  /// behind is nothing; a cut point keeps the texture coordinate of where it is on the face.
  @Test func tilesAreCutShortOfTheCameraPlane() {
    let front = (0..<4).map { k in CubeFace.direction(face: 0, u: Double(k % 2), v: Double(k / 2)) }
    let ahead = CameraParameters(width: 640, height: 480, view: ViewAngles(), hfov: 1.5, lens: .rectilinear)
    let whole = ahead.cameraPolygon(corners: front)
    #expect(whole.count == 4 && whole.allSatisfy { abs($0.z - 1) < 1e-12 })
    #expect(whole.map { [$0.u, $0.v] } == [[0, 0], [1, 0], [1, 1], [0, 1]])
    let behind = CameraParameters(width: 640, height: 480, view: ViewAngles(yaw: Double.pi), hfov: 1.5, lens: .rectilinear)
    #expect(behind.cameraPolygon(corners: front).isEmpty)
    // Turned 45°: the front face's left edge lies in the camera's plane (what broke).
    let edge = CameraParameters(width: 640, height: 480, view: ViewAngles(yaw: Double.pi / 4), hfov: 1.5, lens: .rectilinear)
    let cut = edge.cameraPolygon(corners: front, near: 0.05)
    #expect(cut.count == 4 && cut.allSatisfy { $0.z >= 0.05 - 1e-12 })
    for p in cut {
      // The point is where its texture coordinate says on the face: same direction.
      let d = CubeFace.direction(face: 0, u: p.u, v: p.v)
      let n = (p.x * p.x + p.y * p.y + p.z * p.z).squareRoot(), m = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
      let (s, c) = Elementary.sinCos(Double.pi / 4)
      let expected = (x: (d.x * c - d.z * s) / m, z: (d.x * s + d.z * c) / m)
      #expect(abs(p.x / n - expected.x) < 1e-9 && abs(p.z / n - expected.z) < 1e-9)
    }
  }

  @Test func aFailingTileIsRetriedThenLeftToItsCover() {
    var schedule = TileSchedule(layout: layout)
    schedule.maxInFlight = 100
    _ = schedule.plan(view: ViewAngles(), hfov: 1, width: 1280, height: 720)
    for t in schedule.baseTiles { schedule.loaded(t) }
    let bad = schedule.visible(view: ViewAngles(), hfov: 1, width: 1280, height: 720, level: 4)[0]
    var retried = schedule.failed(bad)
    #expect(retried)  // first failure: tried again
    var next = schedule.plan(view: ViewAngles(), hfov: 1, width: 1280, height: 720)
    #expect(next.fetch.contains(bad))
    retried = schedule.failed(bad)
    #expect(retried)
    next = schedule.plan(view: ViewAngles(), hfov: 1, width: 1280, height: 720)
    #expect(next.fetch.contains(bad))
    retried = schedule.failed(bad)
    #expect(!retried)  // third: given up
    let plan = schedule.plan(view: ViewAngles(), hfov: 1, width: 1280, height: 720)
    #expect(!plan.fetch.contains(bad))
    #expect(schedule.cover(bad)?.level == 1 && plan.draw.contains(schedule.cover(bad)!))
  }

  @Test func theBudgetDropsTheLeastRecentlyNeededButNeverTheBaseOrTheView() {
    var schedule = TileSchedule(layout: layout, budget: 40)
    schedule.maxInFlight = 1000
    for yawStep in 0..<12 {
      let view = ViewAngles(yaw: Double(yawStep) * 0.5)
      let plan = schedule.plan(view: view, hfov: 1, width: 1280, height: 720)
      for t in plan.fetch { schedule.loaded(t) }
      let after = schedule.plan(view: view, hfov: 1, width: 1280, height: 720)
      #expect(schedule.resident.count <= max(40, 6 + after.draw.count))
      #expect(schedule.baseTiles.allSatisfy { schedule.resident[$0] != nil })
      #expect(after.draw.allSatisfy { schedule.resident[$0] != nil })
      #expect(after.evict.allSatisfy { $0.level > 1 })
    }
  }
}
