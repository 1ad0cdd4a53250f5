import Panorama
import Scenes
import Stage
import StageJSON

/// The fuzz readers that need only the pure-Swift layers (no codecs, no threads): JSON, a
/// scenario run through the engine, a saved state applied to a board, a saved state
/// restored into the scene layer, and a viewer config. libFuzzer runs them natively (fuzz/Entry.swift); the
/// Embedded wasm build replays the corpus through the same code under node
/// (embedded/replay.mjs), where `Int` is 32 bits and a trap the 64-bit build never hits
/// shows. Every input must end in a value or a thrown error, never a trap.
enum PortableReaders {
  /// What the first byte of an input picks (`selector % count`), shared with Entry.swift.
  static let count: UInt8 = 12
  static let json: UInt8 = 0, scenario: UInt8 = 1, state: UInt8 = 4, restore: UInt8 = 6, viewerConfig: UInt8 = 7
  static let pageBoard: UInt8 = 8, sphericalV1: UInt8 = 9, sphericalMP4: UInt8 = 10, sphericalTag: UInt8 = 11

  /// Runs the reader `selector` picks over `rest`; false when it is not one of these.
  static func run(_ selector: UInt8, _ rest: [UInt8], runFrames: Bool) -> Bool {
    switch selector % count {
    case json: _ = try? JSONParser.parse(rest)
    case scenario:
      // With frames (60 Hz, as `board run --frames 60`) under a guard like the CLI's, which
      // allows a million frames; 10 000 keeps units fast.
      if let scenario = try? Scenario.decode(rest) {
        let frameRate: Double? = runFrames ? 60 : nil
        if frameRate == nil || (scenario.events.last?.t ?? 0) * 60 <= 10_000 {
          _ = try? ScenarioRunner(scenario: scenario, frameRate: frameRate).run { _ in }
        }
      }
    case state: savedState(rest)
    case restore: restoreIntoStudio(rest)
    case viewerConfig: viewerTour(rest)
    case pageBoard: pageBoardDrag(rest)
    case sphericalV1: sphericalXML(rest)
    case sphericalMP4: sphericalBoxes(rest, knownSize: runFrames)
    case sphericalTag: retagBoxes(rest, faststart: runFrames)
    default: return false
    }
    return true
  }

  /// Spherical Video V1 XML, then the geometry and eye it gives for a frame whose size comes
  /// from the input's length, drawn from planes (as `pano reframe` draws a clip).
  static func sphericalXML(_ bytes: [UInt8]) {
    guard let video = try? SphericalVideo.parseV1(bytes) else { return }
    let width = 16 + 2 * (bytes.count % 16), height = 8 + 2 * (bytes.count % 8)
    let eye = video.eye(width: width, height: height)
    guard eye.width >= 2, eye.height >= 2, eye.width % 2 == 0, eye.height % 2 == 0 else { return }
    let planes = YUVImage(width: width, height: height)
    guard var renderer = try? YUVRenderer(width: eye.width, height: eye.height, video: video) else { return }
    var out = YUVImage(width: 8, height: 6)
    planes.withPlanes { p in
      guard let eyePlanes = try? p.cropped(width: eye.width, height: eye.height) else { return }
      try? renderer.render(view: video.initialView, hfov: 1.5, from: eyePlanes, into: &out, executor: InlineRows())
    }
  }

  /// An MP4's boxes through `MP4SphericalReader`, every range it asks for served from the
  /// input (as the web viewer serves it from `Range:` requests), then the eye and geometry
  /// of what it found. It must finish within its own read budget.
  static func sphericalBoxes(_ bytes: [UInt8], knownSize: Bool) {
    var reader = MP4SphericalReader(fileSize: knownSize ? Int64(bytes.count) : nil)
    for _ in 0..<70 {
      switch reader.next {
      case .need(let offset, let count):
        precondition(offset >= 0 && count >= 0 && count <= MP4SphericalReader.maxMoov, "a bad read")
        let start = offset < Int64(bytes.count) ? Int(offset) : bytes.count
        reader.feed(Array(bytes[start..<(start + min(count, bytes.count - start))]))
      case .done(let video, let reason):
        precondition(video != nil || !reason.isEmpty, "no video and no reason")
        guard let video else { return }
        let eye = video.eye(width: 64, height: 32)
        _ = video.geometry(eyeWidth: eye.width, eyeHeight: eye.height)
        return
      }
    }
    preconditionFailure("the reader asked for more than 66 reads")
  }

