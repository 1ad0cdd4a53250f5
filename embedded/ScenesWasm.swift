import Panorama
import Scenes
import Stage

/// Exports that run the scene layer under Embedded Swift (wasm32): the same Studio the
/// desktop app drives, with host-neutral input.

/// Drags the Locations photo to `dx` points right of slot 1's centre in a 1024×720 viewport
/// and returns the slot it ends on (-1: none).
@_cdecl("scenes_drop_beside_slot1")
public func scenesDropBesideSlot1(_ dx: Double) -> Int32 {
  var studio = Studio()
  _ = studio.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
  let board = studio.locations.engine.board
  let from = board.items[0].center
  let to = StagePoint(x: board.slots[1].frame.center.x + dx, y: board.slots[1].frame.center.y)
  _ = studio.handle(.pointer(.down, id: 0, kind: .touch, at: from), at: 0)
  _ = studio.handle(.pointer(.move, id: 0, kind: .touch, at: to), at: 0.1)
  _ = studio.handle(.pointer(.up, id: 0, kind: .touch, at: to), at: 0.2)
  studio.advance(to: 1)
  return Int32(studio.locations.engine.board.items[0].slot ?? -1)
}

/// The field of view (degrees) after a scroll of (`dx`, `dy`) lines in the panorama viewer.
@_cdecl("scenes_hfov_after_wheel")
public func scenesHfovAfterWheel(_ dx: Double, _ dy: Double) -> Double {
  var viewer = PanoramaViewer(geometry: PanoramaGeometry(width: 4096, height: 2048))
  viewer.resize(width: 800, height: 500)
  viewer.wheel(dx: dx, dy: dy, precise: false)
  return viewer.hfov * 180 / 3.141592653589793
}
