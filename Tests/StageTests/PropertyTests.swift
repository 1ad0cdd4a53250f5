import TestSupport
import Testing

@testable import Stage

@Suite("SpatialIndex")
struct SpatialIndexTests {
  static func randomFrames(_ n: Int, _ rng: inout SeededRandom) -> [StageRect] {
    (0..<n).map { _ in
      // Mostly similar slots, some huge ones that must go to the oversized list.
      let big = Int.random(in: 0..<20, using: &rng) == 0
      let w = big ? Double.random(in: 300...900, using: &rng) : Double.random(in: 5...60, using: &rng)
      let h = big ? Double.random(in: 300...900, using: &rng) : Double.random(in: 5...60, using: &rng)
      return StageRect(
        x: Double.random(in: -200...1000, using: &rng), y: Double.random(in: -200...800, using: &rng), width: w, height: h)
    }
  }

  @Test(arguments: [1, 2, 7, 50, 400])
  func queriesAgreeWithALinearScan(count: Int) throws {
    var rng = SeededRandom(seed: UInt64(count))
    let frames = Self.randomFrames(count, &rng)
    let index = SpatialIndex(frames: frames)
    for _ in 0..<300 {
      let p = StagePoint(x: Double.random(in: -400...1200, using: &rng), y: Double.random(in: -400...1000, using: &rng))
      let radius = Double.random(in: 1...200, using: &rng)
      let accept: (Int) -> Bool = { $0 % 3 != 1 }
      var expected: Int?
      var bestD2 = radius * radius
      for (s, f) in frames.enumerated() where accept(s) {
        let d2 = f.center.distanceSquared(to: p)
        if d2 < bestD2 || (d2 == bestD2 && expected != nil && s > expected!) {
          expected = s
          bestD2 = d2
        }
      }
      #expect(index.nearestCenter(to: p, within: radius, accept: accept) == expected)

      let q = StageRect(
        center: p,
        size: StageSize(width: Double.random(in: 1...120, using: &rng), height: Double.random(in: 1...120, using: &rng)))
      var overlapping: [Int] = []
      index.forEachOverlapping(q) { overlapping.append($0) }
      #expect(overlapping.sorted() == frames.indices.filter { frames[$0].intersects(q) })
      var containing: [Int] = []
      index.forEachContaining(p) { containing.append($0) }
      #expect(containing.sorted() == frames.indices.filter { frames[$0].contains(p) })
    }
  }
}

extension SpatialIndexTests {
  /// Found by fuzzing `board run`: a slot 10^300 points away made the grid ask for ~10^40
  /// columns and trap converting that to Int. Far-off, long thin and NaN frames must index.
  @Test func extremeCoordinatesDoNotTrap() throws {
    let near = StageRect(x: 0, y: 0, width: 10, height: 10)
    for far in [
      StageRect(x: 1e300, y: 0, width: 10, height: 10), StageRect(x: 1e9, y: 0, width: 10, height: 10),
      StageRect(x: -1e308, y: 1e308, width: 1e308, height: 1e308), StageRect(x: .nan, y: 0, width: 10, height: 10),
    ] {
      let index = SpatialIndex(frames: [near, far])
      #expect(index.columns * index.rows <= 4 * 2 + 16)
      #expect(index.nearestCenter(to: StagePoint(x: 4, y: 6), within: 50, accept: { _ in true }) == 0)
      var containing: [Int] = []
      index.forEachContaining(StagePoint(x: 5, y: 5)) { containing.append($0) }
      #expect(containing == [0])
    }
  }
}

