import CoreMath
import Panorama
import Stage
import StageJSON

// A viewer config's tour in the Panorama tab (the app's `--config`): the same `ViewerTour` as
// the web viewer decides the camera, where hotspots are and where a link leads; `Studio`
// draws the hotspots over the picture and turns a click on one into the scene change.

extension Studio {
  /// Shows `tour` in the Panorama tab; its first scene's image comes next (`openTourScene`).
  public mutating func setTour(_ tour: ViewerTour) { self.tour = tour }

  /// The tour's scene image is decoded (`width`×`height`, with its GPano): its camera is set
  /// from the scene's settings. Returns the geometry the host's renderer must use (the
  /// config's `haov`/`vaov`/`vOffset` win over the file's).
  public mutating func openTourScene(width: Int, height: Int, gpano: GPano?, name: String) -> PanoramaGeometry? {
    guard var tour else { return nil }
    tour.layout(width: contentFrame.size.width, height: contentFrame.size.height)
    tour.open(width: width, height: height, gpano: gpano, name: name)
    guard var scene = tour.panorama else { return nil }
    scene.layout(in: contentFrame)
    if let previous = panorama { scene.inheritGeneration(from: previous) }
    panorama = scene
    self.tour = tour
    return scene.viewer.geometry
  }

  /// Radius (points) of a hotspot's marker, and how far from it a click still hits it.
  static let hotSpotRadius = 13.0

  /// The shown scene's hotspots in viewport points, with their names.
  public var tourHotSpots: [(index: Int, name: String, at: StagePoint?)] {
    guard let tour, let panorama else { return [] }
    let origin = panorama.frame.origin
    return tour.placements(for: panorama.viewer).map { p in
      (p.index, tour.name(ofHotSpot: p.index), p.at.map { StagePoint(x: $0.x + origin.x, y: $0.y + origin.y) })
    }
  }

  /// A press and release on the panorama at nearly one place: on a hotspot, it is followed
  /// (a scene link) or said (an info hotspot).
  mutating func tourClick(_ phase: PointerPhase, id: Int, at p: StagePoint) -> [SceneEvent] {
    guard tour != nil, let panorama else { return [] }
    switch phase {
    case .down:
      tourPress = (id, p)
      return []
    case .up:
      guard let press = tourPress, press.id == id, press.at.distance(to: p) < 6 else { return [] }
      tourPress = nil
      guard
        let hit = tourHotSpots.filter({ $0.at.map { $0.distance(to: p) <= Self.hotSpotRadius + 5 } ?? false }).first
      else { return [] }
      tour!.adopt(viewer: panorama.viewer)
      let spot = tour!.scene.hotSpots[hit.index]
      if tour!.follow(hotSpot: hit.index) != nil {
        return [
          .announce(Announcement("\(hit.name): going to \(tour!.settings[text: .title] ?? tour!.sceneID).")),
          .request(.loadTourScene),
        ]
      }
      let text = [spot.text, spot.url].compactMap { $0 }.joined(separator: " · ")
      return text.isEmpty ? [] : [.announce(Announcement(text))]
    default:
      tourPress = nil
      return []
    }
  }

  /// Draws the hotspots: a marker (green for a scene link, blue for information) and its name.
  func drawTourHotSpots(into list: inout DisplayList) {
    guard let tour else { return }
    let r = Self.hotSpotRadius
    for spot in tourHotSpots {
      guard let at = spot.at else { continue }
      let isLink = tour.scene.hotSpots[spot.index].kind == .scene
      let marker = StageRect(x: at.x - r, y: at.y - r, width: 2 * r, height: 2 * r)
      list.fill(marker, isLink ? RGBA(20, 150, 80, 235) : RGBA(30, 110, 255, 220), radius: r)
      list.outline(marker, Palette.white, width: 2, radius: r)
      list.text(isLink ? "→" : "i", at.x, at.y - 9, size: 15, color: Palette.white, align: .center)
      let width = min(TextLayout.width(spot.name, size: 13) + 12, 240)
      let label = StageRect(x: at.x - width / 2, y: at.y + r + 4, width: width, height: 20)
      list.fill(label, RGBA(0, 0, 0, 170), radius: 4)
      list.text(spot.name, at.x, label.minY + 3, size: 13, color: Palette.white, align: .center, maxWidth: width - 8)
    }
  }
}
