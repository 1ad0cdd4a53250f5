import Foundation
import Panorama
import Scenes
import Testing

/// The frame buffer's layout has one definition (`ViewerFrameSlot`); the web viewer's reader,
/// web/viewer/viewer-frame.js, holds a copy of it, and these tests hold the copy to it.
@Suite("Viewer frame layout")
struct ViewerFrameTests {
  static let script: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let file = root.appendingPathComponent("web/viewer/viewer-frame.js")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
  }()

  /// The text of `export const NAME = …;` in the script.
  static func declaration(_ name: String) -> String {
    guard let start = script.range(of: "export const \(name) = ") else { return "" }
    let rest = script[start.upperBound...]
    return String(rest[..<(rest.firstIndex(of: ";") ?? rest.endIndex)])
  }

  /// The slots of `export const NAME = {…}` in the script, by name.
  static func slots(_ name: String) -> [String: Int] {
    var slots: [String: Int] = [:]
    for pair in declaration(name).split(whereSeparator: { "{},\n".contains($0) }) {
      let parts = pair.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let slot = Int(parts[1]) else { continue }
      #expect(slots[parts[0]] == nil, "\(parts[0]) twice in \(name) in viewer-frame.js")
      slots[parts[0]] = slot
    }
    return slots
  }

  /// The geometry the open exports answer has one layout too (`ViewerGeometrySlot`).
  @Test func theScriptsGeometrySlotsAndProjectionsAreTheSwiftOnes() {
    let swift = Dictionary(uniqueKeysWithValues: ViewerGeometrySlot.allCases.map { ("\($0)", $0.rawValue) })
    #expect(Self.slots("GEOMETRY") == swift)
    let names = Self.declaration("PROJECTIONS").split(whereSeparator: { "[], '\n".contains($0) }).map(String.init)
    #expect(names == ViewerGeometrySlot.projections.map(\.rawValue))
    #expect(ViewerGeometrySlot.count == ViewerGeometrySlot.allCases.count)
  }

  /// And the video metadata reader's steps (`ViewerSphericalSlot`).
  @Test func theScriptsSphericalSlotsAndNamesAreTheSwiftOnes() {
    let swift = Dictionary(uniqueKeysWithValues: ViewerSphericalSlot.allCases.map { ("\($0)", $0.rawValue) })
    #expect(Self.slots("SPHERICAL") == swift)
    func names(_ name: String) -> [String] {
      Self.declaration(name).split(whereSeparator: { "[], '\n".contains($0) }).map(String.init)
    }
    #expect(names("STEREOS") == ViewerSphericalSlot.stereos.map(\.rawValue))
    #expect(names("VIDEO_PROJECTIONS") == ViewerSphericalSlot.projections.map(\.rawValue))
    #expect(ViewerSphericalSlot.slotCount == ViewerSphericalSlot.allCases.count)
    #expect(Self.script.contains("viewer_answer_numbers(), \(ViewerSphericalSlot.slotCount))"))
  }

  @Test func theScriptsSlotsAreTheSwiftOnes() throws {
    let object = Self.declaration("SLOT")
    var slots: [String: Int] = [:]
    for pair in object.split(whereSeparator: { "{},\n".contains($0) }) {
      let parts = pair.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.count == 2, let slot = Int(parts[1]) else { continue }
      #expect(slots[parts[0]] == nil, "\(parts[0]) twice in viewer-frame.js")
      slots[parts[0]] = slot
    }
    let swift = Dictionary(uniqueKeysWithValues: ViewerFrameSlot.allCases.map { ("\($0)", $0.rawValue) })
    #expect(!slots.isEmpty, "no SLOT in web/viewer/viewer-frame.js")
    #expect(slots == swift)
  }

  @Test(arguments: [
    ("LENSES", ViewerFrameSlot.lenses.map(\.rawValue)),
    ("MODES", ViewerFrameSlot.modes.map(\.rawValue)),
    ("SOURCES", ViewerFrameSlot.sources.map(\.rawValue)),
  ])
  func theScriptsNamesAreTheSwiftOnesInOrder(name: String, swift: [String]) throws {
    let list = Self.declaration(name)
    let names = list.split(whereSeparator: { "[], '\n".contains($0) }).map(String.init)
    #expect(names == swift, "\(name) in web/viewer/viewer-frame.js")
  }

  /// The nine matrix slots end where the placements' count begins: no slot overlaps another.
  @Test func theSlotsDoNotOverlap() {
    var used = Set<Int>()
    for slot in ViewerFrameSlot.allCases {
      let width = slot == .matrix ? 9 : 1
      for k in slot.rawValue..<slot.rawValue + width { #expect(used.insert(k).inserted, "\(slot) overlaps at \(k)") }
    }
    #expect(used.max() == ViewerFrameSlot.fixedCount)
    #expect(ViewerFrameSlot.count(hotSpots: 3) == ViewerFrameSlot.fixedCount + 6)
  }
}