  /// An MP4 retagged as `pano tag` does it: `moov` found by `MP4SphericalReader`, rewritten
  /// by `MP4SphericalTagger` with a tag made from the input's length (its chunk offsets moved
  /// when `faststart`), then read back through the reader, which must find that tag.
  static func retagBoxes(_ bytes: [UInt8], faststart: Bool) {
    var reader = MP4SphericalReader(fileSize: Int64(bytes.count))
    for _ in 0..<70 {
      guard reader.moovBox == nil, case .need(let offset, let count) = reader.next else { break }
      let start = offset < Int64(bytes.count) ? Int(offset) : bytes.count
      reader.feed(Array(bytes[start..<(start + min(count, bytes.count - start))]))
    }
    guard let place = reader.moovBox, let size = place.size, size <= Int64(MP4SphericalReader.maxMoov),
      place.offset + size <= Int64(bytes.count)
    else { return }
    let start = Int(place.offset), end = start + Int(size)
    var tag = SphericalTag()
    tag.stereo = [.mono, .topBottom, .leftRight][bytes.count % 3]
    tag.yaw = Double(bytes.count % 361) - 180
    tag.cropTop = Double(bytes.count % 7) / 8
    guard let (moov, _) = try? MP4SphericalTagger.retag(moov: Array(bytes[start..<end]), tag: tag, shiftFrom: faststart ? end : 0)
    else { return }
    var check = MP4SphericalReader(fileSize: Int64(moov.count))
    for _ in 0..<70 {
      guard case .need(let offset, let count) = check.next else { break }
      let from = offset < Int64(moov.count) ? Int(offset) : moov.count
      check.feed(Array(moov[from..<(from + min(count, moov.count - from))]))
    }
    guard case .done(let video, let reason) = check.next else { preconditionFailure("the read-back did not finish") }
    precondition(video?.stereo == tag.stereo, "a retagged moov does not read back: \(reason)")
  }

  /// A viewer config (Pannellum's JSON) read, then toured as the viewer does it: every scene
  /// opened, its hotspots placed for every lens and followed, the keyboard and autorotate run,
  /// the limits set from its own values, written back as `getConfig` does.
  static func viewerTour(_ bytes: [UInt8]) {
    guard let config = try? ViewerConfig.parse(bytes, source: "fuzz") else { return }
    var tour = ViewerTour(config: config)
    tour.layout(width: 390, height: 844)
    for scene in config.scenes {
      _ = tour.loadScene(scene.id, yaw: scene.settings[number: .yaw], pitch: nil, hfov: scene.settings[number: .hfov])
      _ = tour.unsupported
      _ = tour.imageReference
      if tour.openTiles(budget: 64) != nil {
        // A tiled scene: plans as the page runs them, tiles arriving and failing.
        for frame in 0..<4 {
          guard let plan = tour.planTiles(width: 390, height: 844) else { break }
          for (k, t) in plan.fetch.enumerated() {
            _ = tour.tileReference(t)
            switch (k + frame) % 3 {
            case 0: _ = tour.tileFailed(t)
            case 1: tour.tileLoaded(t)
            // The CPU renderer's way, with pixels of any size (a wrong one is clamped).
            default: tour.tileLoaded(t, pixels: RGBAImage(width: 1 + k % 5, height: 1 + frame))
            }
          }
          var frame39 = RGBAImage(width: 39, height: 84)
          tour.renderTiles(into: &frame39, executor: InlineRows())
          tour.update { $0.zoom(by: 0.5) }
        }
      }
      tour.open(width: 4096, height: 2048, gpano: nil, name: "fuzz.jpg")
      for lens in Lens.allCases {
        tour.update { $0.setLens(lens) }
        _ = tour.placements(margin: 40)
        _ = tour.direction(at: StagePoint(x: 195, y: 422))
      }
      _ = tour.tabOrder
      for k in tour.scene.hotSpots.indices {
        _ = tour.name(ofHotSpot: k)
        _ = tour.nudge(hotSpot: k, dx: 1, dy: -5)
        tour.reveal(hotSpot: k, duration: 0.5)
      }
      _ = tour.handle(.pointer(.down, id: 1, kind: .touch, at: StagePoint(x: 100, y: 100)), at: 0)
      _ = tour.handle(.pointer(.move, id: 1, kind: .touch, at: StagePoint(x: 300, y: 500)), at: 0.05)
      _ = tour.handle(.pointer(.up, id: 1, kind: .touch, at: StagePoint(x: 300, y: 500)), at: 0.1)
      _ = tour.handle(.key(.right, [], isDown: true, isRepeat: false), at: 0.2)
      for step in 1...30 { tour.advance(to: 0.2 + Double(step) / 30) }
      let s = tour.settings
      tour.setBounds(.yaw, s[number: .minYaw] ?? -180, s[number: .maxYaw] ?? 180)
      tour.setBounds(.hfov, s[number: .minHfov] ?? 1, s[number: .maxHfov] ?? 360)
      tour.update { $0.look(yaw: s[number: .yaw], pitch: s[number: .pitch], hfov: s[number: .hfov], duration: 0.3) }
      tour.advance(to: 5)
      _ = tour.panorama?.viewer.renderedView
      _ = tour.currentDegrees
      _ = tour.settings.json.text
      for k in tour.scene.hotSpots.indices.reversed() { _ = tour.follow(hotSpot: k) }
    }
  }

