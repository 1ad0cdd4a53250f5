import Foundation
import Raster
import Testing

/// The Shortcuts dock in the real app (issue 38): under Xvfb, real xdotool input, its event
/// lines and the pixels it draws mid-drag.
@Suite("imagestage-app Shortcuts dock under Xvfb", .serialized)
struct AppDockGUITests {
  typealias GUI = AppGUITests

  /// Whether `c` is close to the icon colour `(r, g, b)` (the tile is scaled: allow some blur).
  static func near(_ c: (Int, Int, Int), _ r: Int, _ g: Int, _ b: Int) -> Bool {
    abs(c.0 - r) < 30 && abs(c.1 - g) < 30 && abs(c.2 - b) < 30
  }

  /// A point inside the icon drawn on a slot, clear of its letter: up-left of the centre.
  static func iconProbe(_ f: [Double]) -> (Int, Int) { (Int(f[0] + f[2] * 0.25), Int(f[1] + f[3] * 0.25)) }

  /// Mail dragged from the first shortcut onto the third: mid-drag the app reports the new
  /// insertion point and draws Camera and Player slid back one place each, Mail under the
  /// pointer; the drop reports end 0 → 2 and change, and the slots hold Camera, Player, Mail.
  @Test(.enabled(if: GUI.available))
  func aShortcutDraggedAlongTheDockLandsThereAndTheOthersSlideAside() throws {
    let (display, app, window, layout) = try AppSceneGUITests.start(["--scene", "shortcuts"])
    defer { app.stop() }
    let slots = AppSceneGUITests.frames(layout, "slots"), items = AppSceneGUITests.frames(layout, "items")
    for (k, icon) in ["mail", "camera", "player"].enumerated() {
      let before = app.count
      try GUI.drag(display, window: window, from: GUI.center(items[k]), to: GUI.center(slots[k]))
      #expect(app.wait(after: before) { $0["type"] as? String == "assign" && $0["item"] as? String == icon } != nil)
      usleep(300_000)
    }
    let before = app.count
    let from = GUI.center(slots[0]), to = GUI.center(slots[2])
    try GUI.hold(display, window: window, from: from, to: to)
    let start = app.wait(after: before) { $0["type"] as? String == "start" }
    #expect(start?["item"] as? String == "slot1" && start?["from"] as? String == "dock" && start?["oldIndex"] as? Int == 0)
    #expect(
      app.wait(after: before) { $0["type"] as? String == "sort" && $0["newIndex"] as? Int == 2 } != nil,
      "\(app.lines(ofType: "sort", after: before))")
    #expect(app.lines(ofType: "assign", after: before).isEmpty, "nothing is committed before the drop")
    usleep(200_000)
    let image = try app.screenshot()
    let shot = try Tool.temporaryDirectory().appendingPathComponent("dock-mid-drag.png")
    try Data(try Raster.encodePNG(image)).write(to: shot)
    print("mid-drag screenshot: \(shot.path)")
    let f = slots.map { $0["frame"] as! [Double] }
    let onFirst = GUI.rgb(image, Self.iconProbe(f[0])), onSecond = GUI.rgb(image, Self.iconProbe(f[1]))
    #expect(Self.near(onFirst, 90, 90, 96), "Camera slid onto the first shortcut: \(onFirst)")
    #expect(Self.near(onSecond, 245, 64, 96), "Player slid onto the second: \(onSecond)")
    let held = GUI.rgb(image, (to.0 - Int(f[2][2] * 0.25), to.1 - Int(f[2][3] * 0.25)))
    #expect(Self.near(held, 52, 120, 246), "Mail is under the pointer: \(held)")
    try display.xdotool(["mouseup", "1"])
    let end = app.wait(after: before) { $0["type"] as? String == "end" }
    #expect(end?["from"] as? String == "dock" && end?["to"] as? String == "dock")
    #expect(end?["oldIndex"] as? Int == 0 && end?["newIndex"] as? Int == 2)
    #expect(app.wait(after: before) { $0["type"] as? String == "change" } != nil)
    usleep(300_000)
    var contents: [String: String?] = [:]
    for line in app.lines(ofType: "assign", after: before) {
      contents[line["slot"] as! String] = line["item"] as? String
    }
    #expect(contents == ["slot1": "camera", "slot2": "player", "slot3": "mail"], "\(contents)")
    let said = app.lines(ofType: "announce", after: before).compactMap { $0["text"] as? String }
    #expect(said.contains("Moved Mail to Shortcut 3."), "\(said)")
  }
}
