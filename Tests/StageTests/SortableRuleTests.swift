import TestSupport
import Testing

@testable import Stage

/// The insertion rule against a model written apart from the engine: the model keeps the
/// order as SortableJS's DOM does (the held element really moves), lays every item out
/// afresh from that order after each step, and applies the documented swap zones to it.
@Suite("SortableEngine's insertion rule")
struct SortableRuleTests {
  /// A list as SortableJS sees it: an order and where the CSS puts each item for it.
  struct Model {
    enum Shape { case column(heights: [Double], gap: Double), grid(columns: Int, cell: Double, gap: Double, count: Int) }
    var shape: Shape
    var order: [Int]
    var held: Int
    var threshold: Double
    var inverted: Bool
    var lastTarget: Int?
    var lastEdge = 0.0

    var horizontal: Bool {
      if case .grid(let columns, _, _, _) = shape { return columns > 1 }
      return false
    }

    /// Item `order[k]`'s frame, from the order alone (no engine code).
    func frame(at k: Int) -> StageRect {
      switch shape {
      case .column(let heights, let gap):
        var y = 0.0
        for j in 0..<k { y += heights[order[j]] + gap }
        return StageRect(x: 0, y: y, width: 120, height: heights[order[k]])
      case .grid(let columns, let cell, let gap, _):
        return StageRect(
          x: Double(k % columns) * (cell + gap), y: Double(k / columns) * (cell + gap), width: cell, height: cell)
      }
    }

    mutating func place(_ k: Int) {
      order.removeAll { $0 == held }
      order.insert(held, at: k)
    }

    var lastDirection = 0
    var invertHere = false
    var pastFirstInvert = false
    var moveDistance = 0.0

    /// One pointer position: SortableJS's dragover, as its documentation and its
    /// behaviour in Chromium describe it, applied to a DOM-like order laid out afresh.
    mutating func pointer(_ p: StagePoint) {
      let i = order.firstIndex(of: held)!
      let frames = order.indices.map { frame(at: $0) }
      let hit = frames.firstIndex { p.x >= $0.minX && p.x <= $0.maxX && p.y >= $0.minY && p.y <= $0.maxY }
      if hit == i { return }
      let last = frames[frames.count - 1]
      let first = frames[0]
      let pastLast =
        horizontal
        ? (p.x > last.maxX && p.y > last.minY) || p.y > last.maxY + 10
        : p.x > last.maxX + 10 || (p.x >= last.minX && p.x <= last.maxX && p.y > last.maxY)
      if pastLast {
        if order.last != held { place(order.count - 1) }
        return
      }
      let beforeFirst =
        horizontal
        ? p.y < first.minY - 10 || (p.y < first.maxY && p.x < first.minX)
        : p.x < first.minX - 10 || (p.y < first.minY && p.x < first.maxX)
      if beforeFirst {
        if order.first != held { place(0) }
        return
      }
      guard let j = hit else { return }
      let t = frames[j]
      let along = horizontal ? p.x : p.y
      let start = horizontal ? t.minX : t.minY
      let length = horizontal ? t.size.width : t.size.height
      let heldFrame = frames[i]
      let sameLine = horizontal ? abs(heldFrame.minY - t.minY) < 0.5 : abs(heldFrame.minX - t.minX) < 0.5
      let isLast = lastTarget == order[j]
      if !isLast {
        lastEdge = start
        pastFirstInvert = false
        invertHere = inverted && sameLine
      }
      let zone = sameLine ? threshold : 1
      var direction = 0
      var invert = invertHere
      if !invert {
        if isLast && moveDistance < length * zone {
          if !pastFirstInvert
            && (lastDirection == 1 ? along > start + length * threshold / 2 : along < start + length - length * threshold / 2)
          {
            pastFirstInvert = true
          }
          if !pastFirstInvert {
            if lastDirection == 1 ? along < start + moveDistance : along > start + length - moveDistance {
              direction = -lastDirection
            }
          } else {
            invert = true
          }
        } else if along > start + length * (1 - zone) / 2 && along < start + length - length * (1 - zone) / 2 {
          direction = i < j ? 1 : -1
        }
      }
      if invert && direction == 0
        && (along < start + length * threshold / 2 || along > start + length - length * threshold / 2)
      {
        direction = along > start + length / 2 ? 1 : -1
      }
      if direction == 0 || (direction == 1 && i == j + 1) || (direction == -1 && i == j - 1) { return }
      let target = order[j]
      lastTarget = target
      lastDirection = direction
      order.removeAll { $0 == held }
      let at = order.firstIndex(of: target)!
      order.insert(held, at: direction == 1 ? at + 1 : at)
      if !isLast && !invertHere {
        let now = frame(at: order.firstIndex(of: target)!)
        moveDistance = abs(lastEdge - (horizontal ? now.minX : now.minY))
      }
    }
  }