  /// A web page's board (imagestage-board.js's description) read, then dragged, keyed,
  /// undone, laid out anew and saved, as the component does.
  static func pageBoardDrag(_ bytes: [UInt8]) {
    guard let page = try? PageBoard.decode(bytes) else { return }
    guard var engine = try? Engine(board: page.board, options: page.options) else { return }
    guard !engine.board.items.isEmpty else { return }
    let from = engine.board.items[0].center
    let to = engine.board.slots.last?.frame.center ?? StagePoint(x: 0, y: 0)
    _ = try? engine.press(item: 0, pointer: 1, at: from, time: 0)
    _ = try? engine.handle(.pointer(.move, id: 1, at: to), at: 0.05)
    _ = try? engine.handle(.pointer(.up, id: 1, at: to), at: 0.1)
    for key in Key.allCases { _ = try? engine.handle(.key(key), at: 0.2) }
    _ = try? engine.handle(.key(.escape), at: 0.3)
    let frames = engine.board.slots.indices.map {
      SlotFrame(slot: $0, frame: StageRect(x: Double($0) * 7, y: 3, width: 5, height: 5))
    }
    _ = try? engine.handle(.layout(frames, canvas: StageSize(width: 400, height: 300)), at: 0.4)
    engine.advance(to: 10)
    _ = SavedState.encode(engine, numericIDs: [])
  }

  /// A saved state (`board run --state`, the app's shortcuts.json) applied to a board, which
  /// then runs a drag and is saved again.
  static func savedState(_ bytes: [UInt8]) {
    guard
      var board = try? Board(
        canvas: StageSize(width: 320, height: 480),
        slots: (0..<3).map { Slot(id: "t\($0)", frame: StageRect(x: 200, y: 20 + 100 * Double($0), width: 80, height: 80)) },
        items: [Item(id: "mail", frame: StageRect(x: 20, y: 20, width: 80, height: 80))]),
      (try? SavedState.apply(bytes, to: &board, file: "state.json")) != nil
    else { return }
    guard var engine = try? Engine(board: board, options: .preset(.shortcuts)) else { return }
    _ = try? engine.handle(.pointer(.down, id: 1, at: StagePoint(x: 60, y: 60)), at: 0)
    _ = try? engine.handle(.pointer(.move, id: 1, at: StagePoint(x: 240, y: 160)), at: 0.1)
    _ = try? engine.handle(.pointer(.up, id: 1, at: StagePoint(x: 240, y: 160)), at: 0.2)
    engine.advance(to: 10)
    _ = SavedState.encode(engine, numericIDs: [])
  }

  /// A stored board restored the way each host does it: the app after its first layout,
  /// the web page before it (Locations once trapped there), then laid out, drawn and saved.
  static func restoreIntoStudio(_ bytes: [UInt8]) {
    for kind in [SceneKind.locations, .shortcuts] {
      for layoutFirst in [true, false] {
        var studio = Studio(active: kind)
        if layoutFirst { _ = studio.layout(viewport: StageSize(width: 1024, height: 720), at: 0) }
        guard (try? studio.restoreSaved(kind, from: bytes, source: "fuzz", at: 0)) != nil else { continue }
        _ = studio.layout(viewport: StageSize(width: 390, height: 844), at: 0.1)
        studio.advance(to: 1)
        _ = studio.displayList()
        _ = studio.savedState(kind)
      }
    }
  }
}
