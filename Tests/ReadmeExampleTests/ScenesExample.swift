import CMacTypes
import Scenes
import Stage
import Testing

/// Sources/Scenes/README.md's example, run.
@Suite struct ScenesExample {
  @Test func aTouchDragMovesThePhotoAndTheDisplayListDrawsIt() {
    // README Sources/Scenes/README.md
    var studio = Studio()
    _ = studio.layout(viewport: StageSize(width: 1024, height: 720), at: 0)
    let photo = studio.locations.engine.board.items[0].center
    let target = studio.locations.engine.board.slots[1].frame.center
    var events = studio.handle(.pointer(.down, id: 0, kind: .touch, at: photo), at: 0)
    events += studio.handle(.pointer(.move, id: 0, kind: .touch, at: target), at: 0.2)
    events += studio.handle(.pointer(.up, id: 0, kind: .touch, at: target), at: 0.3)
    studio.advance(to: 1)  // the photo rests on the second location
    let list = studio.displayList()  // fills, images, text, focus ring, cursor
    // END README
    #expect(studio.locations.engine.board.items[0].slot == 1)
    let dropped = events.contains {
      if case .engine(.locations, .drop(_, slot: "1")) = $0 { return true } else { return false }
    }
    #expect(dropped)
    #expect(!list.commands.isEmpty)
  }
}