  static func engine(for model: Model, rule: InsertionRule) throws -> SortableEngine {
    let items = model.order.indices.map { k in SortableItem(id: "\(model.order[k])", frame: model.frame(at: k)) }
    let layout: SortLayout
    switch model.shape {
    case .column(_, let gap): layout = .vertical(gap: gap)
    case .grid(let columns, let cell, let gap, _):
      layout = .grid(columns: columns, cell: StageSize(width: cell, height: cell), columnGap: gap, rowGap: gap)
    }
    let list = SortableList(
      id: "list", frame: StageRect(x: -100, y: -100, width: 3000, height: 5000),
      content: StageRect(x: 0, y: 0, width: 2000, height: 4000), layout: layout, items: items)
    return try SortableEngine(lists: [list], options: SortOptions(rule: rule, hysteresis: 0))
  }

  static func randomModel(_ rng: inout SeededRandom) -> Model {
    let count = Int.random(in: 2...12, using: &rng)
    let shape: Model.Shape
    if Bool.random(using: &rng) {
      // Mostly equal heights, sometimes very different ones (SortableJS's glitch case).
      let mixed = Bool.random(using: &rng)
      shape = .column(
        heights: (0..<count).map { _ in mixed ? Double.random(in: 20...120, using: &rng) : 40 },
        gap: [0, 4, 10].randomElement(using: &rng)!)
    } else {
      shape = .grid(
        columns: Int.random(in: 1...5, using: &rng), cell: 60, gap: [0, 8].randomElement(using: &rng)!, count: count)
    }
    return Model(
      shape: shape, order: Array(0..<count), held: Int.random(in: 0..<count, using: &rng),
      threshold: [1, 0.65, 0.3].randomElement(using: &rng)!, inverted: Bool.random(using: &rng))
  }

  @Test(arguments: 0..<40)
  func swapZonesAgreeWithTheModel(seed: Int) throws {
    var rng = SeededRandom(seed: UInt64(seed) &+ 1000)
    var model = Self.randomModel(&rng)
    var engine = try Self.engine(
      for: model, rule: .swapZones(threshold: model.threshold, inverted: model.inverted, invertedThreshold: model.threshold))
    var p = model.frame(at: model.held).center
    _ = try engine.pickUp(item: "\(model.held)", pointer: p)
    let bounds = model.frame(at: model.order.count - 1)
    for step in 0..<120 {
      p = StagePoint(
        x: min(max(p.x + Double.random(in: -25...25, using: &rng), -20), bounds.maxX + 60),
        y: min(max(p.y + Double.random(in: -25...25, using: &rng), -20), bounds.maxY + 60))
      model.pointer(p)
      _ = try engine.move(pointer: p)
      let expected = model.order.firstIndex(of: model.held)!
      #expect(engine.drag?.target.index == expected, "seed \(seed), step \(step), pointer \(p)")
      if engine.drag?.target.index != expected { return }
    }
    _ = engine.drop()
    #expect(engine.order(of: 0) == model.order.map { "\($0)" })
  }

  @Test(arguments: 0..<30)
  func closestCentreAgreesWithTheModel(seed: Int) throws {
    var rng = SeededRandom(seed: UInt64(seed) &+ 2000)
    let model = Self.randomModel(&rng)
    var engine = try Self.engine(for: model, rule: .closestCenter)
    let frames = model.order.indices.map { model.frame(at: $0) }
    let start = frames[model.held].center
    var p = start
    _ = try engine.pickUp(item: "\(model.held)", pointer: p)
    for _ in 0..<80 {
      p = StagePoint(x: p.x + Double.random(in: -30...30, using: &rng), y: p.y + Double.random(in: -30...30, using: &rng))
      _ = try engine.move(pointer: p)
      // dnd-kit: the item whose frame at the start is nearest takes the held one's index.
      let over = frames.indices.min { frames[$0].center.distance(to: p) < frames[$1].center.distance(to: p) }!
      #expect(engine.drag?.target.index == over, "seed \(seed), pointer \(p)")
    }
  }

  @Test func hysteresisHoldsTheInsertionPointAtABoundary() throws {
    let model = Model(shape: .column(heights: [40, 40, 40], gap: 0), order: [0, 1, 2], held: 0, threshold: 1, inverted: false)
    var engine = try Self.engine(for: model, rule: .sortableJS)
    engine.options.hysteresis = 6
    _ = try engine.pickUp(item: "0", pointer: StagePoint(x: 60, y: 20))
    #expect(try engine.move(pointer: StagePoint(x: 60, y: 43)).isEmpty, "3 pt into item 1: inside the slack")
    #expect(try engine.move(pointer: StagePoint(x: 60, y: 47)) == [.sort(item: "0", list: "list", index: 1)])
  }
}
