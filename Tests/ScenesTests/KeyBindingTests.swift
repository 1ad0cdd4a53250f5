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
    _ = studio.layout(viewport: Size(width: 1024, height: 720), at: 0)
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

  @Test func helpTextComesFromTheTable() {
    let help = KeyBindings.helpText()
    for b in KeyBindings.all where !b.help.isEmpty { #expect(help.contains(b.help)) }
    #expect(help.contains("L ") && help.contains("Left, Right, Up, Down"))
  }
}
