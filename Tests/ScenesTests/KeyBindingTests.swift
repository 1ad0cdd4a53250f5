import Panorama
import Scenes
import Stage
import Testing

@Suite("Key table")
struct KeyBindingTests {
  static let table: [(KeyName, Modifiers, SceneKind, Action)] = [
    (KeyName.character("l"), Modifiers(), SceneKind.panorama, Action.cycleLens),
    (.left, [], .panorama, .turn(.left)),
    (.left, [], .locations, .move(.left)),
    (.character("z"), .control, .shortcuts, .undo),
    (.character("z"), [.control, .shift], .shortcuts, .redo),
    (.plus, .shift, .panorama, .zoomIn),
    (.tab, .shift, .locations, .focusPrevious),
    (.character("3"), [], .locations, .showScene(.panorama)),
  ]

  @Test func keysMapToActions() {
    for (key, modifiers, scene, action) in Self.table {
      #expect(KeyBindings.action(for: key, modifiers, in: scene) == action, "\(key) in \(scene)")
    }
  }

  @Test func keysOfOtherScenesDoNothing() {
    #expect(KeyBindings.action(for: .character("l"), [], in: .locations) == nil)
    #expect(KeyBindings.action(for: .character("c"), [], in: .panorama) == nil)
  }

  @Test func focusCanLeaveAtEitherEndOfTheOrder() {
    var studio = Studio()
    _ = studio.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
    let count = studio.focusOrder.count
    #expect(!studio.focusLeaves(forward: true), "nothing focused: Tab enters the scene")
    for k in 1...count {
      _ = studio.perform(.focusNext, at: 0)
      #expect(studio.focusLeaves(forward: true) == (k == count), "after \(k) of \(count)")
      #expect(studio.focusLeaves(forward: false) == (k == 1), "after \(k) of \(count)")
    }
    studio.releaseFocus()
    #expect(studio.focus == nil)
    // Holding an image by the keyboard keeps the focus: Tab must not strand it.
    _ = studio.perform(.focusNext, at: 0)
    _ = studio.perform(.activate, at: 0)
    #expect(studio.locations.engine.keyboardHeldItem != nil)
    #expect(!studio.focusLeaves(forward: false) && !studio.focusLeaves(forward: true))
  }

  /// The keyboard trap the app had: Tab reached only the tabs, where the arrows switch tabs,
  /// and Escape did not give them back. The view is a focus stop now.
  @Test func thePanoramaViewIsAFocusStopAndEscapeReturnsToIt() {
    var studio = Studio(active: .panorama)
    _ = studio.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
    studio.setPanorama(PanoramaScene(geometry: PanoramaGeometry(width: 64, height: 32), name: "Test"))
    #expect(studio.focusOrder.first == .view)
    // Tab to the last tab, then past it: back round to the view, where the arrows turn.
    for _ in 0..<5 { _ = studio.handle(.key(.tab, [], isDown: true, isRepeat: false), at: 0) }
    #expect(studio.focus == .view)
    _ = studio.handle(.key(.tab, [], isDown: true, isRepeat: false), at: 0)
    #expect(studio.focus == .tab(.locations))
    let hint = studio.displayList().commands.contains {
      if case .text(let t, _, _, _, _, _) = $0 { t.contains("Escape") } else { false }
    }
    #expect(hint, "the caption says how to get the arrows back")
    let events = studio.handle(.key(.escape, [], isDown: true, isRepeat: false), at: 0)
    #expect(studio.focus == .view && studio.active == .panorama)
    #expect(events.contains { if case .announce(let a) = $0 { a.text.contains("arrows turn it") } else { false } })
    studio.advance(to: 0)
    _ = studio.handle(.key(.right, [], isDown: true, isRepeat: false), at: 0)
    for k in 1...30 { studio.advance(to: Double(k) / 60) }
    #expect(studio.active == .panorama, "the arrow did not switch tabs")
    #expect((studio.panorama?.viewer.view.yaw ?? 0) > 0.1, "it turned the view")
  }
}
