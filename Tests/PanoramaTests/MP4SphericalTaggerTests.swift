import Panorama
import Testing

/// `MP4SphericalTagger` on boxes built here: what it writes reads back through
/// `MP4SphericalReader`, chunk offsets after `moov` move by what the entry grew or shrank, and
/// hostile boxes (cut short, a 64-bit size near 2⁶³, thousands of children) end in a
/// `MP4Box.Failure` naming the box, never a trap.
@Suite("MP4SphericalTagger")
struct MP4SphericalTaggerTests {
  static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
  static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(8 + body.count) + Array(type.utf8) + body }

  /// A `moov` with one video track whose sample entry carries `extra` boxes after its 78
  /// bytes of fields (a 64×32 frame), and an `stco` of `offsets`.
  static func moov(extra: [UInt8] = [], offsets: [Int] = [], more: [UInt8] = []) -> [UInt8] {
    var fields = [UInt8](repeating: 0, count: 78)
    fields[25] = 64
    fields[27] = 32
    let entry = box("avc1", fields + extra)
    let stsd = box("stsd", [0, 0, 0, 0] + be32(1) + entry)
    let stco = box("stco", [0, 0, 0, 0] + be32(offsets.count) + offsets.flatMap(be32))
    let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
    let trak = box("trak", box("mdia", hdlr + box("minf", box("stbl", stsd + stco))))
    return box("moov", trak + more)
  }

  static func readBack(_ moov: [UInt8]) -> SphericalVideo? {
    var reader = MP4SphericalReader(fileSize: Int64(moov.count))
    while case .need(let offset, let count) = reader.next {
      let start = min(Int(offset), moov.count)
      reader.feed(Array(moov[start..<min(start + count, moov.count)]))
    }
    guard case .done(let video, _) = reader.next else { return nil }
    return video
  }

  static func offsets(_ moov: [UInt8]) -> [Int] {
    let at = (0..<(moov.count - 4)).first { moov[$0..<($0 + 4)].elementsEqual(Array("stco".utf8)) }! + 8
    let count = Int(moov[at]) << 24 | Int(moov[at + 1]) << 16 | Int(moov[at + 2]) << 8 | Int(moov[at + 3])
    return (0..<count).map { k in
      let i = at + 4 + 4 * k
      return Int(moov[i]) << 24 | Int(moov[i + 1]) << 16 | Int(moov[i + 2]) << 8 | Int(moov[i + 3])
    }
  }

  @Test func aTaggedMoovReadsBackAndItsOffsetsMove() throws {
    var tag = SphericalTag()
    tag.stereo = .topBottom
    tag.yaw = 90
    let old = Self.moov(offsets: [10, 5000, 6000])
    let (moov, moved) = try MP4SphericalTagger.retag(moov: old, tag: tag, shiftFrom: 1000)
    let growth = moov.count - old.count
    #expect(growth == tag.boxes.count)
    #expect(moved == 1)
    #expect(Self.offsets(moov) == [10, 5000 + growth, 6000 + growth])
    let video = try #require(Self.readBack(moov))
    #expect(video.stereo == .topBottom)
    #expect(abs(video.pose.yaw - .pi / 2) < 1e-6)
  }

  /// A larger tag than ours (another tool's `svhd` with a long name) shrinks the entry: the
  /// offsets move back. Subtracting as unsigned trapped in the CLI's own walker.
  @Test func aLargerOldTagShrinksTheEntryAndTheOffsetsMoveBack() throws {
    let longName = Self.box("svhd", [0, 0, 0, 0] + [UInt8](repeating: 0x61, count: 300) + [0])
    let old = Self.moov(extra: Self.box("sv3d", longName), offsets: [5000])
    let (moov, moved) = try MP4SphericalTagger.retag(moov: old, tag: SphericalTag(), shiftFrom: 1000)
    #expect(moov.count < old.count)
    #expect(moved == 1)
    #expect(Self.offsets(moov) == [5000 - (old.count - moov.count)])
    #expect(Self.readBack(moov)?.stereo == .mono)
  }

  /// A box of size 0 ("to its parent's end") in the entry is written with its size: left 0,
  /// it would swallow the tag that follows it.
  @Test func aSizeZeroBoxInTheEntryKeepsTheTagVisible() throws {
    let toTheEnd = [0, 0, 0, 0] + Array("colr".utf8) + [1, 2, 3, 4]
    let (moov, _) = try MP4SphericalTagger.retag(moov: Self.moov(extra: toTheEnd), tag: SphericalTag(), shiftFrom: 0)
    #expect(Self.readBack(moov) != nil)
  }

  @Test func hostileBoxesAreRefusedByName() {
    func refusal(_ moov: [UInt8]) -> String {
      do throws(MP4Box.Failure) {
        _ = try MP4SphericalTagger.retag(moov: moov, tag: SphericalTag(), shiftFrom: 0)
        return ""
      } catch {
        return error.message
      }
    }
    let whole = Self.moov(offsets: [1])
    // Cut short: moov claims more than there is.
    #expect(refusal(Array(whole.prefix(whole.count - 10))).contains("runs past its parent"))
    // A child whose 64-bit size is near 2⁶³.
    let overflow = Self.be32(1) + Array("free".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
    #expect(refusal(Self.moov(more: overflow)).contains("runs past its parent"))
    // Thousands of children.
    let flood = (0..<5000).flatMap { _ in Self.box("free", []) }
    #expect(refusal(Self.moov(more: flood)).contains("over 4096 boxes"))
    // An stco that lists more chunks than it holds.
    var lying = Self.moov(offsets: [1])
    let at = (0..<(lying.count - 4)).first { lying[$0..<($0 + 4)].elementsEqual(Array("stco".utf8)) }! + 8
    lying.replaceSubrange(at..<(at + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
    #expect(refusal(lying).contains("stco lists 2147483647 chunks"))
    #expect(refusal(Self.box("moov", [])).contains("no video track"))
  }
}