@Suite("Engine invariants under random input")
struct ModelTests {
  /// Thousands of random event sequences on random boards; after each, the engine must be
  /// consistent: every item on at most one slot within capacity, nothing lost, and once
  /// the clock runs past the last animation, nothing still moving.
  @Test(arguments: [Preset.locations, .shortcuts])
  func randomSequencesKeepTheInvariants(preset: Preset) throws {
    var rng = SeededRandom(seed: preset == .locations ? 1 : 2)
    let strategies = TargetStrategy.allCases
    for run in 0..<1000 {
      let slotCount = Int.random(in: 1...12, using: &rng)
      var slots: [Slot] = []
      for s in 0..<slotCount {
        var slot = Slot(
          id: "s\(s)",
          frame: StageRect(
            x: Double.random(in: 0...500, using: &rng), y: Double.random(in: 0...500, using: &rng), width: 60, height: 60))
        slot.capacity = Int.random(in: 1...2, using: &rng)
        if Int.random(in: 0..<5, using: &rng) == 0 { slot.accepts = ["b"] }
        slots.append(slot)
      }
      let itemCount = Int.random(in: 1...min(5, slotCount), using: &rng)
      let items = (0..<itemCount).map { i in
        Item(id: "i\(i)", frame: StageRect(x: 0, y: 0, width: 50, height: 50), tags: i % 2 == 0 ? ["a"] : ["b"])
      }
      let placement: [String?] = (0..<itemCount).map { preset == .locations ? "s\($0)" : nil }
      var board = try! Board(canvas: StageSize(width: 600, height: 600), slots: slots, items: items, itemSlots: placement)
      if preset == .shortcuts {
        for i in 0..<itemCount { try board.place(item: i, on: nil) }
      }
      var options = Options.preset(preset)
      options.strategy = strategies[run % strategies.count]
      options.activationDistance = Double(Int.random(in: 0...1, using: &rng) * 5)
      options.curve = run % 3 == 0 ? .spring(response: 0.3, dampingRatio: 0.6) : .easeInOut
      var engine = try Engine(board: board, options: options)
      var t = 0.0
      for _ in 0..<60 {
        t += Double.random(in: 0...0.15, using: &rng)
        let pointer = Int.random(in: 0...2, using: &rng)
        let p = StagePoint(x: Double.random(in: -50...650, using: &rng), y: Double.random(in: -50...650, using: &rng))
        let input: Input
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<5:
          input = .pointer(.down, id: pointer, at: engine.board.items[Int.random(in: 0..<itemCount, using: &rng)].center)
        case 5..<12: input = .pointer(.move, id: pointer, at: p)
        case 12..<15: input = .pointer(.up, id: pointer, at: p)
        case 15: input = .pointer(.cancel, id: pointer, at: p)
        case 16: input = .key(Key.allCases.randomElement(using: &rng)!)
        case 17:
          input = .layout(
            [
              SlotFrame(slot: Int.random(in: 0..<slotCount, using: &rng), frame: StageRect(x: p.x, y: p.y, width: 60, height: 60))
            ],
            canvas: nil)
        case 18: input = .cancelAll
        default: input = .key(.undo)
        }
        _ = try engine.handle(input, at: t)
        checkInvariants(engine, itemCount: itemCount)
      }
      _ = try engine.handle(.cancelAll, at: t)
      if let end = engine.animationsEnd { engine.advance(to: end + 0.001) }
      #expect(engine.isIdle, "run \(run): animations must end")
      for item in engine.board.items {
        if let s = item.slot {
          #expect(item.center == engine.board.slots[s].frame.center, "run \(run): settled item off its slot")
        } else {
          #expect(item.center == item.restingCenter)
        }
      }
    }
  }

  func checkInvariants(_ engine: Engine, itemCount: Int) {
    #expect(engine.board.items.count == itemCount)
    var counts = [Int](repeating: 0, count: engine.board.slots.count)
    for item in engine.board.items {
      #expect(item.center.x.isFinite && item.center.y.isFinite)
      if let s = item.slot { counts[s] += 1 }
    }
    for (s, n) in counts.enumerated() {
      #expect(n <= engine.board.slots[s].capacity, "slot over capacity")
      #expect(n == engine.occupancy[s], "occupancy bookkeeping drifted")
    }
    for slot in engine.board.slots {
      if let c = slot.content { #expect(engine.board.itemIndex(of: c) != nil) }
    }
    #expect(Set(engine.board.zOrder) == Set(0..<itemCount))
  }
}
