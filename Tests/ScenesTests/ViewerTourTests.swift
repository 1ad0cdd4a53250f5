import CoreMath
import Panorama
import Scenes
import Stage
import StageJSON
import TestSupport
import Testing

@testable import Panorama

/// The viewer's rules shared by the web component, the app and the CLI: hotspot placement
/// for every lens, scene links, Pannellum's limits, autorotate and `lookAt`.
@Suite("Viewer tour")
struct ViewerTourTests {
  static let degree = Elementary.pi / 180

  static func tour(_ json: String, width: Int = 4096, height: Int = 2048) throws -> ViewerTour {
    var t = ViewerTour(config: try ViewerConfig.parse(Array(json.utf8), source: "test.json"))
    t.layout(width: 800, height: 600)
    t.open(width: width, height: height, gpano: nil, name: "test.jpg")
    return t
  }

  @Test func aHotspotAndTheDirectionAtItsPointAgreeForEveryLens() throws {
    for lens in Lens.allCases {
      var t = try Self.tour(#"{"panorama": "p.jpg", "yaw": 20, "pitch": 15, "lens": "\#(lens.rawValue)"}"#)
      t.update { $0.look(yaw: nil, pitch: nil, hfov: 100 * Self.degree, duration: 0) }
      let v = try #require(t.panorama?.viewer)
      for (yaw, pitch) in [(20.0, 15.0), (40, 0), (0, 30), (-10, -20), (60, 50)] {
        guard let p = v.screenPoint(yaw: yaw * Self.degree, pitch: pitch * Self.degree) else { continue }
        let d = try #require(v.direction(at: p))
        var dy = d.yaw / Self.degree - yaw
        dy -= (dy / 360).rounded() * 360
        #expect(abs(dy) < 1e-6 && abs(d.pitch / Self.degree - pitch) < 1e-6, "\(lens) at \(yaw), \(pitch): \(d)")
      }
      // Straight ahead is the centre of the view.
      let centre = try #require(v.screenPoint(yaw: 20 * Self.degree, pitch: 15 * Self.degree))
      #expect(abs(centre.x - 400) < 1e-6 && abs(centre.y - 300) < 1e-6, "\(lens)")
    }
  }

  /// A drag from (400, 300) by (dx, dy) points with one pointer of `kind` (the time, so each
  /// drag starts afresh); the view's change in degrees.
  static func drag(_ t: inout ViewerTour, kind: PointerKind, dx: Double, dy: Double, at time: Double)
    -> (yaw: Double, pitch: Double)
  {
    let before = t.currentDegrees
    _ = t.handle(.pointer(.down, id: 1, kind: kind, at: StagePoint(x: 400, y: 300)), at: time)
    for k in 1...4 {
      let f = Double(k) / 4
      _ = t.handle(.pointer(.move, id: 1, kind: kind, at: StagePoint(x: 400 + dx * f, y: 300 + dy * f)), at: time + f)
    }
    _ = t.handle(.pointer(.up, id: 1, kind: kind, at: StagePoint(x: 400 + dx, y: 300 + dy)), at: time + 2)
    t.advance(to: time + 2)
    return (t.currentDegrees.yaw - before.yaw, t.currentDegrees.pitch - before.pitch)
  }

  /// Pannellum's `dragConfirm`: on a touch screen outside fullscreen one finger leaves the
  /// named axis alone (two fingers turn it); a mouse, and fullscreen, turn both.
  @Test(arguments: [(#""pitch""#, true, false), (#""yaw""#, false, true), (#""both""#, false, false), ("true", true, true)])
  func dragConfirmLeavesAnAxisToTwoFingers(word: String, yawMoves: Bool, pitchMoves: Bool) throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "dragConfirm": \#(word)}"#)
    let touch = Self.drag(&t, kind: .touch, dx: -100, dy: 60, at: 0)
    #expect((abs(touch.yaw) > 1) == yawMoves && (abs(touch.pitch) > 1) == pitchMoves, "\(word): \(touch)")
    let mouse = Self.drag(&t, kind: .mouse, dx: -100, dy: 60, at: 10)
    #expect(abs(mouse.yaw) > 1 && abs(mouse.pitch) > 1, "a mouse turns both: \(mouse)")
    t.isFullscreen = true
    let full = Self.drag(&t, kind: .touch, dx: -100, dy: -60, at: 20)
    #expect(abs(full.yaw) > 1 && abs(full.pitch) > 1, "in fullscreen one finger turns both: \(full)")
  }

  /// Two fingers moving together turn the view as one does (Pannellum pans with their middle):
  /// left and down turns right and up.
  @Test func twoFingersTogetherPan() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "dragConfirm": "both"}"#)
    let before = t.currentDegrees
    _ = t.handle(.pointer(.down, id: 1, kind: .touch, at: StagePoint(x: 350, y: 300)), at: 0)
    _ = t.handle(.pointer(.down, id: 2, kind: .touch, at: StagePoint(x: 450, y: 300)), at: 0)
    for k in 1...4 {
      let d = Double(k) * -25
      _ = t.handle(.pointer(.move, id: 1, kind: .touch, at: StagePoint(x: 350 + d, y: 300 - d / 2)), at: Double(k) / 4)
      _ = t.handle(.pointer(.move, id: 2, kind: .touch, at: StagePoint(x: 450 + d, y: 300 - d / 2)), at: Double(k) / 4)
    }
    #expect(t.currentDegrees.yaw - before.yaw > 5 && t.currentDegrees.pitch - before.pitch > 2, "\(t.currentDegrees)")
    #expect(abs(t.currentDegrees.hfov - before.hfov) < 1e-9, "the same distance apart: no zoom")
  }

  /// `mouseZoom: "fullscreenonly"`: the wheel zooms only in fullscreen.
  @Test func theWheelZoomsOnlyInFullscreenWhenTheConfigSaysSo() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "mouseZoom": "fullscreenonly"}"#)
    let wheel = SceneInput.wheel(dx: 0, dy: 100, precise: false, at: StagePoint(x: 400, y: 300))
    let outside = t.handle(wheel, at: 0)
    #expect(!outside, "outside fullscreen the wheel is the page's")
    t.isFullscreen = true
    let inside = t.handle(wheel, at: 0)
    #expect(inside)
  }

  /// Under motion the view's pitch is the phone's own, as Pannellum's: a scene starting 30°
  /// down, the phone held 20° above the horizon (portrait, beta 110), shows 20° up. The
  /// heading stays relative: the first reading's is the scene's starting yaw.
  @Test func underMotionThePitchIsThePhonesOwn() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "pitch": -30, "yaw": 40}"#)
    #expect(abs(t.currentDegrees.pitch + 30) < 1e-9)
    for k in 0..<60 {
      let q = Quaternion.deviceOrientation(alpha: 0, beta: 110, gamma: 0, screenAngle: 0)
      _ = t.handle(.motion(.attitude(t: Double(k) / 30, q)), at: Double(k) / 30)
      t.advance(to: Double(k) / 30)
    }
    #expect(abs(t.currentDegrees.pitch - 20) < 0.5, "\(t.currentDegrees)")
    #expect(abs(t.currentDegrees.yaw - 40) < 0.5, "\(t.currentDegrees)")
  }

  /// `preview` resolves as Pannellum resolves it: under `basePath` unless absolute (a tile
  /// pyramid's "preview.jpg" is beside its config when the page makes the config's folder
  /// the base).
  @Test(arguments: [
    (#""preview": "preview.jpg", "basePath": "tiles/""#, "tiles/preview.jpg"),
    (#""preview": "preview.jpg", "basePath": "tiles""#, "tiles/preview.jpg"),
    (#""preview": "preview.jpg""#, "preview.jpg"),
    (#""preview": "/site/p.jpg", "basePath": "tiles/""#, "/site/p.jpg"),
    (#""preview": "https://example.org/p.jpg", "basePath": "tiles/""#, "https://example.org/p.jpg"),
  ])
  func thePreviewIsFoundUnderTheBasePath(keys: String, expected: String) throws {
    let t = ViewerTour(config: try ViewerConfig.parse(Array(#"{"panorama": "p.jpg", \#(keys)}"#.utf8), source: "t.json"))
    #expect(t.previewURL == expected)
  }

  @Test func aHotspotBehindTheCameraOrOutsideTheFisheyeIsHidden() throws {
    var t = try Self.tour(
      #"{"panorama": "p.jpg", "hotSpots": [{"yaw": 0, "pitch": 0, "text": "ahead"}, {"yaw": 180, "pitch": 0, "text": "behind"}, {"yaw": 30, "pitch": 10}]}"#
    )
    var p = t.placements()
    #expect(p[0].at != nil && p[1].at == nil && p[2].at != nil)
    #expect(p[2].at!.x > 400 && p[2].at!.y < 300, "right of centre and above")
    // A little planet sees nearly everything; behind is still the one point it cannot.
    t.update { $0.setLens(.fisheye) }
    t.update { $0.look(yaw: nil, pitch: nil, hfov: 200 * Self.degree, duration: 0) }
    p = t.placements(margin: 1000)
    #expect(p[0].at != nil && p[2].at != nil)
    t.update { $0.look(yaw: 90 * Self.degree, pitch: nil, hfov: nil, duration: 0) }
    #expect(t.placements(margin: 1000)[1].at != nil, "behind, seen from the side through a 200° fisheye")
  }

  @Test func aSceneLinkLeadsToItsSceneWithItsTargets() throws {
    let json = """
      {"default": {"firstScene": "a", "northOffset": 10},
       "scenes": {
         "a": {"title": "Hall", "panorama": "a.jpg", "yaw": 5,
               "hotSpots": [{"type": "scene", "sceneId": "b", "yaw": 90, "pitch": 0, "targetYaw": "sameAzimuth", "targetPitch": 12},
                            {"type": "info", "yaw": -40, "pitch": 5, "text": "A door"}]},
         "b": {"title": "Kitchen", "panorama": "b.jpg", "basePath": "rooms", "northOffset": 40, "hfov": 80,
               "hotSpots": [{"type": "scene", "sceneId": "a", "yaw": 0, "pitch": 0}]}}}
      """
    var t = try Self.tour(json)
    #expect(t.sceneID == "a" && t.imageURL == "a.jpg")
    #expect(t.name(ofHotSpot: 0) == "Go to Kitchen" && t.name(ofHotSpot: 1) == "A door")
    #expect(t.tabOrder == [1, 0], "left (yaw −40) before right (yaw 90)")
    #expect(t.linkedScenes == ["b"] && t.imageURL(ofScene: "b") == "rooms/b.jpg")
    #expect(t.follow(hotSpot: 1) == nil, "an info hotspot leads nowhere")
    #expect(t.follow(hotSpot: 0) == "b")
    t.open(width: 4096, height: 2048, gpano: nil, name: "b.jpg")
    let d = t.currentDegrees
    // sameAzimuth keeps the compass heading: yaw 5 + north 10 − their north 40.
    #expect(abs(d.yaw - (5 + 10 - 40)) < 1e-9 && abs(d.pitch - 12) < 1e-9 && abs(d.hfov - 80) < 1e-9)
    #expect(t.loadScene("nowhere", yaw: nil, pitch: nil, hfov: nil) == false)
  }

  /// A video scene: its address under `basePath`, no still needed, never fetched ahead as
  /// an image; its hotspots and links work as an image scene's.
  @Test func aVideoSceneNeedsNoStillAndIsNotFetchedAhead() throws {
    let json = """
      {"default": {"firstScene": "a", "basePath": "media"},
       "scenes": {
         "a": {"panorama": "a.jpg", "hotSpots": [{"type": "scene", "sceneId": "v", "yaw": 90, "pitch": 0}]},
         "v": {"video": "clip.webm", "hotSpots": [{"type": "scene", "sceneId": "a", "yaw": 0, "pitch": 0}]}}}
      """
    var t = try Self.tour(json)
    #expect(t.videoURL == nil && t.imageURL == "media/a.jpg")
    #expect(t.linkedScenes == ["v"] && t.imageURL(ofScene: "v") == nil)
    #expect(t.follow(hotSpot: 0) == "v")
    #expect(t.unsupported == nil && t.videoURL == "media/clip.webm" && t.imageURL == nil)
    t.open(width: 1920, height: 960, gpano: nil, name: "clip.webm")
    #expect(t.placements().count == 1)
    #expect(t.follow(hotSpot: 0) == "a")
  }

  /// The app's video keys on a video scene become commands the host's player carries out;
  /// on a still they are not the viewer's (the page keeps Space), and a held Space does not
  /// flicker between play and pause.
  @Test func videoKeysBecomeCommandsOnAVideoSceneOnly() throws {
    var still = try Self.tour(#"{"panorama": "p.jpg"}"#)
    still.open(width: 1024, height: 512, gpano: nil, name: "p.jpg")
    let stillUsed = still.handle(.key(.space, [], isDown: true, isRepeat: false), at: 0)
    #expect(stillUsed == false)
    #expect(still.takeVideoCommand() == nil)
    var t = try Self.tour(#"{"video": "clip.webm"}"#)
    t.open(width: 1024, height: 512, gpano: nil, name: "clip.webm")
    func press(_ key: KeyName, repeating: Bool = false) -> VideoCommand? {
      let used = t.handle(.key(key, [], isDown: true, isRepeat: repeating), at: 1)
      #expect(used)
      return t.takeVideoCommand()
    }
    #expect(press(.space) == .togglePlay)
    #expect(t.takeVideoCommand() == nil, "taken once")
    #expect(press(.space, repeating: true) == nil)
    #expect(press(.character(".")) == .stepFrames(1))
    #expect(press(.character(",")) == .stepFrames(-1))
    #expect(press(.character("]")) == .skip(5))
    #expect(press(.character("[")) == .skip(-5))
    let upUsed = t.handle(.key(.space, [], isDown: false, isRepeat: false), at: 2)
    #expect(upUsed && t.takeVideoCommand() == nil)
    var off = try Self.tour(#"{"video": "clip.webm", "disableKeyboardCtrl": true}"#)
    off.open(width: 1024, height: 512, gpano: nil, name: "clip.webm")
    let offUsed = off.handle(.key(.space, [], isDown: true, isRepeat: false), at: 0)
    #expect(offUsed == false)
  }

  @Test func pannellumsLimitsKeepTheViewsEdgesInside() throws {
    var t = try Self.tour(
      #"{"panorama": "p.jpg", "minYaw": -60, "maxYaw": 60, "maxPitch": 20, "minHfov": 40, "maxHfov": 90, "hfov": 120}"#)
    #expect(abs(t.currentDegrees.hfov - 90) < 1e-9, "hfov 120 above maxHfov 90")
    t.update { $0.look(yaw: 100 * Self.degree, pitch: 80 * Self.degree, hfov: nil, duration: 0) }
    let d = t.currentDegrees
    #expect(abs(d.yaw - (60 - 45)) < 1e-9, "the right edge stops at maxYaw: \(d.yaw)")
    let vhalf = Lens.rectilinear.verticalFieldOfView(90 * Self.degree, width: 800, height: 600) / 2 / Self.degree
    #expect(abs(d.pitch - (20 - vhalf)) < 1e-9, "the top edge stops at maxPitch")
    t.update { $0.zoom(by: 0.1) }
    #expect(abs(t.currentDegrees.hfov - 40) < 1e-9)
    t.setBounds(.hfov, 60, 70)
    #expect(abs(t.currentDegrees.hfov - 60) < 1e-9 && t.bounds(.hfov) == (60, 70))
  }

  @Test func autorotateTurnsStopsForTheUserAndResumes() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "autoRotate": 10, "autoRotateInactivityDelay": 500}"#)
    for k in 0...10 { t.advance(to: Double(k) * 0.1) }
    #expect(abs(t.currentDegrees.yaw - -10) < 1e-6, "positive autoRotate turns left at 10°/s: \(t.currentDegrees.yaw)")
    #expect(t.panorama!.viewer.isMoving)
    t.update { $0.noteInteraction(at: 1.0) }
    for k in 11...14 { t.advance(to: Double(k) * 0.1) }
    let paused = t.currentDegrees.yaw
    #expect(abs(paused - -10) < 1e-6, "paused by the user")
    for k in 15...20 { t.advance(to: Double(k) * 0.1) }
    #expect(t.currentDegrees.yaw < paused - 0.4, "resumed 0.5 s after the last input")
    // Without an inactivity delay, the user stops it for good.
    var once = try Self.tour(#"{"panorama": "p.jpg", "autoRotate": -5}"#)
    once.advance(to: 0)
    once.update { $0.noteInteraction(at: 0) }
    once.advance(to: 5)
    #expect(once.panorama!.viewer.autoRotation == nil && !once.panorama!.viewer.isMoving)
  }

  /// A config's `autoRotate` of 1e308 °/s: the yaw grew past Double's range and became NaN
  /// (`getYaw()` answered `null`). A turn per tick or more turns by its remainder.
  @Test(arguments: [1e308, -1e308, 1e300, 1e12])
  func anAbsurdAutorotateSpeedKeepsTheYawFinite(speed: Double) throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "autoRotate": \#(speed)}"#)
    for k in 0...120 { t.advance(to: Double(k) / 60) }
    let yaw = t.currentDegrees.yaw
    #expect(yaw.isFinite && abs(yaw) <= 180, "\(yaw)")
  }

  @Test func lookAtGlidesTheShortWayAndSaysWhenItIsThere() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "yaw": 170}"#)
    t.update { $0.look(yaw: -170 * Self.degree, pitch: 10 * Self.degree, hfov: 60 * Self.degree, duration: 1) }
    t.advance(to: 0)
    t.advance(to: 0.5)
    var d = t.currentDegrees
    #expect(abs(abs(d.yaw) - 180) < 1e-6, "halfway the short way, across 180°: \(d.yaw)")
    #expect(t.panorama!.viewer.glideFinished == false)
    t.advance(to: 0.6)
    t.advance(to: 1.1)
    d = t.currentDegrees
    #expect(abs(d.yaw - -170) < 1e-6 && abs(d.pitch - 10) < 1e-6 && abs(d.hfov - 60) < 1e-6)
    #expect(t.panorama!.viewer.glideFinished)
  }

  /// Pannellum's `setPitch(30).setYaw(-20).setHfov(90)`: each setter animates its own axis,
  /// so all three arrive (one glide replacing another left pitch 0, yaw 0, hfov 90).
  @Test func chainedSettersEachGlideTheirOwnAxis() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "hfov": 100}"#)
    t.advance(to: 0)
    t.update { $0.look(yaw: nil, pitch: 30 * Self.degree, hfov: nil, duration: 1) }
    t.update { $0.look(yaw: -20 * Self.degree, pitch: nil, hfov: nil, duration: 1) }
    t.update { $0.look(yaw: nil, pitch: nil, hfov: 90 * Self.degree, duration: 1) }
    t.advance(to: 0.01)
    t.advance(to: 0.5)
    var d = t.currentDegrees
    #expect(d.pitch > 5 && d.pitch < 25 && d.yaw < -3 && d.yaw > -17 && d.hfov < 99, "all three on their way: \(d)")
    #expect(t.panorama!.viewer.glideFinished == false)
    t.advance(to: 1.2)
    d = t.currentDegrees
    #expect(abs(d.pitch - 30) < 1e-6 && abs(d.yaw - -20) < 1e-6 && abs(d.hfov - 90) < 1e-6, "\(d)")
    #expect(t.panorama!.viewer.glideFinished)
    // One axis set at once leaves another's glide running.
    t.update { $0.look(yaw: nil, pitch: 0, hfov: nil, duration: 1) }
    t.update { $0.look(yaw: 10 * Self.degree, pitch: nil, hfov: nil, duration: 0) }
    #expect(abs(t.currentDegrees.yaw - 10) < 1e-6)
    t.advance(to: 1.3)
    t.advance(to: 2.5)
    d = t.currentDegrees
    #expect(abs(d.pitch) < 1e-6 && abs(d.yaw - 10) < 1e-6, "\(d)")
  }

  @Test func horizonPitchAndRollTakeThePanoramasTiltOut() throws {
    var t = try Self.tour(#"{"panorama": "p.jpg", "horizonPitch": 10, "hotSpots": [{"yaw": 0, "pitch": -10}]}"#)
    var drawn = try #require(t.panorama?.viewer.renderedView)
    #expect(abs(drawn.pitch / Self.degree - -10) < 1e-9 && abs(drawn.yaw) < 1e-9 && abs(drawn.roll) < 1e-9, "\(drawn)")
    #expect(abs(t.currentDegrees.pitch) < 1e-9, "the API's pitch is the user's, not the correction's")
    let centre = try #require(t.placements()[0].at)
    #expect(abs(centre.x - 400) < 1e-6 && abs(centre.y - 300) < 1e-6, "a hotspot on the tilted horizon is straight ahead")
    t.setSetting {
      $0[number: .horizonPitch] = 0; $0[number: .horizonRoll] = 10
    }
    t.update { $0.look(yaw: 90 * Self.degree, pitch: 0, hfov: nil, duration: 0) }
    drawn = try #require(t.panorama?.viewer.renderedView)
    #expect(abs(drawn.pitch / Self.degree - 10) < 1e-9 && abs(drawn.yaw / Self.degree - 90) < 1e-9, "\(drawn)")
    // Round the circle the correction is a rotation: an orthonormal camera every time.
    for yaw in stride(from: -180.0, through: 180, by: 30) {
      t.setSetting {
        $0[number: .horizonPitch] = 7; $0[number: .horizonRoll] = -4
      }
      t.update { $0.look(yaw: yaw * Self.degree, pitch: 20 * Self.degree, hfov: nil, duration: 0) }
      let v = try #require(t.panorama?.viewer)
      let p = try #require(v.screenPoint(yaw: (yaw + 12) * Self.degree, pitch: 3 * Self.degree))
      let d = try #require(v.direction(at: p))
      var dy = d.yaw / Self.degree - (yaw + 12)
      dy -= (dy / 360).rounded() * 360
      #expect(abs(dy) < 1e-6 && abs(d.pitch / Self.degree - 3) < 1e-6, "at yaw \(yaw)")
    }
  }

  /// A clip's V2 pose is undone as the CLI and the app undo it (`SphericalVideo`'s
  /// projection matrix): the drawn camera's axes are that matrix's columns, for views and
  /// poses all round; a hotspot stays with the content it marks.
  @Test func aVideosPoseIsUndoneAsTheRenderersUndoIt() throws {
    var t = try Self.tour(#"{"video": "clip.webm", "hotSpots": [{"yaw": 0, "pitch": 0}]}"#)
    var video = SphericalVideo(source: "test")
    video.pose = ViewAngles(yaw: 30 * Self.degree, pitch: 0, roll: 0)
    t.open(width: 1024, height: 512, gpano: nil, name: "clip.webm", video: video)
    // The projection's centre (a hotspot at yaw 0) shows at world yaw −30°.
    t.update { $0.look(yaw: -30 * Self.degree, pitch: 0, hfov: nil, duration: 0) }
    let centre = try #require(t.placements()[0].at)
    #expect(abs(centre.x - 400) < 1e-6 && abs(centre.y - 300) < 1e-6, "the content's centre straight ahead: \(centre)")
    var generator = SeededRandom(seed: 276)  // the same draws every run
    for _ in 0..<40 {
      func angle(_ r: Double) -> Double { Double.random(in: -r...r, using: &generator) * Self.degree }
      video.pose = ViewAngles(yaw: angle(180), pitch: angle(89), roll: angle(180))
      let view = ViewAngles(yaw: angle(180), pitch: angle(80), roll: 0)
      t.open(width: 1024, height: 512, gpano: nil, name: "clip.webm", video: video)
      t.update { $0.look(yaw: view.yaw, pitch: view.pitch, hfov: nil, duration: 0) }
      let drawn = try #require(t.panorama?.viewer.renderedView)
      let expected = video.projectionMatrix(view: view)
      let got = SphericalVideo(source: "none").projectionMatrix(view: drawn)
      for k in 0..<9 {
        #expect(abs(got[k] - expected[k]) < 1e-9, "pose \(video.pose), view \(view): \(got) against \(expected)")
      }
    }
  }

  @Test func haovVaovAndVOffsetPlaceAPartialPanorama() throws {
    let t = try Self.tour(#"{"panorama": "p.jpg", "haov": 180, "vaov": 60, "vOffset": 10}"#, width: 3000, height: 1000)
    let g = try #require(t.panorama?.viewer.geometry)
    #expect(abs(g.horizontalFOV - 180 * Self.degree) < 1e-9 && abs(g.verticalFOV - 60 * Self.degree) < 1e-9)
    let lat = t.panorama!.viewer.coveredLatitudes
    #expect(abs(lat.top / Self.degree - 40) < 1e-9 && abs(lat.bottom / Self.degree - -20) < 1e-9, "centred 10° up")
    // An image that reaches a pole exactly is on the sphere.
    let toThePole = try Self.tour(#"{"panorama": "p.jpg", "vaov": 90, "vOffset": 45}"#, width: 3000, height: 1000)
    #expect(abs(toThePole.panorama!.viewer.coveredLatitudes.top / Self.degree - 90) < 1e-9)
  }

  /// Finite but extreme values (a page's URL: `#vaov=10&vOffset=1e308`) made an infinite
  /// panorama or a crop off the sphere: the camera's pitch became NaN and the view went black.
  /// They are ignored as a GPano crop outside its panorama is, and the camera stays finite.
  @Test(arguments: [
    #""haov": 1e-300"#, #""vaov": 1e-300"#, #""vaov": 10, "vOffset": 1e308"#, #""vOffset": -100"#,
    #""haov": 1e-10, "vaov": 1e-10"#,
  ])
  func aPartialPanoramaOffTheSphereIsIgnored(keys: String) throws {
    let t = try Self.tour(#"{"panorama": "p.jpg", \#(keys)}"#, width: 3000, height: 1500)
    #expect(t.panorama?.viewer.geometry == PanoramaGeometry(width: 3000, height: 1500), "the image's own geometry")
    let d = t.currentDegrees
    #expect(d.yaw.isFinite && d.pitch.isFinite && d.hfov.isFinite && d.hfov > 0, "\(d)")
  }
}

/// The CPU renderer of a tiled scene keeps its tile table from frame to frame: a frame after
/// a tile arrives, or after the view turns, is what a table built afresh draws.
@Suite("Viewer tour: tiles on the CPU")
struct ViewerTourTileTests {
  @Test func aKeptTileTableDrawsWhatAFreshOneDraws() throws {
    let json = #"""
      {"type": "multires", "hfov": 100, "multiRes": {"basePath": "t", "path": "/%l/%s%y_%x", "extension": "png",
       "tileResolution": 32, "maxLevel": 2, "cubeResolution": 64}}
      """#
    var t = ViewerTour(config: try ViewerConfig.parse(Array(json.utf8), source: "t.json"))
    t.layout(width: 160, height: 120)
    let coverage = t.openTiles()
    #expect(coverage != nil)
    let layout = try #require(t.tileLayout)
    let planned = t.planTiles(width: 160, height: 120)
    let plan = try #require(planned)
    try #require(plan.level == 2, "the view wants the finest level")
    // A flat colour a tile, from its level, face and place.
    func tile(_ id: TileID) -> RGBAImage {
      let (w, h) = layout.tileSize(level: id.level, x: id.x, y: id.y)
      var image = RGBAImage(width: w, height: h)
      let colour = RGBAImage.pack(r: UInt8(40 * id.level), g: UInt8(30 * id.face), b: UInt8(60 * id.x + 120 * id.y))
      for k in image.pixels.indices { image.pixels[k] = colour }
      return image
    }
    func fresh() throws -> RGBAImage {
      let v = try #require(t.panorama?.viewer)
      var cube = TiledCube(layout: layout, level: plan.level)
      cube.tiles = t.tilePixels
      var frame = RGBAImage(width: 160, height: 120)
      cube.render(view: v.renderedView, hfov: v.hfov, lens: .rectilinear, into: &frame, executor: InlineRows())
      return frame
    }
    for id in plan.fetch where id.level == 1 { t.tileLoaded(id, pixels: tile(id)) }
    var first = RGBAImage(width: 160, height: 120)
    let drawn = t.renderTiles(into: &first, executor: InlineRows())
    #expect(drawn)
    #expect(try first == fresh())
    // A finer tile arrives: the next frame shows it.
    let next = t.planTiles(width: 160, height: 120)
    let finer = try #require(next?.fetch.first { $0.level == 2 }, "the finest level's tiles, after the base")
    t.tileLoaded(finer, pixels: tile(finer))
    var second = RGBAImage(width: 160, height: 120)
    t.renderTiles(into: &second, executor: InlineRows())
    #expect(second != first)
    #expect(try second == fresh())
    // The view turns: the same table, another view.
    t.update { $0.look(yaw: 30 * ViewerTourTests.degree, pitch: 10 * ViewerTourTests.degree, hfov: nil, duration: 0) }
    var third = RGBAImage(width: 160, height: 120)
    t.renderTiles(into: &third, executor: InlineRows())
    #expect(third != second)
    #expect(try third == fresh())
  }
}
